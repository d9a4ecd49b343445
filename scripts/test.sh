#!/usr/bin/env bash
# The test command (README command b runs it after setup): the whole offline test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
