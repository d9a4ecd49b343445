#!/usr/bin/env bash
# The test command (README command b runs it after setup): the whole offline test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests start tools the venv installs (secantusd-py, scrapyd, scrapy) as programs.
export PATH="$PWD/.venv/bin:$PATH"
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
