"""Capacity from Python: numpy series in, results out, the same as numpy
where numpy answers the same question, and the library's errors."""
import numpy as np
import pytest

import tco


def test_stats_and_percentiles_match_numpy():
    rng = np.random.default_rng(1)
    d = rng.integers(0, 1000, 10_001).astype(float)
    s = tco.demand_stats(d, interval_hours=0.5)
    assert s.peak == d.max() and s.minimum == d.min()
    assert s.mean == pytest.approx(d.mean(), rel=1e-14)
    assert s.accelerator_hours == pytest.approx(d.sum() * 0.5, rel=1e-14)
    q = [0, 12.5, 50, 90, 99.9, 100]
    assert np.allclose(tco.percentiles(d, q), np.percentile(d, q), rtol=0, atol=1e-9)
    assert tco.percentiles(d, 50) == np.percentile(d, 50)
    assert tco.time_above(d, 900, 0.5) == (d > 900).sum() * 0.5
    assert list(tco.time_above(d, [100, 500], 1)) == [(d > 100).sum(), (d > 500).sum()]


def test_capacity_for_unmet_by_brute_force():
    d = np.array([0, 0, 10, 10.0])
    assert tco.capacity_for_unmet(d, 0.1) == pytest.approx(9)  # unmet 2(10 - c) = 2


def test_split_hand_worked_and_plot(scenario):
    t, w, p = scenario
    d = np.array([5, 1, 8, 3, 7, 2, 6, 4.0])
    s = tco.capacity_split(d, 1.0, t, w.replace(interruptible_share=0), p)
    # reserved 2.5 / on demand 4: 5 of 8 points may lie above -> baseline 3
    assert (s.baseline, s.fixed_cost, s.elastic_cost, s.total_cost) == (3, 60, 60, 120)
    assert s.savings_vs_on_demand == 24 and s.savings_vs_peak == 40
    fixed = tco.capacity_split(d, 1.0, t, w.replace(interruptible_share=0), p, baseline=4)
    assert fixed.baseline == 4 and fixed.total_cost >= s.total_cost
    ax = s.plot()
    assert ax.get_ylabel() == "accelerators"
    assert s.to_pandas().loc["baseline", "value"] == 3


def test_series_are_read_without_copy_when_possible():
    d = np.arange(10, dtype=np.float64)
    s = tco.demand_stats(d[::1])
    assert s.peak == 9
    assert tco.demand_stats(list(range(4))).mean == 1.5  # lists are converted


@pytest.mark.parametrize("demand, exc, text", [
    ([1, np.nan], tco.NotFiniteError, "demand[1]"),
    ([1, -2], tco.RangeError, "demand[1] = -2"),
    ([], tco.RangeError, "empty"),
    ([[1, 2]], ValueError, "one-dimensional"),
    (["a"], TypeError, "numbers"),
])
def test_bad_series(demand, exc, text):
    with pytest.raises(exc) as info:
        tco.demand_stats(demand)
    assert text in str(info.value)


def test_bad_percentile_and_interval():
    with pytest.raises(tco.RangeError, match="percentiles"):
        tco.percentiles([1, 2], [101])
    with pytest.raises(tco.RangeError, match="interval_hours"):
        tco.demand_stats([1, 2], interval_hours=0)


def test_bandwidth_lifecycle_logging_budget(scenario):
    t, w, p = scenario
    b = tco.bandwidth(t, w, p)
    assert b.checkpoint_burst_gbps == pytest.approx(980e9 / 30 / 1e9)
    life = tco.lifecycle(t, w, p)
    df = life.to_pandas()
    assert df["cost"].sum() == pytest.approx(life.policy_cost)
    assert life.savings == pytest.approx(life.keep_hot_cost - life.policy_cost)
    logs = tco.logging_compare(t, w.replace(metrics_interval_seconds=5), p, 30, 30)
    assert logs.proposed_samples_per_month == pytest.approx(logs.samples_per_month / 6)
    with pytest.raises(tco.RangeError) as info:
        tco.logging_compare(t, w, p, 0, 30)
    assert info.value.param == "metrics_interval_seconds"
    spend = np.r_[np.full(3, 50e3), np.full(7, 100e3)]
    bud = tco.budget(spend, p, previous=np.full(30, 70e3))
    assert bud.spent == 850e3 and bud.burn_rate_per_day == 100e3
    assert bud.status_name == "ok" and bud.projected_status_name == "critical"
    assert bud.growth == pytest.approx(850 / 700 - 1)


def test_budget_figures_without_a_value_are_none():
    """As LossGain's undefined ratios (doc/model.md, section 11): nothing
    spent never runs out; 10 a day after a previous period of nothing is
    growth from nothing (abnormal), and without a previous period there is
    no growth. Spending 10 a day against 5: growth 10 / 5 - 1 = 1."""
    p = tco.Pricing(budget_amount=1000, budget_period_days=30)
    none = tco.budget([0, 0], p)
    assert none.days_to_exhaustion is None and none.growth is None and none.status_name == "ok"
    assert "exhaustion_defined" not in none.to_dict() and "growth_defined" not in none.to_dict()
    fresh = tco.budget([10, 10], p, previous=[0, 0])
    assert fresh.growth is None and fresh.abnormal_growth == 1
    assert fresh.days_to_exhaustion == (1000 - 20) / 10
    doubled = tco.budget([10, 10], p, previous=[5, 5])
    assert doubled.growth == 1 and doubled.abnormal_growth == 1
    assert not any(isinstance(v, float) and not np.isfinite(v) for v in none.to_dict().values())
