#!/usr/bin/env python3
"""The bad-input catalogue (tests/catalogue/requests.json, its "command"
section says how) through the tco command: every case exits with a
non-zero status, names the input on standard error and writes nothing.

Usage: test_catalogue.py TCO CATALOGUE_DIR
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

TCO, CATALOGUE_DIR = os.path.abspath(sys.argv[1]), sys.argv[2]
sys.path.insert(0, CATALOGUE_DIR)
from gen_catalogue import reader_text, value  # noqa: E402 (the classes' values, as C has them)

with open(os.path.join(CATALOGUE_DIR, "requests.json"), encoding="utf-8") as fh:
    CAT = json.load(fh)
SC = CAT["scenario"]
failures = 0


def scenario_json(**changes):
    """The catalogue's scenario as a JSON scenario file, changes set by
    parameter name on their handle."""
    doc = {"format": "libtco-scenario", "version": 1,
           "topology": dict(SC["topology"]), "workload": dict(SC["workload"]), "pricing": dict(SC["pricing"])}
    p = subprocess.run([TCO, "params", "--format", "json"], capture_output=True, check=True)
    handle = {q["name"]: q["handle"] for q in json.loads(p.stdout)}
    for k, v in changes.items():
        doc[handle[k]][k] = v
    return json.dumps(doc)


BASE = {"scenario.json": scenario_json(), "records.csv": SC["records_csv"],
        "usage.txt": "|".join(CAT["sacct"]["row"]) + "\n"}


def run_case(what, args, code, says, files=None, output=True):
    """Runs tco with args in a folder of its own holding the base files and
    files ({name} in args and says is that file's path); checks the exit
    status, that stderr names every text of says and that nothing is
    written."""
    global failures
    folder = tempfile.mkdtemp(prefix="tco-cat-")
    try:
        texts = {**BASE, **(files or {})}
        for name, text in texts.items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(text.encode("latin-1") if isinstance(text, str) else text)
        old = os.path.join(folder, "old.out")
        if output:
            with open(old, "w") as f:
                f.write("old")
            args = [*args, "--force", "-o", old]

        def paths(s):
            return re.sub(r"\{([^{}]+\.[a-z]+)\}", lambda m: os.path.join(folder, m.group(1)), s)

        argv = [paths(a) for a in args]
        before = {n: open(os.path.join(folder, n), "rb").read() for n in os.listdir(folder)}
        p = subprocess.run([TCO, *argv], capture_output=True, timeout=60, cwd=folder)
        err = p.stderr.decode("utf-8", "replace")
        after = {n: open(os.path.join(folder, n), "rb").read() for n in os.listdir(folder)}
        problems = []
        if p.returncode not in (code if isinstance(code, tuple) else (code,)):
            problems.append(f"exit {p.returncode}, want {code}")
        problems += [f"stderr lacks {paths(s)!r}" for s in (says(p.returncode) if callable(says) else says)
                     if paths(s) not in err]
        if after != before:
            problems.append(f"wrote {sorted(set(after) ^ set(before)) or 'into a file'}")
        if any(b < 0x20 and b != 0x0a for b in p.stderr):
            problems.append("a control byte on stderr")
        if problems:
            failures += 1
            print(f"FAIL: {what}: tco {' '.join(argv)}: {'; '.join(problems)}; stderr: {err.strip()[:300]}",
                  file=sys.stderr)
    finally:
        shutil.rmtree(folder)


def main():
    cases = 0
    for c in CAT["command"]["cases"]:
        run_case(c.get("note", " ".join(c["args"])), c["args"], c["exit"], c["says"], c.get("files"),
                 c.get("output", True))
        cases += 1

    # The readers' rows and texts, strictly: exit 1, the file, the line and the field.
    rd = CAT["readers"]
    for c in rd["cases"]:
        run_case(f"csv {c['column']} = {c['text']!r}", ["attribute", "{bad.csv}", "{scenario.json}", "--by", "team", "--strict"],
                 1, ["{bad.csv}", "line 2", c["column"]], {"bad.csv": reader_text(rd, c)})
        cases += 1
    sa = CAT["sacct"]
    for c in sa["cases"]:
        row = list(sa["row"])
        row[sa["fields"].index(c["column"])] = c["text"] * c.get("repeat", 1)
        run_case(f"sacct {c['column']} = {c['text']!r}",
                 ["attribute", "{bad.txt}", "{scenario.json}", "--by", "project", "--records", "sacct", "--strict"],
                 1, ["{bad.txt}", "line 1", c["column"]], {"bad.txt": "|".join(row) + "\n"})
        cases += 1
    for reader, texts, name in (("csv", rd["texts"], "bad.csv"), ("sacct", sa["texts"], "bad.txt")):
        for c in texts:
            run_case(f"{reader}: {c['name']}", ["attribute", "{%s}" % name, "{scenario.json}", "--by", "team",
                                                "--records", reader, "--strict"],
                     1, ["{%s}" % name, c["param"]], {name: c["text"]})
            cases += 1

    # The sweep's parameters through --set: 2 for what is no finite number,
    # else the library's refusal, 1; the parameter named either way.
    p = subprocess.run([TCO, "params", "--format", "json"], capture_output=True, check=True)
    table = {q["name"]: q for q in json.loads(p.stdout)}
    for s in CAT["variants"]["sweep"]:
        q = table[s["param"]]
        f = {"type": "real", "lo": q.get("min", 0), "hi": q.get("max")}
        for cls in s["bad"]:
            v = value(cls, f)
            run_case(f"--set {s['param']} = {cls}", ["report", "{scenario.json}", "--set", f"{s['param']}={v!r}"],
                     1 if math.isfinite(v) else 2, [s["param"]])
            cases += 1
    for c in CAT["variants"]["compare"]["cases"]:
        run_case(f"compare {c['set']}", ["compare", "{scenario.json}", "{scenario.json}", "{option.json}"], 1,
                 ["{option.json}", c["param"]], {"option.json": scenario_json(**c["set"])})
        cases += 1

    # Each field or argument the command takes, every class: refused by
    # the command (2, the option named) or by the library (1, the field).
    named = [(e["prefix"], e["command"], f) for e in CAT["entries"] if "command" in e for f in e["fields"]]
    named += [("", a["command"], {**a, "field": a["argument"]}) for a in CAT["arguments"] if "command" in a]
    for prefix, template, f in named:
        option = f["field"].replace("_", "-")
        for cls in f["bad"]:
            v = value(cls, f)
            text = str(int(v)) if f["type"] != "real" else repr(v)
            args = [a.replace("{field}", f["field"]).replace("{option}", option).replace("{value}", text)
                    for a in template]
            shown = "--" + option if "--{option}" in template else f["field"]  # as the command line has it
            run_case(f"{prefix}{f['field']} = {cls}", args, (1, 2),
                     lambda rc, name=prefix + f["field"], shown=shown: [name if rc == 1 else shown])
            cases += 1

    if failures:
        print(f"{failures} of {cases} command cases failed", file=sys.stderr)
        return 1
    print(f"tco command: {cases} catalogue cases refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
