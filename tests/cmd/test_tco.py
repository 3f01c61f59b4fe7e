#!/usr/bin/env python3
"""The tco command, run as a user runs it (doc/tco.md).

Usage: test_tco.py TCO GOLDEN_DIR

Checks every subcommand and output format, the exit codes, that JSON and
CBOR give the same fingerprint for each golden scenario, that converting
round-trips, and that bad input is refused with a message naming the file,
the key and the problem.
"""
import json
import os
import subprocess
import sys
import tempfile

TCO, GOLDEN = sys.argv[1], sys.argv[2]
GOLDEN_NAMES = ["default", "owned", "moe", "multisite"]
failures = 0


def run(*args, stdin=None):
    p = subprocess.run([TCO, *args], input=stdin, capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what, file=sys.stderr)


def expect(args, code, *needles, stdin=None):
    rc, out, err = run(*args, stdin=stdin)
    check(rc == code, f"tco {' '.join(args)}: exit {rc}, expected {code}; stderr: {err.strip()}")
    for n in needles:
        check(n in err, f"tco {' '.join(args)}: stderr lacks {n!r}: {err.strip()}")
    return out, err


def main():
    tmp = tempfile.mkdtemp(prefix="tco-test-")

    def path(name):
        return os.path.join(tmp, name)

    def write(name, text):
        with open(path(name), "w", encoding="utf-8") as f:
            f.write(text)
        return path(name)

    # --help, --version, usage errors.
    out, _ = expect(["--help"], 0)
    check(b"tco report" in out and b"Exit status" in out, "--help lists the commands")
    out, _ = expect(["--version"], 0)
    check(b"scenario format version 1" in out, "--version names the format version")
    expect([], 2)
    expect(["frobnicate"], 2, "unknown command")
    expect(["report", "--format", "yaml"], 2, "--format yaml")
    expect(["report", "--bogus"], 2, "unknown option")
    expect(["convert", "only-one.json"], 2)
    expect(["convert", path("x.json"), "-"], 2, "--to")

    # params in every format.
    rc, out, _ = run("params", "--format", "json")
    params = json.loads(out)
    check(rc == 0 and len(params) > 100, "params --format json lists the parameters")
    names = {p["name"] for p in params}
    check({"accelerators", "mfu", "currency"} <= names, "params has the known names")
    acc = next(p for p in params if p["name"] == "accelerator_model")
    check("H100-SXM" in acc["choices"], "choices listed")
    rc, out, _ = run("params", "--format", "csv")
    lines = out.decode().splitlines()
    check(rc == 0 and len(lines) == len(params) + 1, "params --format csv: a header and a row each")
    rc, out, _ = run("params", "--format", "markdown")
    check(rc == 0 and out.startswith(b"# Parameters"), "params --format markdown")
    rc, out, _ = run("params")
    check(rc == 0 and b"accelerators" in out, "params table")

    # report in every format; JSON keys are the field names.
    rc, out, _ = run("report", "--format", "json")
    rep = json.loads(out)
    check(rc == 0, "report of the built-in scenario")
    check(abs(sum(rep["cost"].values()) - rep["total"]) <= 1e-6 * rep["total"], "json total is the sum of cost")
    check("scenario_fingerprint" in rep and "wall_hours" in rep and "idle" in rep["waste"], "json fields")
    rc, out, _ = run("report", "--format", "csv")
    rows = dict(line.split(",")[:2] for line in out.decode().splitlines()[1:])
    check(rc == 0 and float(rows["total"]) == rep["total"], "csv total equals json total exactly")
    check("cost.compute" in rows and "waste.idle" in rows, "csv nested names")
    rc, out, _ = run("report")
    check(rc == 0 and b"total" in out and b"scenario fingerprint" in out, "table report")
    expect(["report", "--format", "cbor", "-o", path("r.cbor")], 0)
    check(os.path.getsize(path("r.cbor")) > 500, "report --format cbor -o writes the result")

    # The golden scenarios: JSON and CBOR give the same fingerprint and the
    # same result; convert reproduces the committed files byte for byte.
    for name in GOLDEN_NAMES:
        cb, js = os.path.join(GOLDEN, name + ".cbor"), os.path.join(GOLDEN, name + ".json")
        rc1, f1, e1 = run("fingerprint", cb)
        rc2, f2, e2 = run("fingerprint", js)
        check(rc1 == 0 and rc2 == 0, f"{name}: fingerprint runs ({e1}{e2})")
        check(f1 == f2 and len(f1.splitlines()) == 4, f"{name}: JSON and CBOR fingerprints agree")
        expect(["convert", js, path(name + ".cbor")], 0)
        with open(cb, "rb") as a, open(path(name + ".cbor"), "rb") as b:
            check(a.read() == b.read(), f"{name}: JSON converts to the committed CBOR")
        expect(["convert", cb, path(name + ".json")], 0)
        with open(js, "rb") as a, open(path(name + ".json"), "rb") as b:
            check(a.read() == b.read(), f"{name}: CBOR converts to the committed JSON")
        expect(["report", js, "--format", "cbor", "-o", path(name + ".result.cbor")], 0)
        with open(os.path.join(GOLDEN, name + ".result.cbor"), "rb") as a, open(path(name + ".result.cbor"), "rb") as b:
            check(a.read() == b.read(), f"{name}: the JSON prices to the committed result")
        fp = int(f1.split()[1], 16)
        rc, out, _ = run("report", cb, "--format", "json")
        check(json.loads(out)["scenario_fingerprint"] == fp, f"{name}: the report carries the fingerprint")

    # Standard input and output, and --from/--to.
    with open(os.path.join(GOLDEN, "owned.json"), "rb") as f:
        owned = f.read()
    rc, out, _ = run("convert", "-", "-", "--from", "json", "--to", "json", stdin=owned)
    check(rc == 0 and out == owned, "convert - - round-trips JSON")
    with open(os.path.join(GOLDEN, "moe.cbor"), "rb") as f:
        moe = f.read()
    rc, out, _ = run("convert", "-", path("moe.out"), "--to", "cbor", stdin=moe)
    with open(path("moe.out"), "rb") as f:
        check(rc == 0 and f.read() == moe, "CBOR from standard input, sniffed")

    # A hand-written JSON: only what differs; booleans, integers for reals.
    hand = write("hand.json", json.dumps({
        "format": "libtco-scenario", "version": 1,
        "topology": {"accelerators": 2048, "pue": 1, "cooling": "liquid"},
        "workload": {"checkpoint_async": True, "mfu": 0.5},
        "pricing": {"currency": "EUR"}}))
    expect(["report", hand], 0)

    # Refusals: the file, the key and the problem; exit 1.
    def bad(name, doc, *needles):
        p = write(name, doc if isinstance(doc, str) else json.dumps(doc))
        expect(["report", p], 1, p, *needles)

    head = {"format": "libtco-scenario", "version": 1}
    bad("dup.json", '{"format": "libtco-scenario", "version": 1, "topology": {"pue": 1.1, "pue": 1.2}}',
        "duplicate", "pue")
    bad("unknown.json", {**head, "topology": {"acelerators": 8}}, "topology", "unknown key \"acelerators\"")
    bad("wrong-handle.json", {**head, "topology": {"mfu": 0.5}}, "mfu belongs to the workload")
    bad("type.json", {**head, "topology": {"accelerators": "many"}}, "topology.accelerators is a number")
    bad("choice.json", {**head, "topology": {"cooling": 1}}, "topology.cooling is a choice", "allowed air, liquid")
    bad("range.json", {**head, "workload": {"mfu": 3}}, "workload", "mfu = 3 is out of range")
    bad("whole.json", {**head, "topology": {"accelerators": 10.5}}, "whole number")
    bad("null.json", {**head, "pricing": {"currency": None}}, "pricing.currency is a text")
    bad("nested.json", {**head, "pricing": {"min_fte": [[1]]}}, "min_fte is a number", "found an array")
    bad("version.json", {"format": "libtco-scenario", "version": 2}, "format version 2", "upgrade")
    bad("version-key.json", {"format": "libtco-scenario", "version": 2, "pricing": {"carbon": 1}},
        "unknown key \"carbon\"", "format version 2")
    bad("noformat.json", {"version": 1}, "no \"format\"")
    bad("format.json", {"format": "other", "version": 1}, "format is \"other\"")
    bad("noversion.json", {"format": "libtco-scenario"}, "no \"version\"")
    bad("section.json", {**head, "topology": 3}, "a topology is an object")
    bad("top.json", "[1, 2]", "not a libtco scenario")
    bad("scenario-key.json", {**head, "cluster": {}}, "unknown scenario key \"cluster\"")
    bad("syntax.json", '{"format": "libtco-scenario",\n "version": 1,,}', ":2:", "not valid JSON")
    bad("nan.json", '{"format": "libtco-scenario", "version": 1, "workload": {"mfu": NaN}}', "not valid JSON")
    bad("huge.json", '{"format": "libtco-scenario", "version": 1, "workload": {"mfu": 1e999}}', "not valid JSON")
    bad("deep.json", "[" * 100000 + "]" * 100000, "not valid JSON")
    bad("freeze.json", {**head, "topology": {"switch_radix": 63}}, "switch_radix = 63 must be even")
    bad("price.json", {**head, "workload": {"job_accelerators": 4096}}, "job")
    # CBOR refusals name the file and carry the library's message.
    with open(os.path.join(GOLDEN, "default.cbor"), "rb") as f:
        default = f.read()
    p = path("cut.cbor")
    with open(p, "wb") as f:
        f.write(default[:100])
    expect(["report", p], 1, p, "truncated")
    p = path("garbage.cbor")
    with open(p, "wb") as f:
        f.write(bytes(range(256)))
    expect(["report", p], 1, p)
    # Files that cannot be read or written: exit 3.
    expect(["report", path("missing.json")], 3, "missing.json", "cannot open")
    expect(["convert", os.path.join(GOLDEN, "default.json"), os.path.join(tmp, "no", "dir", "x.cbor")], 3,
           "cannot create")

    if failures:
        print(f"{failures} check(s) failed", file=sys.stderr)
        return 1
    print("tco command: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
