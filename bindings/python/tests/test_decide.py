"""Decisions from Python: comparison, sizing, the tornado and Monte Carlo,
each against what the C library itself says (its structs read here through
cffi, or estimates priced one by one), the tables' shapes, the charts, and
the library's typed errors."""
import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes

import tco
from tco._native import ffi, lib


@pytest.fixture
def options(scenario):
    """Rented on demand (the baseline), owned, and a cheaper rate that costs
    a migration once."""
    t, w, p = scenario
    return [(t, w, p), (t.replace(owned_share=1), w, p),
            (t, w, p.replace(on_demand_per_accel_hour=3.5, migration_cost=1e5))]


def c_compare(options):
    """tco_compare called here, without the binding's wrapper."""
    n = len(options)
    out = ffi.new("tco_option[]", n)
    ts = ffi.new("tco_topology *[]", [o[0]._ptr for o in options])
    ws = ffi.new("tco_workload *[]", [o[1]._ptr for o in options])
    ps = ffi.new("tco_pricing *[]", [o[2]._ptr for o in options])
    assert lib.tco_compare(out, ffi.sizeof("tco_option"), n, ts, ws, ps, ffi.NULL) == lib.TCO_OK
    return out


# ---- compare ----------------------------------------------------------------

def test_compare_is_the_c_struct(options):
    c = tco.compare(*options, names=["rent", "own", "cheaper rate"])
    raw = c_compare(options)
    assert len(c) == 3 and c.names == ["rent", "own", "cheaper rate"] and c.baseline is c[0]
    for i, o in enumerate(c):
        for field, _ in ffi.typeof("tco_option").fields:
            if field == "size":
                continue
            want = getattr(raw[i], field)
            if field in ("cost", "difference"):
                assert list(getattr(o, field).values()) == list(want)[:len(tco.CATEGORIES)]
            else:
                assert getattr(o, field) == want, field  # bit for bit; flags as bools
    cheaper = c["cheaper rate"]
    assert cheaper.payback_runs == raw[2].payback_runs and cheaper.payback_months == raw[2].payback_months
    assert cheaper.pays_back is True and isinstance(cheaper.cheaper, bool)
    # what the payback means (tco.h): the one-off beyond the baseline's over the saving per run
    assert cheaper.payback_runs == pytest.approx((cheaper.one_off - c[0].one_off) / cheaper.saving_per_run)
    assert cheaper.one_off == 1e5 and c[0].one_off == 0


def test_compare_prices_each_option_as_estimate(options):
    c = tco.compare(*options)
    for (t, w, p), o in zip(options, c):
        e = tco.estimate(t, w, p)
        assert o.total == e.total and o.cost == e.cost
        assert o.cost_per_million_tokens == e.cost_per_million_tokens
        assert o.scenario_fingerprint == e.scenario_fingerprint
    base = c[0]
    for o in c:
        assert o.total_difference == o.total - base.total
        assert o.difference == {k: o.cost[k] - base.cost[k] for k in o.cost}
        assert o.saving_per_run == base.recurring_per_run - o.recurring_per_run
    assert base.total_difference == 0 and not base.pays_back and base.payback_runs == 0
    assert c["option 1"].cost["power"] > 0  # owned: energy is paid, not in a rate


def test_compare_worked_example(scenario):
    """doc/model.md, section 12: the built-in scenario rented, against it
    owned after a migration of 150,000 and 4 FTE-months of learning."""
    t, w, p = scenario
    owned_scenario = (t.replace(owned_share=1), w, p.replace(migration_cost=150_000, learning_fte_months=4))
    rented, owned = tco.compare((t, w, p), owned_scenario)
    assert rented.total == pytest.approx(2_505_723.51, abs=0.01)
    assert owned.total == pytest.approx(1_316_578.82, abs=0.01)
    assert owned.one_off == pytest.approx(150_000 + 4 * 200_000 / 12, rel=1e-15)
    assert owned.recurring_per_run == pytest.approx(owned.total - owned.one_off, rel=1e-12)  # one run
    assert owned.saving_per_run == pytest.approx(1_405_811.36, abs=0.01)
    held = tco.estimate(*owned_scenario).held_hours
    assert owned.saving_per_month == pytest.approx(owned.saving_per_run * 730.5 / held, rel=1e-12)
    assert owned.payback_runs == pytest.approx(0.154, abs=5e-4)
    assert owned.payback_months == pytest.approx(0.125, abs=5e-4)
    assert owned.cheaper and owned.pays_back
    # fixed = the annuity 11,614.83 + (plant 548,067.63 + fabric 1,633,581.43) / 1,024 a year; energy 0.1122 an hour
    fixed = 11_614.83 + (548_067.63 + 1_633_581.43) / 1024
    assert owned.breakeven_rate == pytest.approx(fixed / 8766 + 0.1122, rel=1e-4)
    assert owned.breakeven_utilisation == pytest.approx(fixed / (8766 * (4 - 0.1122)), rel=1e-4)
    assert rented.breakeven_rate == owned.breakeven_rate  # the same prices


def test_compare_table_and_chart(options):
    c = tco.compare(*options, names=["a", "b", "c"])
    df = c.to_pandas()
    k = len(tco.CATEGORIES)
    assert df.shape == (16 + 2 * k, 3)  # side by side: a column per option
    assert list(df.columns) == ["a", "b", "c"] and df.columns.name == "option"
    assert list(df.index[:3]) == ["total", "total_difference", "cost_per_run"]
    assert [f"cost.{x}" for x in tco.CATEGORIES] == list(df.index[16:16 + k])
    assert [f"difference.{x}" for x in tco.CATEGORIES] == list(df.index[16 + k:])
    assert df.loc["payback_runs", "c"] == c["c"].payback_runs and df.loc["pays_back", "b"] is True
    assert df.loc["cost.compute", "b"] == c["b"].cost["compute"]
    assert df.T.loc["c", "one_off"] == 1e5
    ax = c.plot()
    assert isinstance(ax, Axes) and [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert ax.get_ylabel() == "cost (USD)"


def test_compare_refuses(scenario):
    t, w, p = scenario
    with pytest.raises(tco.InconsistentError) as info:
        tco.compare((t, w, p), (t, w, p.replace(currency="EUR")))
    assert info.value.param == "currency" and "EUR" in str(info.value) and "USD" in str(info.value)
    with pytest.raises(tco.InconsistentError, match=r"^option 1: .*tensor_parallel"):
        tco.compare((t, w, p), (t, w.replace(tensor_parallel=7), p))  # 56 does not divide 1,024
    with pytest.raises(TypeError, match="at least one"):
        tco.compare()
    with pytest.raises(TypeError, match="option 0"):
        tco.compare((t, w))
    with pytest.raises(TypeError, match="tco.Pricing"):
        tco.compare((t, w, w))
    with pytest.raises(ValueError, match="2 names for 1"):
        tco.compare((t, w, p), names=["x", "y"])
    with pytest.raises(KeyError, match="no option"):
        tco.compare((t, w, p))["nope"]


# ---- size -------------------------------------------------------------------

@pytest.fixture
def sizing_scenario():
    """tests/api/test_sizing.c's: 70B dense on 2T tokens on 1,024 H100 in
    nodes of 8, TP 8 x PP 4, mfu 0.4, a 2 % stall floor, and failures and
    checkpoint pauses off, so that a run's wall time is its work alone."""
    t = tco.Topology(accelerator_model="H100-SXM", accelerators=1024, accelerators_per_node=8,
                     accelerator_peak_flops=0, storage_hot_gbps=100)
    w = tco.Workload(params_total=70e9, params_active=0, layers=0, tokens=2e12, epochs=1, total_flops=0,
                     precision="bf16", mfu=0.4, hfu=0, job_accelerators=0, tensor_parallel=8, pipeline_parallel=4,
                     data_parallel=0, data_stall_share=0.02, count_failures=0, count_checkpoints=0)
    return t, w, tco.Pricing()


FLOPS, PEAK = 6 * 70e9 * 2e12, 989e12  # 6 N D; dense BF16 of an H100 SXM


def test_size_to_a_deadline_by_hand(sizing_scenario):
    t, w, p = sizing_scenario
    s = tco.size(t, w, p, deadline_days=40)
    # wall = F / (n x peak x mfu x 3600) / 0.98 h; 40 days need n >= 626.94,
    # the next multiple of the grid's step lcm(8, 8 x 4) = 32 is 640
    need = FLOPS / (PEAK * 0.4 * 3600 * 0.98 * 24 * 40)
    assert need == pytest.approx(626.94, abs=0.01)
    assert s.feasible is True and s.accelerators == 640 and s.mfu == 0.4
    assert s.price_class is None and s.closest_total is None and s.iterations > 0
    assert s.wall_days == pytest.approx(FLOPS / (640 * PEAK * 0.4 * 3600) / 0.98 / 24, rel=1e-12)
    at = tco.estimate(t, w.replace(job_accelerators=640), p)  # the answer, priced directly
    assert (s.wall_days, s.total) == (at.wall_hours / 24, at.total)
    assert tco.estimate(t, w.replace(job_accelerators=608), p).wall_hours / 24 > 40  # a step fewer misses it

    m = tco.size(t, w, p, deadline_days=40, solve="mfu")  # on the 1,024 as given
    assert m.accelerators == 1024
    assert m.mfu == pytest.approx(FLOPS / (1024 * PEAK * 3600 * 0.98 * 24 * 40), rel=1e-8)
    assert m.wall_days == pytest.approx(40, rel=1e-8) and m.wall_days <= 40


def test_size_infeasible_budget_and_both(sizing_scenario):
    t, w, p = sizing_scenario
    full = tco.estimate(t, w, p)  # the whole cluster: the fastest and, here, the cheapest run
    s = tco.size(t, w, p, deadline_days=1)
    assert s.feasible is False and s.closest_wall_days == pytest.approx(full.wall_hours / 24)
    assert s.closest_total == pytest.approx(full.total)
    b = tco.size(t, w, p, budget=full.total * 1.01)
    assert b.feasible and b.accelerators == 1024 and b.total <= full.total * 1.01
    both = tco.size(t, w, p, deadline_days=40, budget=3e6)
    assert both.feasible and both.price_class in ("on_demand", "reserved", "spot", "owned")
    assert both.total <= 3e6 and both.wall_days <= 40
    df = both.to_pandas()
    assert df.loc["price_class", "value"] == both.price_class


def test_size_refuses(sizing_scenario):
    t, w, p = sizing_scenario
    with pytest.raises(tco.InconsistentError, match="neither") as info:
        tco.size(t, w, p)
    assert info.value.param == "target.deadline_days"
    with pytest.raises(tco.RangeError) as info:
        tco.size(t, w, p, deadline_days=-1)
    assert info.value.param == "target.deadline_days"
    with pytest.raises(tco.RangeError, match="solve"):
        tco.size(t, w, p, deadline_days=40, solve="nodes")
    with pytest.raises(tco.NotFiniteError):
        tco.size(t, w, p, budget=float("nan"))


# ---- sensitivity ------------------------------------------------------------

def test_tornado_rows_are_direct_estimates(scenario):
    t, w, p = scenario
    tn = tco.sensitivity(t, w, p)
    mfu = tn["mfu"]
    assert (mfu.value, mfu.low_value, mfu.high_value) == (0.4, 0.4 * 0.9, 0.4 * 1.1)
    low = tco.estimate(t, w.replace(mfu=0.4 * 0.9), p)
    high = tco.estimate(t, w.replace(mfu=0.4 * 1.1), p)
    assert (mfu.low_total, mfu.high_total) == (low.total, high.total)  # bit for bit
    assert (mfu.low_unit, mfu.high_unit) == (low.cost_per_effective_accelerator_hour,
                                             high.cost_per_effective_accelerator_hour)
    assert mfu.spread == abs(high.total - low.total) and mfu.status == 0 and mfu.error is None
    rate = tn["on_demand_per_accel_hour"]
    assert rate.handle == "pricing"
    assert rate.high_total == tco.estimate(t, w, p.replace(on_demand_per_accel_hour=4 * 1.1)).total
    assert tn.total == tco.estimate(t, w, p).total
    spreads = [r.spread for r in tn]
    assert spreads == sorted(spreads, reverse=True)
    numeric = [q for q in tco.params() if q.type in ("real", "int")]
    assert sorted(r.parameter for r in tn) == sorted(q.name for q in numeric)


def test_tornado_clips_and_keeps_refusals(scenario):
    t, w, p = scenario
    tn = tco.sensitivity(t, w.replace(mfu=0.95), p, share=0.1)
    assert tn["mfu"].clipped and tn["mfu"].high_value == 1.0
    # 1,024 accelerators x 0.9 = 921.6 -> 922 is no whole number of nodes of 8
    acc = tn["accelerators"]
    assert acc.status == lib.TCO_E_INCONSISTENT and acc.spread == 0 and acc.low_total == 0
    assert isinstance(acc.error, tco.InconsistentError)
    assert tn.share == 0.1


def test_tornado_table_and_chart(scenario):
    tn = tco.sensitivity(*scenario, share=0.2)
    df = tn.to_pandas()
    assert list(df.columns) == ["parameter", "handle", "value", "low_value", "high_value", "low_total",
                                "high_total", "low_unit", "high_unit", "spread", "clipped", "status"]
    assert df.shape == (len(tn), 12) and df["parameter"].iloc[0] == tn[0].parameter
    assert df["spread"].is_monotonic_decreasing
    ax = tn.plot(top=5)
    assert isinstance(ax, Axes)
    assert [x.get_text() for x in ax.get_yticklabels()] == [r.parameter for r in tn[:5]][::-1]


def test_tornado_refuses(scenario):
    with pytest.raises(tco.RangeError, match="share"):
        tco.sensitivity(*scenario, share=1.5)
    with pytest.raises(tco.RangeError, match="share"):
        tco.sensitivity(*scenario, share=-0.1)
    with pytest.raises(tco.NotFiniteError):
        tco.sensitivity(*scenario, share=float("inf"))


def test_tornado_share_0_is_the_default(scenario):
    """0 stands for 0.1, as tco.h says and C and Go take it: the same rows
    as share=0.1, mfu 0.4 swung to 0.36 and 0.44."""
    zero, tenth = tco.sensitivity(*scenario, share=0), tco.sensitivity(*scenario, share=0.1)
    assert [r.to_dict() for r in zero] == [r.to_dict() for r in tenth]
    assert (zero["mfu"].low_value, zero["mfu"].high_value) == (0.4 * 0.9, 0.4 * 1.1)
    assert zero.share == 0.1


# ---- Monte Carlo ------------------------------------------------------------

RANGES = {
    "mfu": tco.triangular(0.3, 0.4, 0.5),
    "on_demand_per_accel_hour": tco.normal(4.0, 0.5, lo=3.0),  # the reserved rate, 2.5, stays below it
    "accelerator_mtbf_hours": ("lognormal", 80000, 0.3),
    "checkpoint_retention": tco.uniform(1, 8),  # an INT: drawn whole
}


def test_draw_is_the_same_in_chunks():
    one = tco.draw(RANGES, 1000, seed=42)
    assert one.shape == (1000, 4)
    parts = np.vstack([tco.draw(RANGES, 400, seed=42), tco.draw(RANGES, 600, seed=42, first=400)])
    assert np.array_equal(one, parts)
    assert not np.array_equal(one, tco.draw(RANGES, 1000, seed=43))
    mfu, rate, mtbf, kept = one.T
    assert mfu.min() >= 0.3 and mfu.max() <= 0.5 and rate.min() >= 3.0
    assert np.all(kept == np.round(kept)) and 1 <= kept.min() and kept.max() <= 8
    assert mtbf.min() > 0 and np.median(mtbf) == pytest.approx(80000, rel=0.05)
    assert tco.draw({}, 3).shape == (3, 0) and tco.draw(RANGES, 0).shape == (0, 4)


def test_monte_carlo_threads_agree_and_match_draw_then_sweep(scenario):
    t, w, p = scenario
    one = tco.monte_carlo(t, w, p, RANGES, samples=3000, seed=7, threads=1)
    two = tco.monte_carlo(t, w, p, RANGES, samples=3000, seed=7, threads=2)
    assert one.summary.equals(two.summary) and one.correlation.equals(two.correlation)
    assert all(one[s].to_dict() == two[s].to_dict() for s in tco.SERIES)
    # the run is the drawn inputs, each priced: the same samples through sweep and numpy
    x = tco.draw(RANGES, 3000, seed=7)
    s = tco.sweep(t, w, p, **dict(zip(RANGES, x.T)))
    total = one["total"]
    assert (total.min, total.max) == (s.total.min(), s.total.max())
    for q in (5, 10, 50, 90, 95):
        assert getattr(total, f"p{q}") == pytest.approx(np.percentile(s.total, q), rel=1e-12)
    assert total.mean == pytest.approx(s.total.mean(), rel=1e-12)
    assert total.sd == pytest.approx(s.total.std(ddof=1), rel=1e-9)
    wall = one["wall_hours"]
    assert wall.p50 == pytest.approx(np.percentile(s["wall_hours"], 50), rel=1e-12)
    rank = pd.DataFrame(x, columns=list(RANGES)).rank()
    for name in RANGES:
        want = np.corrcoef(rank[name], pd.Series(s.total).rank())[0, 1]
        assert one.correlations[name] == pytest.approx(want, abs=1e-12)
    assert one.correlations["mfu"] < -0.3 and one.correlations["on_demand_per_accel_hour"] > 0.3


def test_monte_carlo_tables_and_chart(scenario):
    b = tco.monte_carlo(*scenario, RANGES, samples=500, seed=1)
    df = b.summary
    assert df.shape == (len(tco.SERIES), 9) and list(df.index) == tco.SERIES
    assert list(df.columns) == ["mean", "sd", "min", "max", "p5", "p10", "p50", "p90", "p95"]
    assert df.index[0] == "total" and "cost.compute" in df.index and "waste.failures" in df.index
    assert df.loc["total", "p95"] == b["total"].p95
    assert (df["p5"] <= df["p50"]).all() and (df["p50"] <= df["p95"]).all()
    const = df.loc["cost.power"]  # rented: no energy in any sample
    assert const["sd"] == 0 and const["min"] == const["max"] == 0
    c = b.correlation
    assert isinstance(c, pd.Series) and list(c.index) == list(RANGES) and c.abs().max() <= 1
    assert b.to_pandas().equals(df) and "samples" in repr(b)
    ax = b.plot()
    assert isinstance(ax, Axes) and ax.get_yticklabels()[-1].get_text() == "total"
    assert isinstance(b.plot(fields=["wall_hours", "goodput"]), Axes)
    with pytest.raises(KeyError, match="tco.SERIES"):
        b["nope"]


def test_monte_carlo_without_inputs_is_the_estimate(scenario):
    b = tco.monte_carlo(*scenario, {}, samples=3, seed=0, threads=2)
    e = tco.estimate(*scenario)
    assert b["total"].mean == e.total and b["total"].sd == 0 and b.correlations == {}


@pytest.mark.parametrize("ranges, exc, text", [
    ({"mfu": tco.uniform(0.5, 0.3)}, tco.RangeError, "mfu, uniform"),
    ({"mfu": tco.triangular(0.3, 0.6, 0.5)}, tco.RangeError, "mfu, triangular"),
    ({"mfu": tco.normal(0.4, 0)}, tco.RangeError, "standard deviation"),
    ({"tokens": tco.lognormal(-1, 0.2)}, tco.RangeError, "tokens, lognormal"),
    ({"mfu": tco.uniform(0.3, 0.5, lo=0.6, hi=0.7)}, tco.InconsistentError, "mfu, uniform"),
    ({"mfu": tco.normal(0.4, 0.1, lo=2, hi=3)}, tco.RangeError, "lo = 2"),
    ({"mfu": ("beta", 2, 3)}, tco.RangeError, "mfu: distribution 'beta'"),
    ({"currency": tco.uniform(1, 2)}, tco.ParameterTypeError, "currency"),
    ({"mfuu": tco.uniform(0.3, 0.5)}, tco.UnknownParameterError, "mfu"),
])
def test_bad_distribution_names_the_input(scenario, ranges, exc, text):
    name = next(iter(ranges))
    with pytest.raises(exc) as info:
        tco.draw(ranges, 10)
    assert text in str(info.value) and info.value.param == name
    with pytest.raises(exc):
        tco.monte_carlo(*scenario, ranges, samples=10)


def test_monte_carlo_refuses(scenario):
    t, w, p = scenario
    with pytest.raises(tco.InconsistentError, match=r"Monte Carlo sample \d+ \(on_demand_per_accel_hour = "):
        # a rate drawn below the reserved one (2.5) is refused, and the sample named
        tco.monte_carlo(t, w, p, {"on_demand_per_accel_hour": tco.uniform(1, 5)}, samples=200)
    with pytest.raises(tco.RangeError, match="samples = 0"):
        tco.monte_carlo(t, w, p, RANGES, samples=0)
    with pytest.raises(tco.RangeError, match="threads"):
        tco.monte_carlo(t, w, p, RANGES, samples=10, threads=-1)
    with pytest.raises(tco.RangeError, match="seed"):
        tco.draw(RANGES, 10, seed=-1)
    with pytest.raises(TypeError, match="kind, parameters"):
        tco.draw({"mfu": 0.4}, 10)
    with pytest.raises(TypeError, match="takes mean, sd"):
        tco.draw({"mfu": ("normal", 0.4)}, 10)


def test_summarise_and_rank_correlation():
    s = tco.summarise([5, 1, 4, 2, 3])
    assert (s.mean, s.min, s.max, s.p50) == (3, 1, 5, 3)
    assert s.sd == pytest.approx(np.std([1, 2, 3, 4, 5], ddof=1), rel=1e-15)
    assert [s.p5, s.p10, s.p90, s.p95] == pytest.approx(np.percentile([1, 2, 3, 4, 5], [5, 10, 90, 95]), rel=1e-15)
    x = [1, 2, 3, 4]
    assert tco.rank_correlation(x, [10, 20, 25, 100]) == 1
    assert tco.rank_correlation(x, [4, 3, 2, 1]) == -1
    assert tco.rank_correlation(x, [7, 7, 7, 7]) == 0
    with pytest.raises(ValueError, match="pairs"):
        tco.rank_correlation(x, x[:3])
    with pytest.raises(tco.RangeError, match="n = 0"):
        tco.summarise([])
    with pytest.raises(tco.NotFiniteError):
        tco.summarise([1, np.nan])
