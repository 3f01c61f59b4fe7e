"""The bad-input catalogue, generated from the library's parameter table:
every parameter given every class of bad value, with the same
expectations as the C suite (tests/api/test_params.c) and the Go one
(bad_input_test.go): NaN and infinities are not finite, the nearest values
past each bound and fractions of whole numbers are out of range, a text is
no number, a number no text (a choice takes its name or its value), a bool
no number, a NUL cuts no text, a control character is no text; and a
refused value leaves the handle as it was."""
import math

import pytest

import tco

HANDLES = {"topology": tco.Topology, "workload": tco.Workload, "pricing": tco.Pricing}
NUMERIC = [p for p in tco.params() if p.numeric]
TEXTS = [p for p in tco.params() if not p.numeric]


def refused(p, value, error):
    h = HANDLES[p.handle]()
    before = h.fingerprint
    with pytest.raises(error) as info:
        h.replace(**{p.name: value})
    assert p.name in str(info.value)
    assert h.fingerprint == before  # a refused value changes nothing


@pytest.mark.parametrize("p", NUMERIC, ids=lambda p: p.name)
def test_numbers(p):
    for bad in (math.nan, math.inf, -math.inf):
        refused(p, bad, tco.NotFiniteError)
    refused(p, math.nextafter(p.min, -math.inf), tco.RangeError)
    refused(p, math.nextafter(p.max, math.inf), tco.RangeError)
    if p.type != "real":
        refused(p, p.min + 0.5, tco.RangeError)
    refused(p, "1", tco.ParameterTypeError)
    if p.type != "bool":
        refused(p, True, tco.ParameterTypeError)


@pytest.mark.parametrize("p", TEXTS, ids=lambda p: p.name)
def test_texts(p):
    refused(p, "a\0b", tco.ParameterTypeError)
    if p.type == "choice":  # by name, or by its value: no other
        refused(p, "not-a-choice", tco.RangeError)
        refused(p, max(p.choice_values) + 1, tco.RangeError)
        refused(p, True, tco.ParameterTypeError)
    else:
        refused(p, 1.0, tco.ParameterTypeError)
        refused(p, "x" * 64, tco.RangeError)  # TCO_TEXT_MAX - 1 bytes at most
        refused(p, "tab\there", tco.RangeError)


# ---- series: the same classes for every function that reads one --------------

BIG = [1e308] * 4  # finite values whose sums are not


def series_calls():
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing(budget_amount=1000)
    return {
        "demand_stats": (lambda d, dt=1.0: tco.demand_stats(d, dt), True),
        "percentiles": (lambda d, dt=1.0: tco.percentiles(d, [50]), False),
        "time_above": (lambda d, dt=1.0: tco.time_above(d, [1], dt), False),
        "capacity_for_unmet": (lambda d, dt=1.0: tco.capacity_for_unmet(d, 0.1, dt), True),
        "capacity_split": (lambda d, dt=1.0: tco.capacity_split(d, dt, t, w, p), True),
        "budget": (lambda d, dt=1.0: tco.budget(d, p, dt), True),
    }


@pytest.mark.parametrize("name", list(series_calls()))
def test_series(name):
    call, sums = series_calls()[name]
    call([1.0, 2.0, 3.0])  # the good case
    for bad, error in (([math.nan], tco.NotFiniteError), ([math.inf], tco.NotFiniteError),
                       ([-1.0], tco.RangeError), ([], tco.RangeError)):
        with pytest.raises(error):
            call(bad)
    with pytest.raises(tco.ParameterTypeError):
        call([True, False])
    with pytest.raises(TypeError):
        call(["1"])
    if sums:  # a result that would overflow is refused, never NaN or infinite
        with pytest.raises(tco.RangeError):
            call(BIG)
    if name not in ("percentiles",):  # the ones that take an interval
        for dt, error in ((0.0, tco.RangeError), (-1.0, tco.RangeError), (math.nan, tco.NotFiniteError),
                          (1e-7, tco.RangeError), (1e7, tco.RangeError)):
            with pytest.raises(error):
                call([1.0, 2.0], dt)
