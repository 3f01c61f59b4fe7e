#!/bin/sh
# Regenerates the golden scenarios and their results with the tco command.
#
#   tests/golden/regenerate.sh [BUILD_DIR]      (default: build)
#
# Each scenario starts as the few values below that differ from the
# defaults; tco writes it out in full as canonical CBOR (NAME.cbor) and as
# JSON (NAME.json), and prices it (NAME.result.cbor, and NAME.result.json to
# read). Run it when a change to the model, the defaults or the parameter
# table is meant to change the numbers, and commit the files with the change:
# tests/golden/test_golden.c fails until then, and the bindings' tests compare
# against the same files.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
tco=$build/tools/tco/tco
[ -x "$tco" ] || { echo "no $tco: build first (meson compile -C $build)" >&2; exit 2; }

scenario() {
    name=$1
    spec=$(mktemp)
    cat >"$spec"
    "$tco" convert --force --from json "$spec" "$here/$name.cbor"
    "$tco" convert --force "$here/$name.cbor" "$here/$name.json"
    "$tco" report --force "$here/$name.cbor" --format cbor -o "$here/$name.result.cbor"
    "$tco" report --force "$here/$name.cbor" --format json -o "$here/$name.result.json"
    rm -f "$spec"
    echo "$name: $("$tco" fingerprint "$here/$name.cbor" | head -n 1)"
}

# The built-in scenario: every default.
scenario default <<'JSON'
{"format": "libtco-scenario", "version": 1}
JSON

# The same cluster owned: bought, powered and cooled (liquid) in-house.
scenario owned <<'JSON'
{"format": "libtco-scenario", "version": 1,
 "topology": {"owned_share": 1, "cooling": "liquid", "pue": 1.12},
 "pricing": {"electricity_per_kwh": 0.08, "capex_per_accelerator": 27500}}
JSON

# A mixture-of-experts model: 671B parameters, 37B active per token, FP8.
scenario moe <<'JSON'
{"format": "libtco-scenario", "version": 1,
 "topology": {"accelerators": 2048, "accelerator_model": "H200-SXM"},
 "workload": {"params_total": 671e9, "params_active": 37e9, "layers": 61, "hidden_size": 7168,
              "tokens": 14.8e12, "precision": "fp8", "mfu": 0.23, "tensor_parallel": 8,
              "pipeline_parallel": 16, "checkpoint_async": true}}
JSON

# Three sites, a mixed rental (reserved, spot, on demand), repeated runs.
scenario multisite <<'JSON'
{"format": "libtco-scenario", "version": 1,
 "topology": {"accelerators": 4608, "accelerator_model": "B200", "sites": 3,
              "reserved_share": 0.5, "spot_share": 0.2, "storage_warm_tb": 2000},
 "workload": {"params_total": 405e9, "tokens": 15.6e12, "runs": 3, "retry_share": 0.1,
              "queue_wait_hours": 48, "egress_cross_region_gb": 50000, "tensor_parallel": 8,
              "pipeline_parallel": 16, "job_accelerators": 4096},
 "pricing": {"on_demand_per_accel_hour": 6.5, "reserved_per_accel_hour": 4.1,
             "spot_per_accel_hour": 3.2, "currency": "EUR", "price_date": "2025-09"}}
JSON
