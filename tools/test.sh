#!/usr/bin/env bash
# Quick start, step two: run every test.
set -euo pipefail
cd "$(dirname "$0")/.."

./tools/deps.sh
[ -f build/build.ninja ] || meson setup build
meson compile -C build
meson test -C build --print-errorlogs
