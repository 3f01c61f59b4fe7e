#!/usr/bin/env bash
# Quick start, step two: run every test.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/deps.sh
[ -f build/build.ninja ] || meson setup build
meson compile -C build
meson test -C build --print-errorlogs

# The Python binding, built against this build tree, and its tests. Its
# distribution was called tco before 1.1: an old install of it goes first.
if python3 -m pip show tco 2>/dev/null | grep "Python binding of libtco" >/dev/null; then
  python3 -m pip uninstall --quiet --yes tco
fi
TCO_LIBTCO=system PKG_CONFIG_PATH="$PWD/build/meson-uninstalled" python3 -m pip install --quiet --disable-pip-version-check \
  --root-user-action=ignore --no-build-isolation --no-deps --force-reinstall ./bindings/python
MPLBACKEND=Agg python3 -m pytest -q bindings/python/tests

# The Go binding against this build tree: go vet, its tests, and the tests again under the
# race detector (Go 1.24 or later; skipped, with a note, where there is no go command).
if command -v go >/dev/null; then
  # Go's build cache does not see headers outside the module: their hash in
  # the cgo flags (part of its key) rebuilds the binding when tco.h changes.
  headers=$(cat include/tco.h build/include/tco_version.h | sha1sum | cut -c1-16)
  (export PKG_CONFIG_PATH="$PWD/build/meson-uninstalled" LD_LIBRARY_PATH="$PWD/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" GOTOOLCHAIN=local
   export CGO_CFLAGS="-g -O2 -DTCO_HEADERS_$headers"
   cd bindings/go && go vet ./... && go test -count=1 ./... && go test -count=1 -race ./...)
else
  echo "go: not found, the Go binding's tests (bindings/go) were not run"
fi
