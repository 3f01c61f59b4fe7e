#!/usr/bin/env python3
"""The tco command, run as a user runs it (doc/tco.md).

Usage: test_tco.py TCO GOLDEN_DIR MONTH_DIR

MONTH_DIR is examples/month: a generated month of usage records and the
cluster that prices them.

Checks every subcommand and output format, the exit codes, that JSON and
CBOR give the same fingerprint for each golden scenario, that converting
round-trips, that bad input is refused with a message naming the file,
the key and the problem, and that compare and sensitivity print what the
library computes.
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

TCO, GOLDEN, MONTH = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
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
    check(rows["schema"] == "libtco-report" and rows["currency"] == "USD" and
          rows["scenario_fingerprint"] == rep["scenario_fingerprint"], "csv: schema, currency, hex fingerprint")
    report_schema_checks(rep)
    rc, out, _ = run("report")
    check(rc == 0 and b"total" in out and b"scenario fingerprint" in out, "table report")
    check(b"H100-SXM's list price" in out and b"H100-SXM has no list price" in out,
          "table report: the rates charged and where they come from")
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
        check(json.loads(out)["scenario_fingerprint"] == f"{fp:016x}", f"{name}: the report carries the fingerprint")

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
        "pricing": {"currency": "EUR", "on_demand_per_accel_hour": 6}}))
    expect(["report", hand], 0)
    # List prices are in USD: in another currency a rate left to them is named.
    listed = write("listed.json", json.dumps({"format": "libtco-scenario", "version": 1,
                                              "pricing": {"currency": "EUR"}}))
    expect(["report", listed], 1, listed, "on_demand_per_accel_hour", "USD", "EUR")

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

    compare_checks(path, write)
    sensitivity_checks(write)
    attribute_checks(write)
    period_checks(write)
    waste_checks()
    lifetime_checks(write)
    programme_checks(path, write)
    story_checks(write)
    whole_file_checks(path, write)
    scripting_checks(path, write)
    dashboard_checks(path, write)
    raw_bytes_checks(write)
    json_input_checks(write)
    output_checks(path, write)
    option_checks(path)
    more_command_checks(write)
    corner_checks(path, write)

    if failures:
        print(f"{failures} check(s) failed", file=sys.stderr)
        return 1
    print("tco command: all checks passed")
    return 0


def report_of(path):
    rc, out, _ = run("report", path, "--format", "json")
    check(rc == 0, f"report {path}")
    return json.loads(out)


def compare_checks(path, write):
    """tco compare: the scenarios side by side, each against the first."""
    default, owned, moe = (os.path.join(GOLDEN, n + ".json") for n in ("default", "owned", "moe"))
    with open(owned, encoding="utf-8") as f:
        mig = json.load(f)
    mig["pricing"].update(migration_cost=150000, learning_fte_months=4, staff_per_fte_year=180000)
    migrated = write("migrated.json", json.dumps(mig))

    rc, out, err = run("compare", default, migrated, moe, "--format", "json")
    check(rc == 0, f"compare --format json: {err}")
    doc = json.loads(out)
    opts = doc["options"]
    check(doc["currency"] == "USD" and len(opts) == 3, "compare json: the currency and one entry a scenario")
    check([o["scenario"] for o in opts] == [default, migrated, moe], "compare json: scenarios in order")
    base = opts[0]
    for o, p in zip(opts, (default, migrated, moe)):
        rep = report_of(p)
        for key in ("total", "cost_per_run", "cost_per_million_tokens", "cost_per_effective_accelerator_hour",
                    "cost_per_pflop_day", "scenario_fingerprint"):
            check(o[key] == rep[key], f"compare {p}: {key} is the report's")
        check(o["cost"] == rep["cost"], f"compare {p}: costs by category are the report's")
        check(set(o["difference"]) == set(rep["cost"]), f"compare {p}: a difference per category")
        for c, v in o["difference"].items():
            check(abs(v - (o["cost"][c] - base["cost"][c])) <= 1e-9 * max(1, abs(o["cost"][c])),
                  f"compare {p}: difference.{c} is cost - the first's")
        check(abs(o["total_difference"] - (o["total"] - base["total"])) <= 1e-9 * o["total"],
              f"compare {p}: total_difference")
        check(o["cheaper"] == (o["cost_per_million_tokens"] < base["cost_per_million_tokens"]),
              f"compare {p}: cheaper reads the cost per million tokens")
        check(0 < o["breakeven_utilisation"] and 0 < o["breakeven_rate"], f"compare {p}: break-even figures")
    check(base["total_difference"] == 0 and base["saving_per_run"] == 0 and base["pays_back"] is False
          and base["cheaper"] is False, "compare: the first against itself")
    # The owned cluster with a migration: 150,000 + 4 x 180,000 / 12 = 210,000
    # once, repaid by what it saves a run; one run in its held hours.
    m = opts[1]
    check(abs(m["one_off"] - 210000) <= 1e-6, "compare: one-off = migration + learning x staff / 12")
    check(abs(m["recurring_per_run"] - (m["total"] - 210000)) <= 1e-6 * m["total"], "compare: recurring per run")
    saving = base["recurring_per_run"] - m["recurring_per_run"]
    check(abs(m["saving_per_run"] - saving) <= 1e-6 * saving, "compare: saving per run")
    check(m["pays_back"] is True and abs(m["payback_runs"] - 210000 / saving) <= 1e-9 * m["payback_runs"],
          "compare: payback in runs")
    held = report_of(migrated)["held_hours"]
    check(abs(m["saving_per_month"] - saving / (held / 730.5)) <= 1e-9 * m["saving_per_month"],
          "compare: saving per month, one run per held month")
    check(abs(m["payback_months"] - 210000 / m["saving_per_month"]) <= 1e-9 * m["payback_months"],
          "compare: payback in months")
    rc, out, _ = run("fingerprint", migrated)
    check(out.split()[1].decode() == m["scenario_fingerprint"], "compare: the fingerprint is the file's, in hexadecimal")

    # CSV: a column per scenario, the same numbers as the JSON, exactly.
    rc, out, _ = run("compare", default, migrated, "--format", "csv")
    lines = out.decode().splitlines()
    check(rc == 0 and lines[0] == f"field,unit,{default},{migrated}", "compare csv: header")
    rows = {line.split(",")[0]: line.split(",")[2:] for line in lines[1:]}
    check(float(rows["total"][1]) == m["total"], "compare csv: total equals the json's exactly")
    check(float(rows["difference.compute"][1]) == m["difference"]["compute"], "compare csv: difference.compute")
    check(rows["pays_back"] == ["0", "1"] and "breakeven_rate" in rows, "compare csv: flags and break-even")

    # The table and Markdown: labelled, side by side.
    rc, out, _ = run("compare", default, migrated)
    text = out.decode()
    check(rc == 0 and default in text and migrated in text, "compare table: both scenarios named")
    for label in ("per million tokens", "per effective accelerator-hour", "per PFLOP-day", "one-off",
                  "payback in runs", "break-even utilisation", "break-even rental rate", "compute"):
        check(label in text, f"compare table: {label}")
    rc, out, _ = run("compare", default, migrated, "--format", "markdown")
    md = out.decode().splitlines()
    check(rc == 0 and md[0].startswith("| |") and "(baseline)" in md[0] and md[1] == "|---|---:|---:|",
          "compare markdown: a table with the baseline first")
    check(all(line.startswith("| ") and line.endswith(" |") for line in md[2:]), "compare markdown: rows")
    check(any(line.startswith("| compute against the first (USD) |") for line in md), "compare markdown: compute differs")
    check(not any(line.startswith("| database against the first") for line in md),
          "compare markdown: categories that do not differ are left out")
    expect(["compare", default, migrated, "-o", path("cmp.md"), "--format=markdown"], 0)
    with open(path("cmp.md"), encoding="utf-8") as f:
        check(f.read().splitlines() == md, "compare -o writes the same")

    # Refusals.
    expect(["compare", default], 2, "at least two")
    expect(["compare"], 2, "at least two")
    expect(["compare", default, migrated, "--format", "cbor"], 2, "--format cbor")
    expect(["compare", default, migrated, "--share", "0.1"], 2, "--share")
    eur = write("eur.json", json.dumps({"format": "libtco-scenario", "version": 1,
                                        "pricing": {"currency": "EUR", "on_demand_per_accel_hour": 6}}))
    expect(["compare", default, moe, eur], 1, eur, "EUR", "USD", "one currency")
    bad = write("cmp-bad.json", json.dumps({"format": "libtco-scenario", "version": 1,
                                            "workload": {"tensor_parallel": 3}}))
    expect(["compare", default, bad], 1, bad, "tensor_parallel")
    expect(["compare", default, path("nowhere.json")], 3, "nowhere.json")


def sensitivity_checks(write):
    """tco sensitivity: the ranked tornado (tco_sensitivity)."""
    rc, out, err = run("params", "--format", "json")
    numeric = {p["name"]: p for p in json.loads(out) if p["type"] in ("real", "int")}
    rc, out, err = run("sensitivity", "--format", "json")
    check(rc == 0, f"sensitivity --format json: {err}")
    if rc != 0:
        return
    doc = json.loads(out)
    swings = doc["swings"]
    check(doc["share"] == 0.1 and doc["currency"] == "USD", "sensitivity json: share and currency")
    check(doc["total"] == report_of_builtin()["total"], "sensitivity json: the total as given is the report's")
    check(len(swings) == len(numeric) and {s["parameter"] for s in swings} == set(numeric),
          "sensitivity json: a row for every real and int parameter")
    check([s["rank"] for s in swings] == list(range(1, len(swings) + 1)), "sensitivity json: ranks")
    check(all(a["spread"] >= b["spread"] for a, b in zip(swings, swings[1:])), "sensitivity: largest spread first")
    check(all(s["status"] == "ok" or s["spread"] == 0 for s in swings), "sensitivity: a failed row has no spread")
    mfu = next(s for s in swings if s["parameter"] == "mfu")
    d = numeric["mfu"]["default"]
    check(abs(mfu["low_value"] - 0.9 * d) <= 1e-12 and abs(mfu["high_value"] - 1.1 * d) <= 1e-12,
          "sensitivity: mfu swung by 10%")
    check(abs(mfu["spread"] - abs(mfu["high_total"] - mfu["low_total"])) <= 1e-9 * mfu["spread"],
          "sensitivity: spread = |high - low|")

    rc, out, _ = run("sensitivity", "--share", "0.2", "--format", "csv")
    lines = out.decode().splitlines()
    check(rc == 0 and lines[0].startswith("rank,parameter,low_value,high_value,low_total,high_total"),
          "sensitivity csv: header")
    check(len(lines) == len(numeric) + 1, "sensitivity csv: a row each")
    row = next(line.split(",") for line in lines[1:] if line.split(",")[1] == "mfu")
    check(abs(float(row[2]) - 0.8 * d) <= 1e-12 and abs(float(row[3]) - 1.2 * d) <= 1e-12,
          "sensitivity --share 0.2 swings by 20%")
    rc, out, _ = run("sensitivity", os.path.join(GOLDEN, "owned.cbor"))
    text = out.decode()
    check(rc == 0 and "rank" in text and "spread" in text and "owned.cbor" in text, "sensitivity table")

    expect(["sensitivity", "--share", "lots"], 2, "--share takes a number")
    expect(["sensitivity", "--share", "2"], 2, "share")
    expect(["sensitivity", "--format", "markdown"], 2, "--format markdown")
    expect(["sensitivity", "a.json", "b.json"], 2, "unexpected argument")
    bad = write("sens-bad.json", json.dumps({"format": "libtco-scenario", "version": 1,
                                             "workload": {"tensor_parallel": 3}}))
    expect(["sensitivity", bad], 1, bad, "tensor_parallel")


# The CSV example of doc/records.md with one refused row and an untagged record.
USAGE_CSV = """start,end,accelerators,utilisation,price_class,state,tag.project,tag.user
2026-11-01T00:00:00Z,2026-11-01T02:00:00Z,8,0.62,on_demand,completed,llama,alice
2026-11-01T01:30:00Z,2026-11-01T03:00:00Z,16,,spot,failed,"vision, eval",bob
2026-11-01T01:30:00Z,2026-11-01T03:00:00Z,banana,,spot,failed,x,bob
2026-11-01T02:00:00Z,2026-11-01T04:00:00Z,4,,owned,completed,,carol
"""
USAGE_SACCT = """100|pretrain|llama|alice|gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T02:00:00|7200|cpu=64,gres/gpu=8,node=1
100.batch|batch|llama|alice||COMPLETED|2026-11-01T00:00:00|2026-11-01T02:00:00|7200|cpu=64,gres/gpu=8,node=1
101|eval|vision|bob|gpu|RUNNING|2026-11-01T01:00:00|Unknown|3600|cpu=16,gres/gpu=2,node=1
"""


def attribute_checks(write):
    """tco attribute: every format adds up to the bill in cents, the rules
    do what they say, and a refused row or option is named."""
    usage = write("usage.csv", USAGE_CSV)
    # H100 has no spot list price: the records' spot hours need one set.
    expect(["attribute", usage, "--by", "project"], 1, "spot_per_accel_hour", "H100-SXM")
    priced = write("priced.json", json.dumps({"format": "libtco-scenario", "version": 1,
                                              "pricing": {"spot_per_accel_hour": 2}}))
    day = ["--period", "2026-11-01,2026-11-02"]
    rc, out, err = run("attribute", usage, priced, "--by", "project", *day, "--format", "json")
    check(rc == 0 and "line 4" in err and "banana" in err, "attribute: the refused row is named on stderr")
    d = json.loads(out)
    check(d["schema"] == "libtco-attribution" and d["schema_version"] == 1, "attribute json: its schema")
    bill, groups = d["bill"], d["groups"]
    check(bill["total_cents"] == sum(g["total_cents"] for g in groups) == sum(bill["category_cents"].values()),
          "attribute json: the groups and the categories add up to the bill, to the cent")
    check(all(sum(g["category_cents"].values()) == g["total_cents"] ==
              g["direct_cents"] + g["idle_cents"] + g["shared_cents"] for g in groups),
          "attribute json: each group's categories add up to it")
    check([g["project"] for g in groups] == ["llama", "vision, eval", None] and bill["rows_refused"] == 1,
          "attribute json: groups largest first, the untagged record as null")
    # 24 h, 48 accelerator-hours held: 8 x 2 + 16 x 1.5 + 4 x 2.
    check(bill["period_hours"] == 24 and bill["held_accelerator_hours"] == 48, "attribute json: the hours")

    rc, out, _ = run("attribute", usage, priced, "--by", "project,user", *day, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out.decode())))
    check(rc == 0 and list(rows[0])[:4] == ["project", "user", "total_cents", "direct_cents"], "attribute csv: header")
    check(sum(int(r["total_cents"]) for r in rows) == bill["total_cents"] and rows[1]["project"] == "vision, eval",
          "attribute csv: the pairs add up to the same bill")
    rc, out, _ = run("attribute", usage, priced, "--by", "project", *day)
    text = out.decode()
    check(rc == 0 and "bill" in text and "llama" in text and "(none)" in text, "attribute table")

    rc, out, _ = run("attribute", usage, priced, "--by", "user", *day, "--idle-rule", "owner", "--owner", "alice",
                     "--format", "json")
    d = json.loads(out)
    alice = next(g for g in d["groups"] if g["user"] == "alice")
    check(alice["idle_cents"] == d["bill"]["idle_cents"], "attribute --idle-rule owner: the owner takes all idle")
    rc, out, _ = run("attribute", usage, priced, "--by", "user", *day, "--idle-rule", "even", "--format", "json")
    idle = [g["idle_cents"] for g in json.loads(out)["groups"]]
    check(max(idle) - min(idle) <= 1, "attribute --idle-rule even: even to the cent")

    sacct = write("usage.txt", USAGE_SACCT)
    rc, out, _ = run("attribute", sacct, "--by", "project", "--format", "json")
    d = json.loads(out)
    check(rc == 0 and d["bill"]["records"] == 2 and d["bill"]["held_accelerator_hours"] == 8 * 2 + 2 * 1,
          "attribute: sacct found by its '|', steps skipped, the period the records' span")

    expect(["attribute", usage, priced, "--by", "project", "--strict"], 1, "line 4")
    expect(["attribute", usage, priced, "--by", "team"], 1, "--by team", "project, user")
    expect(["attribute", usage, priced, "--by", "user", "--idle-rule", "owner", "--owner", "dave"], 1, "--owner dave")
    expect(["attribute", usage, priced], 2, "--by")
    expect(["attribute", usage, priced, "--by", "a,b,c"], 2, "one tag key or two")
    expect(["attribute", usage, priced, "--by", "user", "--idle-rule", "fair"], 2, "usage, even or owner")
    expect(["attribute", usage, priced, "--by", "user", "--period", "2026-11-02,2026-11-01"], 2, "after the start")
    expect(["attribute", usage, priced, "--by", "user", "--period", "yesterday"], 2, "--period")
    expect(["attribute", usage, priced, "--by", "user", "--period", "2026-02-29,2026-03-01"], 2, "--period")  # not a leap year
    expect(["attribute", usage, priced, "--by", "user", "--records", "xlsx"], 2, "csv or sacct")
    expect(["attribute"], 2, "RECORDS")
    expect(["report", "--by", "user"], 2, "--by is not offered here")


def period_checks(write):
    """tco attribute --period in each of its forms gives the same bill as
    dates (2026-11-01 is epoch second 1,793,491,200: 20,758 days after
    1970-01-01), a leap day only in a leap year; every malformed time is
    refused naming the option, and so is a --by of empty keys."""
    usage = write("usage.csv", USAGE_CSV)
    priced = write("priced.json", json.dumps({"format": "libtco-scenario", "version": 1,
                                              "pricing": {"spot_per_accel_hour": 2}}))

    def bill(period):
        rc, out, err = run("attribute", usage, priced, "--by", "project", "--period", period, "--format", "json")
        check(rc == 0, f"--period {period}: {err}")
        return json.loads(out)["bill"] if rc == 0 else {}

    day = bill("2026-11-01,2026-11-02")
    check(day.get("period_hours") == 24, "--period of dates: 24 h")
    check(20758 * 86400 == 1793491200, "the epoch second of 2026-11-01")
    for same in ("2026-11-01T00:00:00Z,2026-11-02T00:00:00", "1793491200,1793577600",
                 "2026-11-01T00:00:00,1793577600"):
        b = bill(same)
        check(b.get("period_hours") == 24 and b.get("total_cents") == day["total_cents"],
              f"--period {same}: the same day, the same bill")
    # a leap day parses (the period then holds no record, which is the next refusal)
    expect(["attribute", usage, priced, "--by", "project", "--period", "2024-02-29,2024-03-01"], 1,
           "no record falls in the period")
    check(abs(bill("2026-11-01T01:30:15Z,2026-11-02").get("period_hours", 0) - (24 - 1.5 - 15 / 3600)) < 1e-9,
          "a time of day")
    for bad in ("2100-02-29,2100-03-01", "2026-13-01,2026-12-01", "2026-00-01,2026-12-01", "2026-11-31,2026-12-01",
                "2026-11-00,2026-12-01", "2026-11-01T24:00:00,2026-11-02", "2026-11-01T00:60:00,2026-11-02",
                "2026-11-01T00:00:60,2026-11-02", "2026-11-01T00:00,2026-11-02", "2026-11-01Q,2026-11-02",
                "1969-12-31,1970-01-02", "inf,1e300", "nan,1", "1793491200x,1793577600", ",1793577600"):
        expect(["attribute", usage, priced, "--by", "project", "--period", bad], 2, "--period: times are", bad)
    expect(["attribute", usage, priced, "--by", "project", "--period", "2026-11-01"], 2, "--period takes START,END")
    expect(["attribute", usage, priced, "--by", "project", "--period", "1" * 200 + ",2"], 2, "--period takes START,END")
    for by in (",user", "project,", ","):
        expect(["attribute", usage, priced, "--by", by], 2, "one tag key or two", by)
    expect(["attribute", usage, priced, "--by", "k" * 600], 2, "is too long")


def waste_checks():
    """tco waste on the example month: every kind found, largest first, the
    idle capacity the bill's idle line, thresholds obeyed, bad ones named."""
    records, cluster = os.path.join(MONTH, "month.csv"), os.path.join(MONTH, "cluster.json")
    month = ["--period", "2026-11-01,2026-12-01"]
    p = subprocess.run([sys.executable, os.path.join(MONTH, "generate.py")], capture_output=True, timeout=60)
    with open(records, "rb") as f:
        check(p.returncode == 0 and p.stdout == f.read(), "examples/month/month.csv is what generate.py writes")

    rc, out, err = run("waste", records, cluster, "--by", "team", *month, "--format", "json")
    d = json.loads(out)
    found = d["findings"]
    kinds = {f["kind"] for f in found}
    check(rc == 0 and kinds == {"idle_capacity", "idle_held", "oversized", "overrun", "rerun", "retained",
                                "duplicate", "orphaned"}, f"waste json: every kind in the month ({sorted(kinds)})")
    costs = [f["cost"] for f in found]
    check(costs == sorted(costs, reverse=True) and abs(sum(costs) - d["total"]) < 1e-6 * d["total"],
          "waste json: largest first, the total their sum")
    rc, out, _ = run("attribute", records, cluster, "--by", "team", *month, "--format", "json")
    attributed = json.loads(out)
    bill = attributed["bill"]
    idle = next(f for f in found if f["kind"] == "idle_capacity")
    # The bill's idle line is the groups' idle cents, each rounded apart:
    # within a cent per group of the unrounded amount.
    check(abs(idle["cost"] * 100 - bill["idle_cents"]) <= len(attributed["groups"]) and idle["record"] is None and idle["team"] == "(all)",
          "waste json: the idle capacity is the bill's idle line")
    overrun = next(f for f in found if f["kind"] == "overrun")
    # 32 accelerators past 2026-11-20T18:00Z until 2026-11-21T00:00Z (started
    # on the 19th at 08:00 for 40 h), reserved at 2.5: 6 h x 32 x 2.5 = 480.
    check(overrun["since"] == "2026-11-20T18:00:00Z" and abs(overrun["cost"] - 480) < 1e-6 and
          overrun["tags"]["job_name"] == "llama-ft-final", "waste json: the deadline overrun, hand-worked")
    dup = next(f for f in found if f["kind"] == "duplicate")
    check(dup["tags"]["name"] == "vision-train-copy" and dup["gb"] == 5000, "waste json: the copied dataset")
    orphan = next(f for f in found if f["kind"] == "orphaned")
    check(orphan["tags"]["project"] == "asr-v1" and all(f["action"] for f in found), "waste json: the orphan")

    rc, out, _ = run("attribute", records, "--scenario", cluster, "--by", "team", *month, "--format", "json")
    check(rc == 0 and json.loads(out)["bill"] == bill, "attribute --scenario FILE: the same bill as FILE")
    expect(["attribute", records, cluster, "--scenario", cluster, "--by", "team"], 2, "give one")
    expect(["report", "--scenario", cluster], 2, "--scenario")
    rc, out, _ = run("attribute", records, cluster, "--by", "team", *month, "--format", "focus",
                     "--focus", "billing_account_id=gpu-1", "--focus=region_id=eu-west")
    rows = list(csv.DictReader(io.StringIO(out.decode())))
    check(rc == 0 and all(r["BillingAccountId"] == "gpu-1" and r["RegionId"] == "eu-west" for r in rows),
          "attribute --focus: the rows' names")
    check(sum(round(float(r["BilledCost"]) * 100) for r in rows) == bill["total_cents"], "focus: to the cent")
    expect(["attribute", records, "--by", "team", "--format", "focus", "--focus", "bank=x"], 2, "NAME=VALUE")
    expect(["attribute", records, "--by", "team", "--focus", "region_id=x"], 2, "give --format focus")
    expect(["attribute", records, cluster, "--by", "team", "--format", "focus", "--focus", "region_id=a\tb"], 1,
           "request.region_id")
    expect(["waste", records, "--focus", "region_id=x"], 2, "not offered here")
    rc, out, _ = run("waste", records, cluster, *month, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out.decode())))
    check(rc == 0 and len(rows) == len(found) and list(rows[0])[:2] == ["kind", "project"],
          "waste csv: a row per finding, grouped by project without --by")
    rc, out, _ = run("waste", records, cluster, *month, "-t", "rerun_hours=0", "--threshold=retention_days=0",
                     "--format", "json")
    kinds = {f["kind"] for f in json.loads(out)["findings"]}
    check(rc == 0 and "rerun" not in kinds and "retained" not in kinds, "waste --threshold: 0 turns a finding off")
    rc, out, _ = run("waste", records, cluster, *month)
    check(rc == 0 and b"what to do" in out and b"vision-train-copy" in out, "waste table")

    expect(["waste", records, cluster, "--threshold", "idle_hours=-1"], 1, "request.idle_hours")
    expect(["waste", records, cluster, "--threshold", "idle=1"], 2, "NAME=VALUE")
    expect(["waste", records, cluster, "--threshold", "idle_hours="], 2, "NAME=VALUE")
    expect(["waste", records, cluster, "--threshold", "idle_hours=nan"], 2, "NAME=VALUE")
    expect(["waste", records, cluster, "--by", "colour"], 1, "--by colour")
    expect(["attribute", records, "--by", "team", "--threshold", "idle_hours=2"], 2, "not offered here")
    expect(["waste"], 2, "RECORDS")


def lifetime_checks(write):
    """tco lifetime: the years add up to the life, a refresh buys the owned
    IT again, the discount rate is the pricing's cost of capital unless
    given, and bad options are named."""
    owned = write("owned.json", json.dumps({"format": "libtco-scenario", "version": 1,
                                             "topology": {"accelerators": 1024, "owned_share": 1},
                                             "pricing": {"facility_capex_per_kw": 7000, "facility_life_years": 15}}))
    rc, out, err = run("lifetime", owned, "--years", "5", "--refresh-year", "4", "--format", "json")
    d = json.loads(out)
    years, life = d["years"], d["life"]
    check(rc == 0 and len(years) == 5 and life["years"] == 5, f"lifetime json: five years ({err})")
    check(abs(sum(y["total"] for y in years) - life["total"]) < 1e-6 * life["total"] and
          abs(sum(y["present_value"] for y in years) - life["npv"]) < 1e-6 * life["npv"],
          "lifetime json: the years add up to the life")
    check([y["refreshed"] for y in years] == [False] * 4 + [True] and years[4]["capex"] > 0 and
          years[4]["salvage"] > 0, "lifetime json: the refresh and the salvage")
    check(all(abs(sum(y["cost"].values()) - y["total"]) < 1e-6 * y["total"] for y in years) and
          all(y["fixed"][c] <= y["cost"][c] + 1e-9 for y in years for c in y["cost"]),
          "lifetime json: categories add up, the fixed part within each")
    dear = write("dear.json", json.dumps({"format": "libtco-scenario", "version": 1,
                                           "topology": {"accelerators": 1024, "owned_share": 1},
                                           "pricing": {"cost_of_capital": 0.12}}))
    npv = {rate: json.loads(run("lifetime", dear, "--discount-rate", rate, "--format", "json")[1])["life"]["npv"]
           for rate in ("0.12", "0.08")}
    check(abs(run_npv(dear) - npv["0.12"]) < 1e-9 * npv["0.12"] and npv["0.12"] != npv["0.08"],
          "lifetime: the discount rate defaults to the pricing's cost of capital (0.12)")
    rc, out, _ = run("lifetime", owned, "-y", "3", "-u", "0.5", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out.decode())))
    check(rc == 0 and len(rows) == 3 and rows[0]["utilisation"] == "0.5" and "compute_fixed" in rows[0],
          "lifetime csv: a row a year")
    rc, out, _ = run("lifetime", owned)
    check(rc == 0 and b"net present value" in out and b"fixed" in out, "lifetime table")

    expect(["lifetime", owned, "--years", "0"], 1, "request.years")
    expect(["lifetime", owned, "--years", "5", "--refresh-year", "5"], 1, "request.refresh_year")
    expect(["lifetime", owned, "--utilisation", "1.5"], 1, "request.utilisation")
    expect(["lifetime", owned, "--discount-rate", "-1"], 1, "request.discount_rate")
    expect(["lifetime", owned, "--years", "five"], 2, "--years takes a number")
    expect(["lifetime", owned, "--years", "2.5"], 2, "whole number")
    expect(["report", "--years", "3"], 2, "--years is not offered here")


def programme_checks(path, write):
    """tco programme: the example runs in every format, its JSON validates
    against doc/report.schema.json, the total is the stages plus the
    storage of the versions kept, and every bad input names the stage and
    the key."""
    import jsonschema
    here = os.path.dirname(os.path.abspath(__file__))
    example = os.path.join(here, "..", "..", "examples", "programme.json")
    with open(os.path.join(here, "..", "..", "doc", "report.schema.json")) as f:
        valid = jsonschema.Draft202012Validator(json.load(f))
    rc, out, err = run("programme", example, "--format", "json")
    d = json.loads(out) if rc == 0 else {}
    errors = [e.message for e in valid.iter_errors(d)]
    check(rc == 0 and d["schema"] == "libtco-programme" and d["currency"] == "USD" and not errors,
          f"programme json validates against its schema ({err}) {errors[:2]}")
    if rc != 0:
        return
    g, stages = d["programme"], d["stages"]
    kinds = {s["kind"] for s in stages}
    check(g["stages"] == len(stages) == 7 and kinds == {"pretraining", "context_extension", "supervised_fine_tuning",
                                                        "preference_tuning", "evaluation", "sweep", "ablation"},
          "programme: the example has a stage of every kind")
    check(g["total"] == g["stages_total"] + g["storage_lifecycle"] and g["storage_lifecycle"] > 0,
          "programme: the total is the stages plus the storage lifecycle, exactly")
    check(abs(sum(s["total"] for s in stages) - g["stages_total"]) <= 1e-9 * g["stages_total"] and
          abs(sum(g["cost"].values()) - g["total"]) <= 1e-9 * g["total"], "programme: the stages and categories add up")
    sweep = next(s for s in stages if s["kind"] == "sweep")
    check(sweep["start_hours"] == 0 and sweep["concurrent_runs"] > 1 and g["peak_accelerators"] <= 1024 and
          sweep["after"] is None and next(s for s in stages if s["name"] == "sft")["after"] == "long-context",
          "programme: the sweep runs beside pretraining within the cluster")
    check(not valid.is_valid(dict(d, stages=[dict(stages[0], kind="warmup")])), "the schema refuses an unknown kind")
    rc, out, _ = run("programme", example, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out.decode())))
    check(rc == 0 and len(rows) == 7 and [r["name"] for r in rows] == [s["name"] for s in stages] and
          float(rows[0]["total"]) == stages[0]["total"] and all(r["currency"] == "USD" for r in rows) and
          "compute" in rows[0], "programme csv: a row per stage, the same numbers")
    rc, out, _ = run("programme", example)
    text = out.decode()
    check(rc == 0 and "pretrain-70b" in text and "storage lifecycle" in text and "makespan" in text and
          "cost per experiment" in text and "per month" in text and f"{round(g['total']):,}" in text,
          "programme table")
    got = path("programme.json")
    expect(["programme", example, "-o", got], 0)
    with open(got) as f:
        check(json.load(f)["programme"]["total"] == g["total"], "programme -o x.json writes the JSON")
    expect(["programme", example, "-o", got], 3, "exists", "--force")
    rc, out, _ = run("programme", example, "--format", "json", "--set", "on_demand_per_accel_hour=5")
    check(rc == 0 and json.loads(out)["programme"]["total"] != g["total"], "programme --set moves the total")

    with open(example) as f:
        base = json.load(f)

    def bad(name, change, code, *needles):
        doc = json.loads(json.dumps(base))
        change(doc)
        p = write(name, json.dumps(doc))
        old = write("old-" + name, "old")
        expect(["programme", p, "--force", "-o", old], code, p, *needles)
        with open(old) as f:
            check(f.read() == "old", f"programme {name}: nothing written")

    def stage(i, **kv):
        return lambda doc: doc["stages"][i].update(kv)

    def stage_workload(i, **kv):
        return lambda doc: doc["stages"][i]["workload"].update(kv)

    bad("p-key.json", stage(1, colour=1), 1, "stages[1] (lr-sweep)", "unknown key \"colour\"", "versions_kept")
    bad("p-kind.json", stage(1, kind="warmup"), 1, "stages[1] (lr-sweep)", "kind \"warmup\"",
        "allowed pretraining, context_extension, supervised_fine_tuning, preference_tuning, evaluation, sweep, ablation")
    bad("p-kind-type.json", stage(1, kind=6), 1, "stages[1] (lr-sweep)", "kind is a text")
    bad("p-no-kind.json", lambda doc: doc["stages"][2].pop("kind"), 1, "stages[2] (data-mix-ablation)", "no \"kind\"")
    bad("p-after-later.json", stage(4, after="dpo"), 1, "stages[4] (sft)", "after \"dpo\" names no earlier stage")
    bad("p-after-none.json", stage(4, after="nothing"), 1, "stages[4] (sft)", "after \"nothing\"", "no stage has")
    bad("p-after-type.json", stage(4, after=2), 1, "stages[4] (sft)", "after is the name of an earlier stage")
    bad("p-name.json", stage(5, name="sft"), 1, "stages[5] (sft)", "name", "stages[4] has that name too")
    bad("p-name-type.json", stage(5, name=5), 1, "stages[5]", "name is the stage's name")
    bad("p-kept-type.json", stage(4, versions_kept="two"), 1, "stages[4] (sft)", "versions_kept is a whole number")
    bad("p-kept-range.json", stage(4, versions_kept=-1), 1, "stages[4]", "versions_kept = -1", "allowed 0 to")
    bad("p-kept-huge.json", stage(4, versions_kept=2 ** 40), 1, "stages[4] (sft)", "versions_kept = 1099511627776")
    bad("p-param.json", stage_workload(4, mfu=3), 1, "stages[4] (sft)", "workload", "mfu = 3 is out of range")
    bad("p-param-name.json", stage_workload(4, mfuu=0.5), 1, "stages[4] (sft)", "unknown key \"mfuu\"")
    bad("p-param-type.json", stage_workload(4, mfu="fast"), 1, "stages[4] (sft)", "workload.mfu is a number")
    bad("p-param-handle.json", stage_workload(4, accelerators=8), 1, "stages[4] (sft)",
        "accelerators belongs to the topology")
    bad("p-workload.json", stage(4, workload=3), 1, "stages[4] (sft)", "a workload is an object")
    bad("p-stage.json", lambda doc: doc["stages"].__setitem__(2, 5), 1, "stages[2] is an object")
    bad("p-big.json", stage_workload(4, job_accelerators=4096), 1, "stages[4]", "4096 accelerators", "1024")
    bad("p-full.json", stage_workload(0, job_accelerators=1024), 1, "stages[2]", "stages[0]", "1024")
    bad("p-no-stages.json", lambda doc: doc.pop("stages"), 1, "no \"stages\" key")
    bad("p-empty.json", lambda doc: doc.update(stages=[]), 1, "stages holds 0 stages", "allowed 1 to 256")
    bad("p-stages-type.json", lambda doc: doc.update(stages={}), 1, "stages is an array")
    bad("p-top.json", lambda doc: doc.update(cluster={}), 1, "unknown programme key \"cluster\"", "stages")
    bad("p-scenario.json", lambda doc: doc["workload"].update(mfu=2), 1, "workload", "mfu = 2 is out of range")
    expect(["programme"], 2, "programme needs a FILE")
    expect(["programme", example, example], 2, "unexpected argument")
    expect(["programme", example, "--format", "markdown"], 2, "--format markdown is not offered here")
    expect(["programme", path("missing.json")], 3, "missing.json", "cannot open")
    cbor = os.path.join(GOLDEN, "default.cbor")
    expect(["programme", cbor], 1, "a programme is a JSON file")
    expect(["report", example], 1, "unknown scenario key \"stages\"")


def story_checks(write):
    """tco programme examples/story.json: the whole story from raw data to a
    served model. Its main figures, worked by hand from the file's inputs
    (doc/model.md, section 21, "The whole story"): the pipeline's lines and
    hours, the stages that wait for the data, the serving's tokens and cost
    at the H100's reserved list price (3.933 an hour, doc/model.md "List
    prices": the AWS p5.48xlarge Capacity Block, Jan 2026, over 8), the
    store's lifecycle at the hot tier's default 0.145 per GB-month. Bad
    pipeline and serving inputs name the file, the stage and the key."""
    import jsonschema
    here = os.path.dirname(os.path.abspath(__file__))
    example = os.path.join(here, "..", "..", "examples", "story.json")
    with open(os.path.join(here, "..", "..", "doc", "report.schema.json")) as f:
        valid = jsonschema.Draft202012Validator(json.load(f))
    rc, out, err = run("programme", example, "--format", "json")
    d = json.loads(out) if rc == 0 else {}
    errors = [e.message for e in valid.iter_errors(d)]
    check(rc == 0 and not errors, f"story json validates against its schema ({err}) {errors[:2]}")
    if rc != 0:
        return
    g, stages = d["programme"], d["stages"]
    by = {s["name"]: s for s in stages}
    check({s["kind"] for s in stages} == {"data_pipeline", "pretraining", "context_extension", "supervised_fine_tuning",
                                          "preference_tuning", "evaluation", "sweep", "ablation", "serving"},
          "story: a stage of every kind")

    def near(a, b, rel=1e-12):
        return abs(a - b) <= rel * abs(b)

    # The pipeline: 100 TB raw at 20 node-h/TB on 64 nodes, 3 a node-hour;
    # 1e5 GB through NAT at 0.045; 100 TB x 0.2 kept x 0.4 = 8 TB prepared;
    # the pretraining's 2e12 tokens read at 4 B, compressed 0.4, half from
    # the cache, in 16 MiB requests at 0.0004 per 1,000.
    web = by["web-crawl"]
    reads = 2e12 * 4 * 0.4 * 0.5 / 2 ** 24 / 1000 * 0.0004
    check(web["cpu_node_hours"] == 2000 and web["end_hours"] == 2000 / 64 and web["accelerators"] == 0 and
          near(web["cost"]["compute"], 6000) and near(web["cost"]["network"], 4500) and
          near(web["cost"]["storage"], reads) and near(web["total"], 10500 + reads) and web["store_gb"] == 8000 and
          g["pipeline_total"] == web["total"], "story: the pipeline's lines, by hand")
    check(by["pretrain-70b"]["start_hours"] == by["lr-sweep"]["start_hours"] == 31.25,
          "story: pretraining and the sweep wait for the prepared data")
    check(by["sft"]["after"] == "data-mix-ablation" and by["sft"]["also_after"] == ["long-context"] and
          by["sft"]["start_hours"] == by["long-context"]["end_hours"] > by["data-mix-ablation"]["end_hours"],
          "story: the fine-tune waits for the later of the ablation and the context extension")
    # Serving: 20 requests a second for 4,383 hours, 1,024 + 256 tokens each,
    # on a constant fleet, all of it reserved.
    serve = by["serve-chat"]
    tokens = 20 * 4383 * 3600 * (1024 + 256)
    check(serve["start_hours"] == by["eval-suite"]["end_hours"] and
          near(serve["end_hours"] - serve["start_hours"], 4383) and serve["tokens"] == tokens and
          near(serve["fleet_accelerator_hours"], serve["fleet_peak_accelerators"] * 4383) and
          near(serve["total"], serve["fleet_accelerator_hours"] * 3.933) and
          near(serve["cost_per_million_tokens"], serve["total"] / tokens * 1e6) and serve["accelerators"] == 0 and
          g["serving_total"] == serve["total"] and g["served_tokens"] == tokens,
          "story: serving's tokens and cost, by hand")
    # The store: hot at 0.145 a GB-month; the prepared data warm (0.023)
    # from 60 days after its end and cold (0.00099) from 180, the
    # pretraining's versions warm from 30 days (the defaults' prices).
    M = g["makespan_hours"]

    def tiered(s, warm=None, cold=None):
        h = M - s["end_hours"]
        w, c = (warm or 1e9) * 24, (cold or 1e9) * 24
        hot = min(h, w, c)
        return s["store_gb"] * (hot * 0.145 + max(0, min(h, c) - w) * 0.023 + max(0, h - c) * 0.00099) / 730.5

    life = sum(tiered(s) for s in stages if s["name"] not in ("web-crawl", "pretrain-70b"))
    life += tiered(web, 60, 180) + tiered(by["pretrain-70b"], 30)
    check(M == serve["end_hours"] and M - web["end_hours"] > 180 * 24 and near(g["storage_lifecycle"], life) and
          near(g["cluster_hours"], by["eval-suite"]["end_hours"] - 31.25) and
          near(g["utilisation"], g["accelerator_hours"] / (1024 * g["cluster_hours"])) and
          near(g["cost_per_experiment"], (g["total"] - g["serving_total"]) / 32) and
          g["total"] == g["stages_total"] + g["storage_lifecycle"], "story: the store, the cluster's hours, the total")
    rc, out, _ = run("programme", example, "--format", "csv")
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(out.decode()))}
    check(rc == 0 and json.loads(rows["sft"]["also_after"]) == ["long-context"] and rows["dpo"]["also_after"] == "",
          "story csv: also_after a JSON array in its cell")
    rc, out, _ = run("programme", example)
    check(rc == 0 and "serve-chat: 403,937,280,000 tokens" in out.decode() and "web-crawl: 2,000 CPU node-hours" in
          out.decode(), "story table: the pipeline and the serving lines")

    with open(example) as f:
        base = json.load(f)

    def bad(name, change, *needles):
        doc = json.loads(json.dumps(base))
        change(doc)
        p = write(name, json.dumps(doc))
        old = write("old-" + name, "old")
        expect(["programme", p, "--force", "-o", old], 1, p, *needles)
        with open(old) as f:
            check(f.read() == "old", f"programme {name}: nothing written")

    def at(i, key, value):  # a dict merges into the stage's object of that key; anything else is set
        return lambda doc: doc["stages"][i][key].update(value) if isinstance(value, dict) and key in doc["stages"][i] \
            else doc["stages"][i].__setitem__(key, value)

    bad("s-no-pipe.json", lambda doc: doc["stages"][0].pop("pipeline"), "stages[0] (web-crawl)",
        "a data_pipeline stage needs \"pipeline\"")
    bad("s-pipe-sft.json", at(5, "pipeline", {}), "stages[5] (sft)", "pipeline: only a data_pipeline stage has one")
    bad("s-no-serve.json", lambda doc: doc["stages"][8].pop("serving"), "stages[8] (serve-chat)",
        "a serving stage needs \"serving\"")
    bad("s-pipe-key.json", at(0, "pipeline", {"colour": 1}), "stages[0] (web-crawl)",
        "pipeline: unknown key \"colour\"", "raw_bytes")
    bad("s-pipe-type.json", at(0, "pipeline", {"nat_per_gb": "cheap"}), "stages[0] (web-crawl)",
        "pipeline.nat_per_gb is a number")
    bad("s-pipe-range.json", at(0, "pipeline", {"dedup_kept_share": 1.5}), "stages[0] (\"web-crawl\")",
        "its pipeline request", "pipeline.dedup_kept_share = 1.5 is out of range")
    bad("s-pipe-object.json", at(0, "pipeline", 3), "stages[0] (web-crawl)", "pipeline is an object")
    bad("s-nodes.json", at(0, "cpu_nodes", 0), "stages[0].cpu_nodes = 0", "allowed a whole number 1 to")
    bad("s-nodes-type.json", at(0, "cpu_nodes", "many"), "stages[0] (web-crawl)", "cpu_nodes is a number")
    bad("s-nodes-sft.json", at(5, "cpu_nodes", 8), "stages[5].cpu_nodes = 8", "allowed 0 only")
    bad("s-serve-kept.json", at(8, "versions_kept", 1), "stages[8].versions_kept = 1", "allowed 0 only")
    bad("s-serve-key.json", at(8, "serving", {"colour": 1}), "stages[8] (serve-chat)",
        "serving: unknown key \"colour\"", "time_per_output_token")
    bad("s-serve-tpot.json", at(8, "serving", {"time_per_output_token": 1e-6}), "stages[8] (\"serve-chat\")",
        "its serving request", "request.time_per_output_token")
    bad("s-serve-type.json", at(8, "serving", {"prompt_tokens": "long"}), "serving.prompt_tokens is a number")
    bad("s-serve-unit.json", at(8, "serving", {"rate_unit": "per_day"}), "serving.rate_unit is requests_per_second")
    bad("s-serve-tp.json", at(8, "serving", {"tensor_parallel": 1.5}), "serving.tensor_parallel is a whole number")
    bad("s-serve-hours.json", at(8, "serving", {"hours": -1}), "serving.hours = -1 is out of range")
    bad("s-serve-nohours.json", lambda doc: doc["stages"][8]["serving"].pop("hours"), "a constant rate goes with")
    bad("s-serve-series.json", at(8, "serving", {"rate": [1, 2, 3]}), "a rate series goes with interval_seconds")
    bad("s-serve-rate.json", at(8, "serving", {"rate": "busy"}), "serving.rate is a number")
    def series(rate, interval=60):  # the serving stage's constant rate made a series
        def change(doc):
            doc["stages"][8]["serving"].pop("hours")
            doc["stages"][8]["serving"].update(rate=rate, interval_seconds=interval)
        return change

    bad("s-serve-point.json", series([1, "x"]), "serving.rate[1] is a number")
    bad("s-serve-neg.json", series([1, -2]), "stages[8] (\"serve-chat\")", "request.rate")
    bad("s-after-type.json", at(5, "after", ["long-context", 3]), "stages[5] (sft)", "an array of such names")
    bad("s-after-empty.json", at(5, "after", []), "stages[5] (sft)", "not an empty array")
    bad("s-after-later.json", at(5, "after", ["long-context", "dpo"]), "stages[5] (sft)",
        "after \"dpo\" names no earlier stage")
    bad("s-tier.json", at(0, "cold_after_days", 30), "stages[0].cold_after_days = 30", "above warm_after_days")
    bad("s-tier-type.json", at(0, "warm_after_days", "soon"), "stages[0] (web-crawl)", "warm_after_days is a number")
    bad("s-pipe-big.json", at(0, "pipeline", {"raw_bytes": 2 ** 60 + 1}), "stages[0] (web-crawl)",
        "pipeline.raw_bytes = 1152921504606846977 does not fit a double exactly")
    bad("s-rate-big.json", series([1, 2 ** 54 + 1]), "serving.rate[1] = 18014398509481985 does not fit")
    bad("s-serve-shape.json", lambda doc: doc["stages"][8]["workload"].pop("layers"), "stages[8] (\"serve-chat\")",
        "layers")
    # A series instead of the constant rate: a day of hourly rates.
    doc = json.loads(json.dumps(base))
    series([5 + (h % 12) for h in range(24)], 3600)(doc)
    rc, out, _ = run("programme", write("s-series.json", json.dumps(doc)), "--format", "json")
    day = json.loads(out)["stages"][8] if rc == 0 else {}
    check(rc == 0 and near(day["end_hours"] - day["start_hours"], 24) and
          day["tokens"] == sum(5 + (h % 12) for h in range(24)) * 3600 * 1280, "story: a serving series of a day")


def raw_bytes_checks(write):
    """No raw control byte of an input reaches the terminal, and no number
    is rounded in silence (issue: no silent wrong number)."""
    bad_key = write("key.json", '{"format": "libtco-scenario", "version": 1, "x\\u001b[31m": 1}')
    out, err = expect(["report", bad_key], 1, "unknown scenario key", "\\x1b[31m")
    check("\x1b" not in err, "an escape in a key is shown, not sent to the terminal")
    # A path is shown as a text is, in every message that names it: a file
    # that does not open, one that is no JSON, an output that is a folder.
    gone = os.path.join(os.path.dirname(bad_key), "no\x1b[31msuch\x07.json")
    out, err = expect(["report", gone], 3, "no\\x1b[31msuch\\x07.json: cannot open")
    check("\x1b" not in err and "\x07" not in err, "a path's control bytes are shown, not sent to the terminal")
    odd = write("odd\x1b]0;title\x07.json", "{")
    out, err = expect(["report", odd], 1, "odd\\x1b]0;title\\x07.json:1:", "not valid JSON")
    check("\x1b" not in err and "\x07" not in err, "a path in a JSON error is shown")
    folder = os.path.join(os.path.dirname(bad_key), "dir\x1b[2J")
    os.mkdir(folder)
    out, err = expect(["report", "--format", "json", "-o", folder], 3, "dir\\x1b[2J: is a directory")
    check("\x1b" not in err, "an output path is shown")
    bad_text = write("text.json", '{"format": "libtco-scenario", "version": 1, "pricing": {"currency": "US\\u0007D"}}')
    expect(["report", bad_text], 1, "currency holds a control character")
    big = write("big.json", '{"format": "libtco-scenario", "version": 1, "workload": {"tokens": 9007199254740993}}')
    expect(["report", big], 1, "does not fit a double exactly")
    exact = write("exact.json", '{"format": "libtco-scenario", "version": 1, "workload": {"tokens": 9007199254740992}}')
    expect(["report", exact], 0)
    # A real is read only if its double gives its digits back: 17 digits
    # that are not the double's own, digits past 17, an underflow to 0 or
    # to a subnormal with fewer digits are refused at their line and column.
    for text, reads in (("0.80000000000000000001", "reads as 0.8 "), ("0.12345678901234567", "0.12345678901234566"),
                        ("1e-400", "reads as 0 "), ("1.23456789e-320", "reads as 1.2347e-320")):
        lost = write("lost.json", '{"format": "libtco-scenario", "version": 1,\n "workload": {"mfu": %s}}' % text)
        expect(["report", lost], 1, "lost.json:2:22: the number %s does not fit a double as written" % text, reads)
    # Digits that come back are read, trailing zeros and exponents alike,
    # and a digit-rich string is no number.
    kept = write("kept.json", '{"format": "libtco-scenario", "version": 1, "workload": {"mfu": 0.50000000000000000000, '
                 '"tokens": 1.5000000000000000e12}, "pricing": {"price_source": "0.30000000000000000001"}}')
    expect(["report", kept], 0)


def json_input_checks(write):
    """Every way a JSON scenario can be wrong is refused, exit 1, with a
    message that names the file, the key and what is allowed; what is
    right in a less usual form (a boolean, white space first, no
    extension) is read."""
    def scen(**sections):
        return json.dumps({"format": "libtco-scenario", "version": 1, **sections})

    cases = [
        ("root.json", "[1]", "a scenario is an object (format, version, topology, workload, pricing), not an array"),
        ("section.json", scen(topology=[1]), "topology: a topology is an object of parameter names to values, not an array"),
        ("elsewhere.json", scen(topology={"mfu": 0.5}), "topology: mfu belongs to the workload, not the topology"),
        ("text.json", scen(pricing={"currency": 5}), "pricing.currency is a text"),
        ("choice.json", scen(topology={"accelerator_model": 3}), "is a choice"),
        ("huge.json", scen(topology={"accelerators": 9007199254740993}), "does not fit a double exactly"),
        ("string.json", scen(workload={"mfu": "0.5"}), "workload.mfu is a number"),
        ("null.json", scen(workload={"mfu": None}), "found null"),
        ("object.json", scen(workload={"mfu": {}}), "found an object"),
        ("boolnum.json", scen(workload={"mfu": True}), "found a boolean"),
        ("format.json", json.dumps({"format": 5, "version": 1}), "format is an integer, not \"libtco-scenario\""),
        ("version.json", json.dumps({"format": "libtco-scenario", "version": "1"}), "version is a string: it is a whole number from 1"),
        ("zero.json", json.dumps({"format": "libtco-scenario", "version": 0}), "version 0 does not exist"),
        ("noformat.json", json.dumps({"version": 1}), "has no \"format\" key"),
        ("noversion.json", json.dumps({"format": "libtco-scenario"}), "has no \"version\" key"),
        ("newer.json", json.dumps({"format": "libtco-scenario", "version": 99, "later": 1}),
         "the file is format version 99"),
        ("newest.json", json.dumps({"format": "libtco-scenario", "version": 99}), "upgrade libtco"),
        ("range.json", scen(workload={"mfu": 7}), "mfu = 7 is out of range"),
    ]
    for name, text, needle in cases:
        f = write(name, text)
        expect(["report", f], 1, f, needle)
    # a scenario file must be read whole: a folder cannot be
    expect(["report", os.path.dirname(write("x.json", "{}"))], 3, "cannot read")
    # booleans for booleans; white space before the object, no extension
    for value in (True, False):
        f = write("bool", "\n\t " + scen(workload={"checkpoint_async": value}))
        rc, out, err = run("convert", f, "-", "--to", "json")
        check(rc == 0 and json.loads(out)["workload"]["checkpoint_async"] == int(value),
              f"a boolean for a boolean parameter, read by its content: {err}")
    # only white space is no JSON: read as CBOR, and refused as that
    expect(["report", write("blank", "  \n")], 1, "blank")
    # --set: a boolean as true or false, a number in full, a slip named
    rc, out, err = run("convert", write("empty.json", scen()), "-", "--to", "json", "--set", "checkpoint_async=true",
                       "--set", "mfu=0.25")
    got = json.loads(out) if rc == 0 else {}
    check(rc == 0 and got["workload"]["checkpoint_async"] == 1 and got["workload"]["mfu"] == 0.25,
          f"--set booleans and numbers: {err}")
    expect(["report", "--set", "mfuu=0.3"], 2, "no parameter is named mfuu", "did you mean mfu?")
    expect(["report", "--set", "qqqqqqqqqqqq=1"], 2, "tco params lists them")
    expect(["report", "--set", "mfu=lots"], 2, "mfu is a number", "lots")
    expect(["report", "--set", "=1"], 2, "NAME=VALUE")
    expect(["report", "--set", "mfu=7"], 1, "--set mfu=7", "out of range")


def output_checks(path, write):
    """Where output goes and how text is quoted in it: a path too long, a
    symbolic link that leads nowhere, a device that is full are refused
    (exit 3) naming the file; CBOR goes to a pipe as it goes to a file; a
    text with quotes and backslashes comes back whole from JSON, a label
    with a quote and a comma from CSV."""
    default = os.path.join(GOLDEN, "default.json")
    long = path("a" * 5000 + ".json")
    expect(["report", "--format", "json", "-o", long], 3, "the path is too long")
    nowhere = path("nowhere.json")
    os.symlink(path("no-such-folder/x.json"), nowhere)
    expect(["report", "--format", "json", "--force", "-o", nowhere], 3, nowhere,
           "the symbolic link leads nowhere that can be written")
    if os.path.exists("/dev/full"):
        expect(["report", "--format", "json", "-o", "/dev/full"], 3, "/dev/full: cannot write")
        with open("/dev/full", "wb") as full:
            p = subprocess.run([TCO, "convert", default, "-", "--to", "cbor"], stdout=full, stderr=subprocess.PIPE,
                               timeout=60)
        check(p.returncode == 3 and b"-: cannot write" in p.stderr, f"CBOR to a full standard output: {p.stderr!r}")
    rc, piped, _ = run("convert", default, "-", "--to", "cbor")
    cbor = path("piped.cbor")
    rc2, _, _ = run("convert", default, cbor)
    with open(cbor, "rb") as f:
        check(rc == 0 and rc2 == 0 and piped == f.read() and piped[:1] != b"{", "CBOR to a pipe: the file's bytes")
    rc, out, err = run("convert", default, "-", "--to", "json", "--set", 'currency=U"S\\D')
    check(rc == 0 and json.loads(out)["pricing"]["currency"] == 'U"S\\D', f"a text with a quote and a backslash: {err}")
    weird = path('we"ird,name.json')
    with open(default) as f, open(weird, "w") as g:
        g.write(f.read())
    rc, out, _ = run("compare", default, weird, "--format", "csv")
    head = next(csv.reader(io.StringIO(out.decode())))
    check(rc == 0 and head[-1] == weird and f'"{weird.replace(chr(34), chr(34) * 2)}"' in out.decode(),
          "a CSV label with a quote and a comma is quoted, its quote doubled")


def option_checks(path):
    """Options refused with exit 2 and a message naming them: a value for
    one that takes none, an unknown short one, an abbreviation of more
    than one, an option of another command, a format the output's
    extension contradicts; "--" ends the options; help and version by
    every name."""
    default = os.path.join(GOLDEN, "default.json")
    expect(["report", "--force=yes"], 2, "--force=yes takes no value")
    expect(["report", "-z"], 2, "unknown option -z")
    expect(["report", "--fo", "json"], 2, "ambiguous option --fo")
    expect(["report", "--frobnicate"], 2, "unknown option --frobnicate")
    expect(["report", "--format"], 2, "--format needs a value")
    expect(["report", default, default], 2, "unexpected argument")
    for opt, value in (("--by", "team"), ("--period", "2026-11"), ("--idle-rule", "owner"),
                       ("--shared-rule", "even"), ("--owner", "team"), ("--records", "x.csv")):
        expect(["report", opt, value], 2, f"{opt} is not offered here")
    expect(["report", "--strict"], 2, "--strict is not offered here")
    for opt in ("--years", "--utilisation", "--refresh-year", "--discount-rate"):
        expect(["report", opt, "1"], 2, f"{opt} is not offered here")
    expect(["report", "--threshold", "5"], 2, "--threshold 5 is not offered here")
    expect(["report", "--scenario", default], 2, "is not offered here")
    expect(["report", "--share", "0.1"], 2, "--share 0.1 is not offered here")
    expect(["params", "--set", "mfu=0.3"], 2, "this command reads no scenario")
    expect(["convert", default, "-", "--from", "xml"], 2, "--from and --to take json or cbor, not xml")
    expect(["convert", default, "-", "--to", "yaml"], 2, "--from and --to take json or cbor, not yaml")
    expect(["report", "--format", "json", "-o", path("x.csv")], 2, "--format json, but -o", "ends in .csv")
    expect(["lifetime", "-o", path("x.md")], 2, "its extension names a format not offered here")
    # no known extension: the format as given; a dot in a folder is no extension
    os.makedirs(path("v1.0"), exist_ok=True)
    rc, _, _ = run("report", "--format", "json", "-o", path("v1.0/report"))
    with open(path("v1.0/report")) as f:
        check(rc == 0 and "total" in json.load(f), "-o in a folder with a dot: the format given")
    rc, out, _ = run("report", "--format", "json", "--", default)
    check(rc == 0 and "total" in json.loads(out), "-- ends the options")
    for name in ("help", "-h"):
        out, _ = expect([name], 0)
        check(b"tco report" in out, f"tco {name} prints the usage")
    out, _ = expect(["version"], 0)
    check(b"scenario format version" in out, "tco version")


def more_command_checks(write):
    """What the other checks leave: every command's output to a folder that
    does not exist (exit 3, the file named), a scenario each refuses, the
    lifetime's whole numbers, the tornado's share, attribution by two keys
    in a table and records of a format given."""
    default = os.path.join(GOLDEN, "default.json")
    month = os.path.join(MONTH, "month.csv"), os.path.join(MONTH, "cluster.json")
    nowhere = write("x.json", "{}") + ".d/no/such/folder/out.json"
    for args in (["compare", default, default, "--format", "json"], ["sensitivity", default, "--format", "json"],
                 ["lifetime", default, "--format", "json"], ["attribute", *month, "--by", "team", "--format", "json"],
                 ["waste", *month, "--format", "json"], ["programme", os.path.join(MONTH, "..", "programme.json")]):
        expect([*args, "-o", nowhere], 3, nowhere)
    bad = write("bad-mfu.json", json.dumps({"format": "libtco-scenario", "version": 1, "workload": {"mfu": 7}}))
    for cmd in ("sensitivity", "lifetime", "compare"):
        expect([cmd, bad] + ([default] if cmd == "compare" else []), 1, "bad-mfu.json", "mfu = 7")
    expect(["lifetime", default, "--years", "2.5"], 2, "--years takes a whole number")
    expect(["lifetime", default, "--years", "1e7"], 2, "--years takes a whole number")
    expect(["lifetime", default, "--years", "many"], 2, "--years takes a number")
    expect(["lifetime", default, "--years", "99"], 1, "request.years")
    expect(["sensitivity", default, "--share", "5"], 2, "--share:")
    expect(["sensitivity", default, "--share", "half"], 2, "--share")
    rc, out, err = run("attribute", *month, "--by", "team,user")
    check(rc == 0 and b"team / user" in out, f"attribute by two keys: a table with both: {err}")
    rc, out, err = run("attribute", *month, "--by", "team", "--records", "csv", "--format", "json")
    rc2, out2, _ = run("attribute", *month, "--by", "team", "--format", "json")
    check(rc == 0 and out == out2, f"--records csv reads what the extension says: {err}")
    expect(["attribute", *month, "--by", "team", "--records", "sacct"], 1, "month.csv")
    # tco diff: a line from nothing is "new"; a scenario with itself, no change; one refused is named
    none = write("no-db.json", json.dumps({"format": "libtco-scenario", "version": 1,
                                           "workload": {"database_instances": 0, "database_gb": 0}}))
    some = write("db.json", json.dumps({"format": "libtco-scenario", "version": 1}))
    rc, out, err = run("diff", none, some)
    db = next((line for line in out.decode().splitlines() if line.split()[:1] == ["database"]), "")
    check(rc == 0 and db.split()[1] == "0" and db.split()[-2] == "new", f"diff: a line from nothing is new: {db!r} {err}")
    rc, out, _ = run("diff", none, some, "--format", "markdown")
    check(rc == 0 and "| database (USD) | 0 |" in out.decode() and "| new |" in out.decode(),
          "diff --format markdown: a line from nothing is new")
    rc, out, _ = run("diff", some, some, "--format", "markdown")
    check(rc == 0 and b", no change**" in out and b"The inputs are the same." in out, "diff markdown of a scenario with itself")
    expect(["diff", default, bad], 1, "bad-mfu.json", "mfu = 7")
    for cmd in (["convert", bad, "-", "--to", "json"], ["fingerprint", bad]):
        expect(cmd, 1, "bad-mfu.json", "mfu = 7")
    expect(["convert", default, nowhere], 3, nowhere)
    # CBOR is never written to a terminal
    import pty
    for args in (["convert", default, "-", "--to", "cbor"], ["report", default, "--format", "cbor"]):
        master, slave = pty.openpty()
        try:
            p = subprocess.run([TCO, *args], stdout=slave, stderr=subprocess.PIPE, timeout=60)
        finally:
            os.close(slave)
            os.close(master)
        check(p.returncode == 2 and b"CBOR is binary: not writing it to a terminal" in p.stderr,
              f"tco {args[0]}: CBOR to a terminal refused: {p.returncode} {p.stderr!r}")


def corner_checks(path, write):
    """The corners of the command line, the files and the programme's
    JSON that the checks above leave: each refused with its exit status
    and a message naming the input, or read and written as it should be."""
    default = os.path.join(GOLDEN, "default.json")
    example = os.path.join(MONTH, "..", "programme.json")
    story = os.path.join(MONTH, "..", "story.json")
    month = os.path.join(MONTH, "month.csv"), os.path.join(MONTH, "cluster.json")

    def in_tmp(*args, stdin=None):  # run in the scratch folder: relative paths
        p = subprocess.run([TCO, *args], capture_output=True, timeout=60, cwd=path(""), stdin=stdin)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")

    # Options: a relative -o, -o -, the focus rows' .csv, help with and
    # without the scenario options, positionals after --, --focus without
    # its format, a format a command does not offer, --to alone wrong.
    rc, _, err = in_tmp("report", "--format", "json", "-o", "relative.json")
    with open(path("relative.json")) as f:
        check(rc == 0 and "total" in json.load(f), f"-o a file name without a folder: {err}")
    rc, _, err = in_tmp("report", "-o", "relative.csv")
    with open(path("relative.csv")) as f:
        check(rc == 0 and f.readline().startswith("field,value,unit"), f"-o x.csv without a folder: {err}")
    rc, out, _ = run("report", "-o", "-", "--format", "json")
    check(rc == 0 and "total" in json.loads(out), "-o - is standard output")
    focus = path("focus.csv")
    rc, _, err = run("attribute", *month, "--by", "team", "--format", "focus", "-o", focus)
    with open(focus) as f:
        check(rc == 0 and f.readline().startswith("BillingAccountId,"), f"--format focus -o x.csv: {err}")
    expect(["attribute", *month, "--by", "team", "--format", "focus", "-o", path("focus.json")], 2,
           "--format focus, but -o", "ends in .json")
    out, _ = expect(["report", "-h"], 0)
    check(b"--set=NAME=VALUE" in out, "report -h: the scenario options too")
    out, _ = expect(["params", "-h"], 0)
    check(b"tco params" in out and b"--set=NAME=VALUE" not in out, "params -h: no scenario options")
    expect(["report", "--", default, default], 2, "unexpected argument")
    expect(["attribute", *month, "--by", "team", "--format", "json", "--focus", "region_id=x"], 2,
           "give --format focus")
    expect(["fingerprint", default, "--format", "json"], 2, "--format json is not offered here")
    expect(["convert", default, "-", "--from", "json", "--to", "xml"], 2, "not xml")
    # Files: an extension after a dotted folder, a file too large (from a
    # file and from standard input), standard input left unread.
    os.makedirs(path("v2.0"), exist_ok=True)
    with open(default, "rb") as f, open(path("v2.0/scenario"), "wb") as g:
        g.write(f.read())
    rc, out, err = run("fingerprint", path("v2.0/scenario"))
    check(rc == 0 and out == run("fingerprint", default)[1], f"a file without extension in a dotted folder: {err}")
    big = path("big.json")
    with open(big, "wb") as f:
        f.truncate((64 << 20) + 1)
    expect(["report", big], 1, big, "larger than 64 MiB")
    with open(big, "rb") as f:
        p = subprocess.run([TCO, "report", "-"], stdin=f, capture_output=True, timeout=60)
    check(p.returncode == 1 and b"-: larger than 64 MiB" in p.stderr, f"standard input too large: {p.stderr[-200:]!r}")
    os.remove(big)
    with open(default, "rb") as f:
        p = subprocess.run([TCO, "report", "--format", "json"], stdin=f, capture_output=True, timeout=60)
    check(p.returncode == 0 and b"standard input is not read" in p.stderr, "a file redirected in for nothing is said")
    with open(write("empty.txt", ""), "rb") as f:
        p = subprocess.run([TCO, "report", "--format", "json"], stdin=f, capture_output=True, timeout=60)
    check(p.returncode == 0 and b"not read" not in p.stderr, "an empty file redirected in says nothing")
    with open(write("one.csv", "start,end,accelerators,price_class,tag.team\n"
                                "2026-11-01T00:00:00Z,2026-11-01T02:00:00Z,8,on_demand,llm\n"), "rb") as f:
        p = subprocess.run([TCO, "attribute", "-", "--by", "team", "--format", "json"], stdin=f, capture_output=True,
                           timeout=60)
    check(p.returncode == 0 and b"not read" not in p.stderr, f"records from standard input: {p.stderr[-200:]!r}")
    # JSON: numbers with a capital E and more than 800 digits, a whole
    # number below -2^53, a boolean given as a text, freezes that fail.
    head = {"format": "libtco-scenario", "version": 1}
    capital = write("capital.json", '{"format": "libtco-scenario", "version": 1, "workload": {"tokens": 1.5E12}}')
    rc, out, _ = run("convert", capital, "-", "--to", "json")
    check(rc == 0 and json.loads(out)["workload"]["tokens"] == 1.5e12, "a number with a capital E")
    many = write("many.json", '{"format": "libtco-scenario", "version": 1,\n "workload": {"mfu": 0.%s}}' % ("4" * 801))
    expect(["report", many], 1, "many.json:2:22: a number of more than 800 digits")
    for doc, needles in (({**head, "workload": {"tokens": -(2 ** 53) - 1}}, ("tokens = -9007199254740993", "2^53")),
                         ({**head, "workload": {"checkpoint_async": "yes"}}, ("checkpoint_async is a number",
                                                                              "found a string")),
                         ({**head, "workload": {"params_active": 1e12, "params_total": 1e9}},
                          ("params_active = 1e+12 exceeds params_total",)),
                         ({**head, "pricing": {"currency": "EUR"}}, ("on_demand_per_accel_hour", "set the rate in EUR")),
                         ({**head, "format": "libtco-scenario\u001b"}, ("format is \"libtco-scenario\\x1b\"",))):
        f = write("corner.json", json.dumps(doc))
        expect(["report", f], 1, f, *needles)
    expect(["report", write("key.json", json.dumps({**head, "topology": {"\u00e9" + "k" * 300: 1}}))], 1,
           "unknown key \"\\xc3\\xa9kkk")
    # --set: a name past the nearest-name search, one past its buffer, digits
    # no double holds, a number that does not end where its digits do.
    expect(["report", "--set", "a" * 70 + "=1"], 2, "tco params lists them")
    expect(["report", "--set", "a" * 130 + "=1"], 2, "--set takes NAME=VALUE")
    expect(["report", "--set", "mfu=0." + "4" * 900], 2, "mfu is a number")
    expect(["report", "--set", "mfu=4e"], 2, "mfu is a number", "not 4e")
    expect(["report", "--set", "tokens=1e999"], 2, "tokens is a number")
    expect(["report", "--set", "\u001b=1"], 2, "no parameter is named \\x1b")
    # The programme: what its stages' JSON may get wrong.
    with open(story) as f:
        base = json.load(f)

    def bad(name, change, code, *needles):
        doc = json.loads(json.dumps(base))
        change(doc)
        p = write(name, json.dumps(doc))
        expect(["programme", p], code, p, *needles)

    def serving(**kv):
        return lambda doc: doc["stages"][8]["serving"].update(kv)

    def pop(i, *keys):
        def change(doc):
            for k in keys:
                doc["stages"][i].pop(k, None)
        return change

    bad("c-tp-big.json", serving(tensor_parallel=2 ** 40), 1, "serving.tensor_parallel", "one past 32 bits")
    bad("c-tp-neg.json", serving(tensor_parallel=-2 ** 40), 1, "serving.tensor_parallel", "one past 32 bits")
    bad("c-tp-type.json", serving(tensor_parallel="two"), 1, "serving.tensor_parallel", "not a string")
    bad("c-interval.json", serving(interval_seconds=60), 1, "a constant rate goes with \"hours\"",
        "not interval_seconds")
    bad("c-hours.json", serving(hours=1e7), 1, "serving.hours = 1e+07 is out of range")
    bad("c-rate-empty.json", serving(rate=[]), 1, "serving.rate is a number", "not an array")
    bad("c-rate-none.json", lambda doc: doc["stages"][8]["serving"].pop("rate"), 1, "serving.rate", "not missing")
    bad("c-unit-type.json", serving(rate_unit=5), 1, "serving.rate_unit is", "not an integer")
    bad("c-first.json", lambda doc: doc["stages"][0].update(after="sft"), 1, "stages[0]",
        "it is the first stage")
    bad("c-name-empty.json", lambda doc: doc["stages"][1].update(name=""), 1, "stages[1]", "not \"\"")
    bad("c-kind-unnamed.json", lambda doc: (pop(1, "name")(doc), doc["stages"][1].update(kind="warmup")), 1,
        "stages[1]: kind \"warmup\"")
    bad("c-kept-neg.json", lambda doc: doc["stages"][1].update(versions_kept=-2 ** 40), 1,
        "versions_kept = -1099511627776")
    bad("c-workload.json", lambda doc: doc["stages"][4]["workload"].update(params_active=1e15, params_total=1e9), 1,
        "stages[4]", "workload: params_active")
    p = write("c-syntax.json", '{"format": "libtco-scenario", "version": 1, "stages": [}')
    expect(["programme", p], 1, p, "not valid JSON")
    p = write("c-freeze.json", json.dumps(dict(base, topology={**base.get("topology", {}), "switch_radix": 63})))
    expect(["programme", p], 1, p, "switch_radix = 63")
    expect(["programme", story, "--set", "mfu=7"], 1, "--set mfu=7", "out of range")
    p = write("c-stages.json", json.dumps(dict(base, stages=[base["stages"][1]] * 257)))
    expect(["programme", p], 1, p, "stages holds 257 stages: allowed 1 to 256")
    # Two stages without a name and of one kind are called alike: refused.
    doc = json.loads(json.dumps(base))
    for i in (6, 7):
        doc["stages"][i] = {"kind": "evaluation"}
    p = write("c-twins.json", json.dumps(doc))
    expect(["programme", p], 1, p, "has that name too", "called by its kind")
    # A series without interval_seconds: one point a minute.
    doc = json.loads(json.dumps(base))
    doc["stages"][8]["serving"].pop("hours")
    doc["stages"][8]["serving"]["rate"] = [10] * 120
    rc, out, err = run("programme", write("c-series.json", json.dumps(doc)), "--format", "json")
    st = json.loads(out)["stages"][8] if rc == 0 else {}
    check(rc == 0 and abs(st["end_hours"] - st["start_hours"] - 2) < 1e-9, f"a series is a point a minute: {err}")
    # A path that fits, but not with the temporary file's suffix beside it;
    # a text report to a full standard output.
    near = path("")
    near = os.path.join(near, "n" * (4090 - len(near) - 1))
    expect(["report", "--format", "json", "-o", near], 3, "the path is too long")
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            p = subprocess.run([TCO, "report", "--format", "json"], stdout=full, stderr=subprocess.PIPE, timeout=60)
        check(p.returncode == 3 and b"-: cannot write" in p.stderr, f"a report to a full standard output: {p.stderr!r}")
    # Text in the outputs: a file name with a control character is
    # escaped in JSON, one with a quote, a backslash and a line break in
    # a Prometheus label.
    odd = path("tab\there.json")
    with open(default) as f, open(odd, "w") as g:
        g.write(f.read())
    rc, out, _ = run("compare", default, odd, "--format", "json")
    check(rc == 0 and json.loads(out)["options"][1]["scenario"] == odd and b"\\u0009" in out,
          "a control character in a JSON text is escaped")
    odd = path('q"b\\s\nl.json')
    with open(default) as f, open(odd, "w") as g:
        g.write(f.read())
    rc, out, _ = run("report", odd, "--format", "prometheus")
    check(rc == 0 and b'scenario="' + odd.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").encode()
          + b'"' in out, "a Prometheus label escapes a quote, a backslash and a line break")


def report_schema_checks(rep):
    """tco report --format json stands on its own: it validates against
    doc/report.schema.json (the golden scenarios' reports too), every
    member has a unit, amounts name the currency with their denominator."""
    import jsonschema
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "doc", "report.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    valid = jsonschema.Draft202012Validator(schema)
    for name in ("default", "owned", "moe", "multisite"):
        rc, out, _ = run("report", os.path.join(GOLDEN, name + ".cbor"), "--format", "json")
        doc = json.loads(out)
        errors = [e.message for e in valid.iter_errors(doc)]
        check(rc == 0 and not errors, f"{name}: the report validates against its schema {errors[:2]}")
        check(set(doc["units"]) == set(doc) - {"schema", "schema_version", "currency", "units"},
              f"{name}: every member has a unit")
    check(rep["units"]["cost_per_million_tokens"] == "USD per million tokens" and rep["units"]["total"] == "USD"
          and rep["units"]["cost_per_effective_accelerator_hour"] == "USD per accelerator-hour",
          "units name the currency and the denominator")
    default = os.path.join(GOLDEN, "default.json")
    for cmd, args in (("compare", [default, default]), ("sensitivity", [default]), ("lifetime", [default])):
        rc, out, _ = run(cmd, *args, "--format", "json")
        doc = json.loads(out)
        check(rc == 0 and doc["schema"] == "libtco-" + cmd and doc["schema_version"] == 1 and doc["currency"] == "USD",
              f"{cmd} json: its schema and currency")
    month = os.path.join(MONTH, "month.csv"), os.path.join(MONTH, "cluster.json")
    for args in (["compare", default, default], ["sensitivity", default], ["lifetime", default],
                 ["attribute", *month, "--by", "team"], ["waste", *month]):
        rc, out, _ = run(*args, "--format", "csv")
        table = list(csv.DictReader(io.StringIO(out.decode())))
        names = table[0].keys()
        check(rc == 0 and (("currency" in names and all(r["currency"] == "USD" for r in table)) or
                           ("unit" in names and {"USD", "USD per million tokens"} <= {r["unit"] for r in table})),
              f"{args[0]} csv: every row names its currency")
    bad = dict(rep, scenario_fingerprint=int(rep["scenario_fingerprint"], 16))
    check(not valid.is_valid(bad), "the schema refuses a fingerprint as an integer")


def dashboard_checks(path, write):
    """What dashboards and reviews read: tco diff names every input that
    changed and moves every cost line by the difference of two reports,
    refuses two currencies, and writes markdown for a pull request; the
    Prometheus exposition of a report and of an attribution parses with
    the Prometheus client's own parser and carries the same numbers."""
    from prometheus_client.parser import text_string_to_metric_families
    default, moe = os.path.join(GOLDEN, "default.json"), os.path.join(GOLDEN, "moe.json")
    rc, out, _ = run("diff", default, moe, "--format", "json")
    d = json.loads(out)
    a, b = report_of(default), report_of(moe)
    changed = {c["name"]: (c["from"], c["to"]) for c in d["inputs"]}
    check(rc == 0 and d["schema"] == "libtco-diff" and changed["accelerator_model"] == ("H100-SXM", "H200-SXM")
          and changed["accelerators"] == ("1024", "2048") and "pue" not in changed, "diff: the inputs that changed")
    lines = {x["name"]: x for x in d["lines"]}
    check(lines["total"]["from"] == a["total"] and lines["total"]["to"] == b["total"] and
          lines["total"]["change"] == b["total"] - a["total"] and
          all(lines[c]["change"] == b["cost"][c] - a["cost"][c] for c in a["cost"]),
          "diff: every cost line moves by the reports' difference")
    rc, out, _ = run("diff", default, moe, "--format", "markdown")
    text = out.decode()
    check(rc == 0 and text.startswith("### tco diff") and "| `accelerator_model` | topology | H100-SXM | H200-SXM |" in text
          and "**Total: 4,251,041 → " in text, "diff --format markdown: a pull-request comment")
    rc, out, _ = run("diff", default, default)
    check(rc == 0 and b"inputs: the same" in out, "diff of a scenario with itself")
    eur = write("diff-eur.json", json.dumps({"format": "libtco-scenario", "version": 1,
                                             "pricing": {"currency": "EUR", "on_demand_per_accel_hour": 6}}))
    expect(["diff", default, eur], 1, "EUR", "USD", "one currency")
    expect(["diff", default], 2, "two scenarios")

    rc, out, _ = run("report", "--format", "prometheus")
    fams = {f.name: f for f in text_string_to_metric_families(out.decode())}
    rep = report_of_builtin()
    total = fams["tco_total"].samples[0]
    check(rc == 0 and total.value == rep["total"] and total.labels["fingerprint"] == rep["scenario_fingerprint"]
          and total.labels["currency"] == "USD", "report --format prometheus: the total, labelled")
    cost = {s.labels["category"]: s.value for s in fams["tco_cost"].samples}
    check(cost == rep["cost"] and fams["tco_cost"].type == "gauge", "prometheus: every category")
    got = path("metrics.prom")
    expect(["report", "-o", got], 0)
    with open(got) as f:
        check(f.read().startswith("# HELP tco_total"), "-o x.prom writes the exposition")
    month = os.path.join(MONTH, "month.csv"), os.path.join(MONTH, "cluster.json")
    rc, out, _ = run("attribute", *month, "--by", "team,user", "--format", "prometheus")
    fams = {f.name: f for f in text_string_to_metric_families(out.decode())}
    rc2, js, _ = run("attribute", *month, "--by", "team,user", "--format", "json")
    bill = json.loads(js)["bill"]
    parts = fams["tco_attribution_total"].samples
    check(rc == 0 and fams["tco_bill_total"].samples[0].value == bill["total_cents"] / 100 and
          round(sum(s.value for s in parts) * 100) == bill["total_cents"] and
          all("group" in s.labels and "group2" in s.labels for s in parts),
          "attribute --format prometheus: the groups add up to the bill, to the cent")


def whole_file_checks(path, write):
    """A file is written whole or not at all: a full disk (a file size
    limit) leaves the old file as it was and no temporary file behind. An
    existing file is replaced only with --force, with the umask's mode; a
    symbolic link is followed only with --force, and stays a link; a
    directory is refused; a device is written to."""
    import resource
    import signal
    out = write("old.json", "old")
    expect(["report", "--format", "json", "-o", out], 3, "exists", "--force")
    with open(out) as f:
        check(f.read() == "old", "without --force an existing file is left as it was")

    def small_disk():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit then fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))

    # A coverage build's counters, written at exit under the same limit,
    # would be cut short and spoil the next runs' counts: they go to a
    # scratch folder instead (GCOV_PREFIX; no effect on other builds).
    small_env = dict(os.environ, GCOV_PREFIX=path("gcov"))

    p = subprocess.run([TCO, "report", "--format", "json", "--force", "-o", out], capture_output=True,
                       timeout=60, preexec_fn=small_disk, env=small_env)
    with open(out) as f:
        check(p.returncode == 3 and f.read() == "old" and b"unchanged" in p.stderr,
              f"a full disk leaves the old file: exit {p.returncode}, {p.stderr!r}")
    folder = os.path.dirname(out)
    check(not [n for n in os.listdir(folder) if ".tco-" in n], "no temporary file is left behind")
    link = path("link.json")
    os.symlink(out, link)
    expect(["report", "--format", "json", "-o", link], 3, "symbolic link", "--force")
    with open(out) as f:
        check(f.read() == "old", "the link's target is untouched")
    rc, _, _ = run("report", "--format", "json", "--force", "-o", link)
    with open(out) as f:
        check(rc == 0 and f.read().startswith("{") and os.path.islink(link),
              "--force writes the file a link points to, and the link stays")
    write("old.json", "old")
    rc, _, _ = run("report", "--format", "json", "--force", "-o", out)
    with open(out) as f:
        check(rc == 0 and f.read().startswith("{"), "--force replaces the file")
    mask = os.umask(0)
    os.umask(mask)
    check(os.stat(out).st_mode & 0o777 == 0o666 & ~mask, "with the umask's mode")
    expect(["report", "--format", "json", "-o", folder], 3, "is a directory")
    # every command that writes a file: a full disk leaves the old one
    default, moe = os.path.join(GOLDEN, "default.json"), os.path.join(GOLDEN, "moe.json")
    month = os.path.join(MONTH, "month.csv"), os.path.join(MONTH, "cluster.json")
    for args in (["compare", default, moe, "--format", "json"], ["sensitivity", default, "--format", "json"],
                 ["lifetime", default, "--format", "json"], ["diff", default, moe, "--format", "json"],
                 ["attribute", *month, "--by", "team", "--format", "focus"], ["waste", *month, "--format", "json"],
                 ["report", default, "--format", "cbor"]):
        old = write("old.out", "old")  # an extension that names no format
        p = subprocess.run([TCO, *args, "--force", "-o", old], capture_output=True, timeout=60, preexec_fn=small_disk, env=small_env)
        with open(old) as f:
            check(p.returncode == 3 and f.read() == "old" and b"cannot write" in p.stderr,
                  f"{args[0]}: a full disk leaves the old file: exit {p.returncode}, {p.stderr[-200:]!r}")
    write("old.json", "old")
    p = subprocess.run([TCO, "convert", default, out, "--force"], capture_output=True, timeout=60,
                       preexec_fn=small_disk, env=small_env)
    with open(out) as f:
        check(p.returncode == 3 and f.read() == "old", f"convert: a full disk leaves the old file: {p.stderr!r}")
    rc, _, _ = run("report", "--format", "json", "-o", os.devnull)
    check(rc == 0 and not os.path.isfile(os.devnull), "a device is written to, never replaced")


def scripting_checks(path, write):
    """What scripts lean on: --set changes any parameter of every scenario
    read (a slip is answered with the nearest name), -o's extension picks
    the format or must agree with --format, and a scenario piped in without
    - is said to be ignored."""
    rc, out, _ = run("report", "--format", "json", "--set", "accelerator_model=B200", "--set", "mfu=0.5",
                     "--set=checkpoint_async=false")
    rep = json.loads(out)
    check(rc == 0 and rep["peak_flops"] == 2.25e15, "--set a choice, a number and a boolean")
    rc, out2, _ = run("report", "--format", "json")
    check(json.loads(out2)["total"] != rep["total"], "--set moves the total")
    expect(["report", "--set", "acelerators=8"], 2, "no parameter is named acelerators", "did you mean accelerators?")
    expect(["report", "--set", "mfu"], 2, "NAME=VALUE")
    expect(["report", "--set", "mfu=fast"], 2, "mfu is a number")
    expect(["report", "--set", "mfu=1.5"], 1, "mfu = 1.5 is out of range")
    expect(["params", "--set", "mfu=0.5"], 2, "reads no scenario")
    default = os.path.join(GOLDEN, "default.json")
    rc, out, _ = run("report", default, "--format", "json", "--set", "on_demand_per_accel_hour=5")
    five = json.loads(out)["total"]
    rc, out, _ = run("compare", default, default, "--format", "json", "--set", "on_demand_per_accel_hour=5")
    check(rc == 0 and [o["total"] for o in json.loads(out)["options"]] == [five, five],
          "--set applies to every scenario compared")
    got = path("by-extension.csv")
    rc, _, _ = run("report", "-o", got)
    with open(got) as f:
        check(rc == 0 and f.readline().startswith("field,value,unit"), "-o x.csv writes CSV")
    expect(["report", "--format", "json", "-o", path("x.csv")], 2, "--format json", ".csv")
    expect(["params", "-o", path("x.cbor")], 2, "not offered here")
    p = subprocess.run([TCO, "report", "--format", "json"], input=b"{}", capture_output=True, timeout=60)
    check(p.returncode == 0 and b"standard input is not read" in p.stderr, "tco report < file says what it did")
    p = subprocess.run([TCO, "report", "-", "--format", "json"], input=open(default, "rb").read(),
                       capture_output=True, timeout=60)
    check(p.returncode == 0 and b"not read" not in p.stderr, "tco report - reads standard input")


def run_npv(path):
    rc, out, _ = run("lifetime", path, "--format", "json")
    return json.loads(out)["life"]["npv"]


def report_of_builtin():
    rc, out, _ = run("report", "--format", "json")
    return json.loads(out)


if __name__ == "__main__":
    sys.exit(main())
