#!/usr/bin/env bash
# Quick start, step one: install what is missing, build, and print the cost
# report of the built-in scenario.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/deps.sh
[ -f build/build.ninja ] || meson setup build
meson compile -C build
./build/examples/tco-report
