#!/usr/bin/env bash
# Quick start, step two: run every test.
set -euo pipefail
cd "$(dirname "$0")/.."

./tools/deps.sh
[ -f build/build.ninja ] || meson setup build
meson compile -C build
meson test -C build --print-errorlogs

# The Python binding, built against this build tree, and its tests.
PKG_CONFIG_PATH="$PWD/build/meson-uninstalled" python3 -m pip install --quiet --disable-pip-version-check \
  --root-user-action=ignore --no-build-isolation --no-deps --force-reinstall ./bindings/python
MPLBACKEND=Agg python3 -m pytest -q bindings/python/tests
