#!/usr/bin/env bash
# Sets up sacorpus on a fresh Debian machine with Python 3.11: a virtualenv in .venv with the frozen
# runtime requirements (and, with --dev, the test and benchmark tools and the servers the tests start;
# with --render or --dev, Chromium for publications whose pages a browser must render).
# Safe to run again; it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
[ "${1:-}" = "--dev" ] && dev=1

apt_install() {
  # Debian packages, installed only when missing (root, or sudo when available).
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

PY=${PYTHON:-python3}
if ! "$PY" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  apt_install python3-venv python3-pip
fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
if [ "$dev" = 1 ]; then
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
  # Servers the tests start on loopback: redis-server (distributed crawls). The MongoDB-wire server
  # (SecantusDB) and scrapyd come from requirements-dev.txt.
  command -v redis-server >/dev/null 2>&1 || apt_install redis-server
fi
# JavaScript rendering (a publication file with a [render] table): Debian's Chromium, driven through
# Playwright (never `playwright install`, which downloads a browser of its own). --render installs it for
# crawling, --dev for the tests that render pages.
case " $* " in
  *" --render "* | *" --dev "*) apt_install chromium ;;
esac
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps -e .
echo "sacorpus is set up in .venv (activate with: . .venv/bin/activate)"
