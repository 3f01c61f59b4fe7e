"""The estimate through Python: the same numbers as C, the breakdown as a
table and a chart, sweeps in one C call."""
import math

import numpy as np
import pandas as pd
import pytest

import tco


def test_estimate_hand_checks(scenario_1_0):
    e = tco.estimate(*scenario_1_0)
    # 6 N D + 12 L h s D (Kaplan et al. 2020; PaLM appendix B)
    assert e.train_flops == pytest.approx(2e12 * (6 * 70e9 + 12 * 80 * 8192 * 4096), rel=1e-15)
    # compute hours = FLOPs / (1,024 x 989e12 x 0.4) / 3,600
    assert e.compute_hours == pytest.approx(e.train_flops / (1024 * 989e12 * 0.4) / 3600, rel=1e-15)
    assert e.total == sum(e.cost.values())  # the C sum, in category order
    assert sum(e.waste.values()) == pytest.approx(e.cost["waste"], rel=1e-12)
    assert list(e.cost) == tco.CATEGORIES and len(tco.CATEGORIES) == 12
    assert e.cost["power"] == 0 and e.cost["cooling"] == 0  # rented: in the rate
    assert e.scenario_fingerprint == tco.scenario_fingerprint(*scenario_1_0)
    assert e.field_units()["wall_hours"] == "h"


def test_owned_pays_power(scenario):
    t, w, p = scenario
    e = tco.estimate(t.replace(owned_share=1), w, p)
    assert e.cost["power"] > 0 and e.cost["cooling"] > 0


def test_to_pandas_and_plot(scenario):
    e = tco.estimate(*scenario)
    df = e.to_pandas()
    assert list(df.columns) == ["category", "amount", "share", "unit"]
    assert df["share"].sum() == pytest.approx(1)
    assert (df["unit"] == "USD").all()
    ax = e.plot()
    assert len(ax.patches) == sum(1 for v in e.cost.values() if v)  # no bar for an empty category
    assert e.to_dict()["total"] == e.total


def test_sweep_matches_single_estimates(scenario):
    t, w, p = scenario
    mfu = np.linspace(0.3, 0.6, 7)
    s = tco.sweep(t, w, p, mfu=mfu)
    assert len(s) == 7
    for i, m in enumerate(mfu):
        one = tco.estimate(t, w.replace(mfu=m), p)
        assert s.total[i] == one.total  # bit for bit
        assert s.cost("waste")[i] == one.cost["waste"]
        assert s["wall_hours"][i] == one.wall_hours
    df = s.to_pandas()
    assert isinstance(df, pd.DataFrame) and "cost_compute" in df and df["mfu"].tolist() == mfu.tolist()
    assert s.plot().get_xlabel() == "mfu"


def test_sweep_broadcasts_and_takes_choice_names(scenario):
    t, w, p = scenario
    s = tco.sweep(t, w, p, accelerator_model=["H100-SXM", "B200"], accelerators=1024)
    b200 = tco.estimate(t.replace(accelerator_model="B200"), w, p)
    assert s.total[1] == b200.total and s.total[0] > s.total[1]


def test_sweep_takes_a_choice_by_name_or_value(scenario):
    """The library varies a CHOICE by its value (tco_param_choice_at:
    precision bf16 0, fp8 1); its names are the form users read and write,
    so a sweep takes either, bit for bit the same, and refuses a name that
    is no choice as a handle's setter does: the same error and message."""
    t, w, p = scenario
    by_name = tco.sweep(t, w, p, precision=["bf16", "fp8"])
    by_value = tco.sweep(t, w, p, precision=[0, 1])
    assert list(by_name.total) == list(by_value.total) == [tco.estimate(t, w.replace(precision=c), p).total
                                                          for c in ("bf16", "fp8")]
    assert by_name.total[0] != by_name.total[1]
    with pytest.raises(tco.RangeError) as swept:
        tco.sweep(t, w, p, cooling=["air", "water"])
    with pytest.raises(tco.RangeError) as set_:
        t.replace(cooling="water")
    assert swept.value.param == set_.value.param == "cooling"
    assert swept.value.message == set_.value.message == 'cooling = "water" is not a choice: allowed air, liquid'


@pytest.mark.parametrize("kwargs, exc, text", [
    ({"mfu": [0.4, 1.5]}, tco.RangeError, "sweep value 1"),
    ({"mfu": [[0.4, 0.5]]}, ValueError, "one-dimensional"),
    ({"mfu": ["a", "b"]}, tco.ParameterTypeError, "numbers"),
    ({"currency": [1, 2]}, tco.ParameterTypeError, "text"),
    ({"accelerator_model": ["H100-SXM", "TPU"]}, tco.RangeError, "not a choice"),
    ({"no_such": [1]}, tco.UnknownParameterError, "no parameter"),
    ({"accelerators": [1024, 1020]}, tco.InconsistentError, "whole number of nodes"),
])
def test_sweep_errors(scenario, kwargs, exc, text):
    with pytest.raises(exc) as info:
        tco.sweep(*scenario, **kwargs)
    assert text in str(info.value)


def test_sweep_needs_an_array(scenario):
    with pytest.raises(TypeError):
        tco.sweep(*scenario)


def test_version():
    assert tco.__version__.startswith("1.")
    assert math.isfinite(tco.estimate(tco.Topology(), tco.Workload(), tco.Pricing()).total)


@pytest.mark.parametrize("at, wrong, expected", [(0, 1, "Topology"), (1, None, "Workload"), (2, "p", "Pricing"),
                                                 (0, tco.Workload(), "Topology")])
def test_estimate_names_a_wrong_handle(at, wrong, expected):
    args = [tco.Topology(), tco.Workload(), tco.Pricing()]
    args[at] = wrong
    with pytest.raises(TypeError, match=f"estimate\\(\\): expected a tco.{expected}, not {type(wrong).__name__}"):
        tco.estimate(*args)
