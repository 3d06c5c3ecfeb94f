#!/usr/bin/env bash
# Install what Tableside needs on a fresh Debian 12 (run as root), idempotently:
# Debian packages for Kivy's offscreen rendering, then a virtualenv in .venv with the
# project and its pinned dependencies. Sourced by scripts/demo and scripts/test.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"

apt_pkgs=(python3 python3-venv python3-dev libgl1 libegl1 libgl1-mesa-dri libmtdev1 git)
# The test command adds what only the tests need (a PostgreSQL server, a browser).
read -r -a extra_pkgs <<< "${TABLESIDE_EXTRA_APT:-}"
apt_pkgs+=("${extra_pkgs[@]}")
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "tableside: need Debian packages ${missing[*]}; run as root or install them first" >&2
    exit 1
  fi
  echo "tableside: installing Debian packages: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Debian's own Python, so the kiosk runs the same interpreter as the SD image.
py=/usr/bin/python3
[ -x "$py" ] || py="$(command -v python3)"
stamp=.venv/.tableside-installed
want="$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -x .venv/bin/python ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "tableside: preparing .venv (first run takes a few minutes)" >&2
  [ -x .venv/bin/python ] || "$py" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[dev]'
  echo "$want" > "$stamp"
fi

# Kivy stays inside the repo and never parses our argv; gpiozero falls back to mock
# pins when no real GPIO chip is there (see hardware/gpio/factory.py).
export KIVY_HOME="$top/.kivy"
export KIVY_NO_ARGS=1
export KIVY_NO_CONFIG=1
export KIVY_NO_FILELOG=1
export KIVY_LOG_MODE=PYTHON
mkdir -p "$KIVY_HOME"
export PATH="$top/.venv/bin:$PATH"
