#!/usr/bin/env bash
# The test command (README command b runs it after setup): the whole offline test suite.
# It runs in SACORPUS_TEST_WORKERS processes (3; 0 runs in this one): most tests wait on real servers
# and crawl subprocesses, so workers overlap the waiting even on 2 cores. A test file stays in one worker
# (--dist loadfile), so module-scoped servers are started once.
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests start tools the venv installs (secantusd-py, scrapyd, scrapy) as programs.
export PATH="$PWD/.venv/bin:$PATH"
workers="${SACORPUS_TEST_WORKERS:-3}"
parallel=()
[ "$workers" != 0 ] && parallel=(-n "$workers" --dist loadfile)
exec .venv/bin/python -m pytest -q -p no:cacheprovider "${parallel[@]}" "$@"
