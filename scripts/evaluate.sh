#!/usr/bin/env bash
# The evaluation gate: `scrapy evaluate` over the third-party extraction datasets in ../shared/data
# (publication rules applied where the page's publisher has a file), failing below the floors pinned in
# benchmarks/evaluation_floors.toml. Takes about two minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${SACORPUS_EVAL_DATA:-../shared/data/extraction}
if [ ! -d "$data/fundus_dev" ] || [ ! -d "$data/trafilatura_eval" ]; then
  echo "evaluation gate: no datasets under $data (set SACORPUS_EVAL_DATA)" >&2
  exit 1
fi
exec .venv/bin/scrapy evaluate "$data/fundus_dev" "$data/trafilatura_eval" \
  --floors benchmarks/evaluation_floors.toml "$@"
