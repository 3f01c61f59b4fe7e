"""The bad-input catalogue (tests/catalogue/requests.json) through the tco.*
functions: the expectations tests/api/test_catalogue.c checks in C and
bindings/go/catalogue_bad_input_test.go in Go. Every field of every entry
set to every bad class the catalogue lists fails with its status, naming
the field; and, as Python has types C and Go check when compiling, a
boolean, a text or (for whole numbers) a fraction is refused as the
wrong type of value, before the library is called, and a whole number
past an int32 is refused, never truncated into range."""
import json
import math
import pathlib

import pytest

import tco
from tco._native import lib

ROOT = pathlib.Path(__file__).resolve().parents[3]

CATALOGUE = json.loads((ROOT / "tests" / "catalogue" / "requests.json").read_text(encoding="utf-8"))
SCENARIO = CATALOGUE["scenario"]
INT32_MIN, INT32_MAX = -2**31, 2**31 - 1


def value(cls, f):
    """The value of a bad class for field f, as gen_catalogue.py makes it
    for C (tests/catalogue/README.md)."""
    lo, hi = f["lo"], f.get("hi")
    if f["type"] == "int32":
        return {"below": lo - 1, "above": (hi or 0) + 1, "negative": -1, "zero": 0, "huge": INT32_MAX,
                "-huge": INT32_MIN}[cls]
    return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "zero": 0.0, "negative": -1.0,
            "subnormal": 5e-324, "huge": 1e308, "-huge": -1e308,
            "below": float(lo) if f.get("lo_open") else math.nextafter(lo, -math.inf),
            "above": math.nextafter(hi, math.inf) if hi is not None else math.nan,
            "fractional": math.floor(lo) + 1.5}[cls]


@pytest.fixture(scope="module")
def scen():
    t = tco.Topology(**SCENARIO["topology"])
    w = tco.Workload(**SCENARIO["workload"])
    p = tco.Pricing(**SCENARIO["pricing"])
    records = tco.read_csv(SCENARIO["records_csv"].encode(), strict=True)
    attribution = tco.attribute(records, t, w, p, by=SCENARIO["by"], period=tuple(SCENARIO["period_epoch"]))
    pools = tco.Pools([SCENARIO["pool"]])
    return t, w, p, attribution, records, pools


def attribute(s, kw):
    """tco.attribute with period_start or period_end given."""
    start, end = kw.get("period_start", SCENARIO["period_epoch"][0]), kw.get("period_end", SCENARIO["period_epoch"][1])
    return tco.attribute(s[4], *s[:3], by=SCENARIO["by"], period=(start, end))


# Each entry of the catalogue as the binding calls it, one field given.
CALLS = {
    "attribution": attribute,
    "waste": lambda s, kw: tco.find_waste(s[3], **kw),
    "lifetime": lambda s, kw: tco.lifetime(*s[:3], **kw),
    "serving": lambda s, kw: tco.serve(*s[:3], requests_per_second=SCENARIO["rate"], **kw),
    "pipeline": lambda s, kw: tco.data_pipeline(*s[:3], **kw),
    "tradeoffs": lambda s, kw: tco.tradeoffs(*s[:3], **kw),
    "sizing": lambda s, kw: tco.size(*s[:3], **{"deadline_days": SCENARIO["sizing_deadline_days"], **kw}),
    "job": lambda s, kw: tco.price_placement(s[5], s[0], s[2], {**SCENARIO["job"], **kw}, [0],
                                             [SCENARIO["job"]["accelerators"]]),
    "programme": lambda s, kw: tco.programme(s[0], s[2], [tco.Stage("pretraining", s[1], **kw)]),
    "scaling_law": lambda s, kw: tco.loss(7e10, 1.4e12, law=tco.scaling_law(**kw)),
}

# The fields a binding can be given ("only" lists the languages that can).
FIELDS = [(e["entry"], f) for e in CATALOGUE["entries"] for f in e["fields"] if "python" in f.get("only", ["python"])]
CASES = [(e, f, cls, status) for e, f in FIELDS for cls, status in f["bad"].items()]


def test_every_entry_has_a_call(scen):
    assert {e for e, _ in FIELDS} == set(CALLS)
    for entry, call in CALLS.items():
        call(scen, {})  # the valid request: a catalogue whose base fails would pass on any code


@pytest.mark.parametrize("entry, field, cls, status", CASES,
                         ids=[f"{e}.{f['field']}={c}" for e, f, c, _ in CASES])
def test_bad_class(scen, entry, field, cls, status):
    prefix = next(e["prefix"] for e in CATALOGUE["entries"] if e["entry"] == entry)
    name = prefix + field["field"]
    with pytest.raises(tco.Error) as caught:
        CALLS[entry](scen, {field["field"]: value(cls, field)})
    assert caught.value.code == getattr(lib, f"TCO_E_{status}"), caught.value.message
    assert caught.value.param == name
    assert name in caught.value.message


@pytest.mark.parametrize("entry, field", FIELDS, ids=[f"{e}.{f['field']}" for e, f in FIELDS])
def test_wrong_type(scen, entry, field):
    wrong = [True, "1", b"1", field["lo"] + 0.5 if field["type"] == "int32" else [1.0]]  # a fraction for a whole number
    if field.get("texts_allowed"):  # a time may be an ISO text or a datetime
        wrong = [True]
    for v in wrong:
        with pytest.raises(TypeError, match=field["field"]):
            CALLS[entry](scen, {field["field"]: v})
    if field["type"] == "int32":  # never truncated into an int32's range: refused, naming the field
        with pytest.raises((TypeError, tco.Error), match=field["field"]):
            CALLS[entry](scen, {field["field"]: 2**32 + field["lo"]})


READERS = CATALOGUE["readers"]


def reader_text(case):
    """The CSV of a row case, as gen_catalogue.py makes it for C: the valid
    row with the case's column replaced (latin-1: one byte a character)."""
    row = list(READERS["row"])
    row[READERS["header"].index(case["column"])] = case["text"] * case.get("repeat", 1)
    return (",".join(READERS["header"]) + "\n" + ",".join(row) + "\n").encode("latin-1")


TEXTS = [(f"{c['column']}={c['text']!r}", reader_text(c), c["column"], c["status"], True) for c in READERS["cases"]]
TEXTS += [(c["name"], c["text"].encode("latin-1"), c["param"], c["status"], False) for c in READERS["texts"]]


@pytest.mark.parametrize("what, text, param, status, row", TEXTS, ids=[t[0] for t in TEXTS])
def test_reader(what, text, param, status, row):
    with pytest.raises(tco.Error) as caught:
        tco.read_csv(text, strict=True)
    assert caught.value.code == getattr(lib, f"TCO_E_{status}"), caught.value.message
    assert (caught.value.param or "") == param
    assert param in caught.value.message
    if row:
        assert "line 2" in caught.value.message
        records = tco.read_csv(text)
        assert len(records) == 0 and len(records.bad) == 1
        line, reason = records.bad[0]
        assert line == 2 and param in reason


FOCUS = CATALOGUE["texts"]
FOCUS_CASES = [(f, c) for f, _ in FOCUS["fields"] for c in FOCUS["cases"]]


@pytest.mark.parametrize("field, case", FOCUS_CASES, ids=[f"{f}={c['class']}" for f, c in FOCUS_CASES])
def test_focus_text(scen, field, case):
    # The bytes as a str: invalid UTF-8 kept as lone surrogates, which the
    # binding passes on for the library to refuse as C's caller would.
    text = (case["text"] * case.get("repeat", 1)).encode("latin-1").decode("utf-8", "surrogateescape")
    name = FOCUS["prefix"] + field
    with pytest.raises(tco.Error) as caught:
        scen[3].to_focus(**{field: text})
    assert caught.value.code == getattr(lib, f"TCO_E_{case['status']}"), caught.value.message
    assert caught.value.param == name and name in caught.value.message


ARGUMENTS = [(a, cls, status) for a in CATALOGUE["arguments"] for cls, status in a["bad"].items()]
ARGUMENT_CALLS = {
    "share": lambda s, v: tco.sensitivity(*s[:3], share=v),
    "budget": lambda s, v: tco.compute_optimal(*s[:3], v),
    "params": lambda s, v: tco.loss(v, 1.4e12),
    "tokens": lambda s, v: tco.loss(7e10, v),
    "interval_hours": lambda s, v: tco.capacity_split(SCENARIO["rate"], v, *s[:3]),
    "interval_days": lambda s, v: tco.budget(SCENARIO["rate"], s[2], interval_days=v),
}


@pytest.mark.parametrize("arg, cls, status", ARGUMENTS, ids=[f"{a['argument']}={c}" for a, c, _ in ARGUMENTS])
def test_bad_argument(scen, arg, cls, status):
    with pytest.raises(tco.Error) as caught:
        ARGUMENT_CALLS[arg["argument"]](scen, value(cls, arg))
    assert caught.value.code == getattr(lib, f"TCO_E_{status}"), caught.value.message
    assert caught.value.param == arg["argument"] and arg["argument"] in caught.value.message


@pytest.mark.parametrize("arg", CATALOGUE["arguments"], ids=[a["argument"] for a in CATALOGUE["arguments"]])
def test_argument_wrong_type(scen, arg):
    for v in (True, "1", [1.0]):
        with pytest.raises(TypeError, match=arg["argument"]):
            ARGUMENT_CALLS[arg["argument"]](scen, v)


UNCERTAIN = CATALOGUE["uncertain"]
_NUMBER = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


@pytest.mark.parametrize("case", UNCERTAIN["cases"], ids=[str(c["set"]) for c in UNCERTAIN["cases"]])
def test_uncertain(case):
    v = {**UNCERTAIN["valid"], **{k: _NUMBER.get(x, x) for k, x in case["set"].items()}}
    spec = tco.Distribution(UNCERTAIN["distribution"], v["a"], v["b"], 0.0, v["lo"], v["hi"])
    tco.draw({UNCERTAIN["param"]: tco.Distribution(UNCERTAIN["distribution"], **UNCERTAIN["valid"], c=0.0)}, 4)
    with pytest.raises(tco.Error) as caught:
        tco.draw({UNCERTAIN["param"]: spec}, 4)
    assert caught.value.code == getattr(lib, f"TCO_E_{case['status']}"), caught.value.message
    assert caught.value.param == UNCERTAIN["param"] and "inputs[0]" in caught.value.message


SACCT = CATALOGUE["sacct"]


def sacct_text(case):
    """The Slurm row of a case, as gen_catalogue.py makes it for C: the valid
    row with the case's field replaced (latin-1: one byte a character)."""
    row = list(SACCT["row"])
    row[SACCT["fields"].index(case["column"])] = case["text"] * case.get("repeat", 1)
    return ("|".join(row) + "\n").encode("latin-1")


SACCT_TEXTS = [(f"{c['column']}={c['text']!r}", sacct_text(c), c["column"], c["status"], True) for c in SACCT["cases"]]
SACCT_TEXTS += [(c["name"], c["text"].encode("latin-1"), c["param"], c["status"], False) for c in SACCT["texts"]]


@pytest.mark.parametrize("what, text, param, status, row", SACCT_TEXTS, ids=[t[0] for t in SACCT_TEXTS])
def test_sacct_reader(what, text, param, status, row):
    with pytest.raises(tco.Error) as caught:
        tco.read_sacct(text, strict=True)
    assert caught.value.code == getattr(lib, f"TCO_E_{status}"), caught.value.message
    assert (caught.value.param or "") == param
    assert param in caught.value.message
    if row:
        assert "line 1:" in caught.value.message
        records = tco.read_sacct(text)
        assert len(records) == 0 and len(records.bad) == 1
        line, reason = records.bad[0]
        assert line == 1 and param in reason


VARIANTS = CATALOGUE["variants"]
SWEEPS = [(s["param"], cls, status) for s in VARIANTS["sweep"] for cls, status in s["bad"].items()]


def class_value(cls, param):
    """The value of a sweep's class, made from the parameter table's bounds
    as the fields' are (a class that is a number is that number)."""
    try:
        return float(cls)
    except ValueError:
        p = tco.param(param)
        return value(cls, {"type": "real", "lo": p.min, "hi": p.max})


@pytest.mark.parametrize("param, cls, status", SWEEPS, ids=[f"{p}={c}" for p, c, _ in SWEEPS])
def test_sweep(scen, param, cls, status):
    t, w, p = scen[:3]
    info = tco.param(param)
    valid = getattr({"topology": t, "workload": w, "pricing": p}[info.handle], param)
    if info.type == "choice":  # a sweep varies a choice by its index
        valid = info.choice_values[info.choices.index(valid)]
    with pytest.raises(tco.Error) as caught:
        tco.sweep(t, w, p, **{param: [valid, class_value(cls, param)]})
    assert caught.value.code == getattr(lib, f"TCO_E_{status}"), caught.value.message
    assert caught.value.param == param and param in caught.value.message
    assert "sweep value 1" in caught.value.message


def option(**changes):
    """The catalogue's scenario as a (topology, workload, pricing) triple,
    changes set by parameter name."""
    kw = {h: dict(SCENARIO[h]) for h in ("topology", "workload", "pricing")}
    for name, v in changes.items():
        kw[tco.param(name).handle][name] = v
    return tco.Topology(**kw["topology"]), tco.Workload(**kw["workload"]), tco.Pricing(**kw["pricing"])


COMPARE = VARIANTS["compare"]


@pytest.mark.parametrize("case", COMPARE["cases"], ids=[str(c["set"]) for c in COMPARE["cases"]])
def test_compare(case):
    options = [option() for _ in range(COMPARE["option"])] + [option(**case["set"])]
    tco.compare(*[option() for _ in options])  # the valid options compare
    with pytest.raises(tco.Error) as caught:
        tco.compare(*options)
    assert caught.value.code == getattr(lib, f"TCO_E_{case['status']}"), caught.value.message
    assert caught.value.param == case["param"]
    assert f"option {COMPARE['option']}" in caught.value.message
