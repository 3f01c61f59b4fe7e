#!/usr/bin/env python3
"""Writes the C table of the bad-input catalogue (requests.json) for
tests/api/test_catalogue.c: one row per entry, field and bad class, with
the class's value (exact, as a hex float) and the expected status.
Usage: gen_catalogue.py requests.json catalogue.h"""
import json
import math
import sys

INT32_MIN, INT32_MAX, UINT32_MAX = -2**31, 2**31 - 1, 2**32 - 1


def value(cls, f):
    """The value of a bad class for field f (tests/catalogue/README.md);
    the Python and Go tests compute the same."""
    try:
        return float(cls)  # a class that is a number is that value
    except ValueError:
        pass
    lo, hi = f["lo"], f.get("hi")
    if f["type"] == "uint32":
        return {"below": lo - 1, "above": hi + 1, "zero": 0, "huge": UINT32_MAX}[cls]
    if f["type"] == "int32":
        return {"below": lo - 1, "above": (hi or 0) + 1, "negative": -1, "zero": 0,
                "huge": INT32_MAX, "-huge": INT32_MIN}[cls]
    return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "zero": 0.0, "negative": -1.0,
            "subnormal": 5e-324, "huge": 1e308, "-huge": -1e308,
            "below": lo if f.get("lo_open") else math.nextafter(lo, -math.inf),
            "above": math.nextafter(hi, math.inf) if hi is not None else math.nan,
            "fractional": math.floor(lo) + 1.5}[cls]


def c_double(v):
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    return v.hex()


def reader_text(readers, case):
    """The CSV of a row case: the header, then the valid row with the
    case's column replaced (latin-1: one byte a character)."""
    row = list(readers["row"])
    row[readers["header"].index(case["column"])] = case["text"] * case.get("repeat", 1)
    return (",".join(readers["header"]) + "\n" + ",".join(row) + "\n").encode("latin-1")


def c_bytes(b):
    return '"' + "".join(chr(c) if 0x20 <= c < 0x7f and chr(c) not in '"\\?' else f'\\{c:03o}' for c in b) + '"'


def main(src, dst):
    with open(src, encoding="utf-8") as fh:
        cat = json.load(fh)
    rows = []
    for e in cat["entries"]:
        for f in e["fields"]:
            for cls, status in f["bad"].items():
                v = value(cls, f)
                is_int = f["type"] != "real"
                rows.append(f'    {{ "{e["entry"]}", "{cls}", "{e["prefix"]}{f["field"]}", '
                            f'offsetof({e["struct"]}, {f["field"]}), CAT_{f["type"].upper()}, '
                            f'{c_double(float(v)) if not is_int else "0"}, {v if is_int else 0}, TCO_E_{status} }},')
    texts = []
    rd = cat["readers"]
    for case in rd["cases"]:
        b = reader_text(rd, case)
        what = f'{case["column"]} = {case["text"]!r}'.encode("ascii", "backslashreplace")
        texts.append(f'    {{ {c_bytes(what)}, {c_bytes(b)}, {len(b)}, '
                     f'"{case["column"]}", TCO_E_{case["status"]}, 2, 0 }},')
    for case in rd["texts"]:
        b = case["text"].encode("latin-1")
        texts.append(f'    {{ "{case["name"]}", {c_bytes(b)}, {len(b)}, "{case["param"]}", TCO_E_{case["status"]}, 0, 0 }},')
    sa = cat["sacct"]
    for case in sa["cases"]:
        row = list(sa["row"])
        row[sa["fields"].index(case["column"])] = case["text"] * case.get("repeat", 1)
        b = ("|".join(row) + "\n").encode("latin-1")
        what = f'{case["column"]} = {case["text"]!r}'.encode("ascii", "backslashreplace")
        texts.append(f'    {{ {c_bytes(what)}, {c_bytes(b)}, {len(b)}, "{case["column"]}", TCO_E_{case["status"]}, 1, 1 }},')
    for case in sa["texts"]:
        b = case["text"].encode("latin-1")
        texts.append(f'    {{ "{case["name"]}", {c_bytes(b)}, {len(b)}, "{case["param"]}", TCO_E_{case["status"]}, 0, 1 }},')
    va = cat["variants"]
    sweep = [f'    {{ "{s["param"]}", "{cls}", TCO_E_{status} }},' for s in va["sweep"] for cls, status in s["bad"].items()]
    compare = []
    for k, case in enumerate(va["compare"]["cases"]):
        for name, v in case["set"].items():
            text = json.dumps(v) if isinstance(v, str) else "NULL"
            number = c_double(float(v)) if not isinstance(v, str) else "0"
            compare.append(f'    {{ {k}, "{name}", {text}, {number}, "{case["param"]}", TCO_E_{case["status"]} }},')
    arguments = [f'    {{ "{a["entry"]}", "{cls}", "{a["argument"]}", 0, CAT_REAL, {c_double(float(value(cls, a)))}, 0, '
                 f'TCO_E_{status} }},' for a in cat["arguments"] for cls, status in a["bad"].items()]
    mc, uncertain = cat["uncertain"], []
    for case in mc["cases"]:
        (f, v), = case["set"].items()
        v = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(v, v)
        uncertain.append(f'    {{ "{f} = {v}", offsetof(tco_uncertain, {f}), {c_double(float(v))}, TCO_E_{case["status"]} }},')
    tx = cat["texts"]
    focus = []
    for f, _ in tx["fields"]:
        for case in tx["cases"]:
            b = (case["text"] * case.get("repeat", 1)).encode("latin-1")
            focus.append(f'    {{ "{case["class"]}", "{tx["prefix"]}{f}", offsetof({tx["struct"]}, {f}), {c_bytes(b)}, '
                         f'TCO_E_{case["status"]} }},')
    sc = cat["scenario"]
    params = [f'    {{ "{h}", "{k}", {c_double(float(v))} }},' for h in ("topology", "workload", "pricing")
              for k, v in sc[h].items()]
    with open(dst, "w", encoding="utf-8") as out:
        out.write("/* Generated by tests/catalogue/gen_catalogue.py from requests.json: do not edit. */\n")
        out.write("static const cat_case cat_cases[] = {\n" + "\n".join(rows) + "\n};\n")
        out.write("static const cat_text cat_texts[] = {\n" + "\n".join(texts) + "\n};\n")
        out.write("static const cat_case cat_arguments[] = {\n" + "\n".join(arguments) + "\n};\n")
        v = mc["valid"]
        out.write(f'static const tco_uncertain cat_uncertain = {{ .size = sizeof(tco_uncertain), '
                  f'.distribution = TCO_DIST_{mc["distribution"].upper()}, .a = {v["a"]!r}, .b = {v["b"]!r}, '
                  f'.lo = {v["lo"]!r}, .hi = {v["hi"]!r} }};\n')
        out.write(f'static const char cat_uncertain_param[] = "{mc["param"]}";\n')
        out.write("static const cat_set cat_uncertain_cases[] = {\n" + "\n".join(uncertain) + "\n};\n")
        out.write("static const cat_focus cat_focus_cases[] = {\n" + "\n".join(focus) + "\n};\n")
        out.write("static const cat_param cat_params[] = {\n" + "\n".join(params) + "\n};\n")
        out.write(f"static const char cat_records_csv[] = {json.dumps(sc['records_csv'])};\n")
        out.write(f"static const char cat_by[] = {json.dumps(sc['by'])};\n")
        out.write("static const double cat_period[2] = { %s, %s };\n" % tuple(c_double(float(v)) for v in sc["period_epoch"]))
        out.write("static const double cat_rate[] = { %s };\n" % ", ".join(c_double(float(v)) for v in sc["rate"]))
        for name, ctype in (("pool", "tco_pool"), ("job", "tco_job")):
            init = ", ".join(f".{k} = {v!r}" for k, v in sc[name].items())
            out.write(f"static const {ctype} cat_{name} = {{ .size = sizeof({ctype}), {init} }};\n")
        out.write(f"static const double cat_sizing_deadline_days = {c_double(float(sc['sizing_deadline_days']))};\n")
        out.write("static const cat_sweep cat_sweep_cases[] = {\n" + "\n".join(sweep) + "\n};\n")
        out.write(f"static const int cat_compare_option = {va['compare']['option']};\n")
        out.write("static const cat_compare cat_compare_cases[] = {\n" + "\n".join(compare) + "\n};\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
