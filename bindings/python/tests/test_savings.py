"""tco.tradeoff and tco.tradeoffs: what each saving costs in return
(doc/model.md, section 22), checked against the model worked here from the
estimates the binding itself prices."""
import math

import pytest

import tco


def scenario(**workload):
    return (tco.Topology(), tco.Workload(checkpoint_warm_retention=0, **workload),
            tco.Pricing(spot_per_accel_hour=1.5))


def waste_price(e):
    return e.cost["waste"] / (e.accelerator_hours - e.effective_accelerator_hours)


def test_metrics_interval_hand_worked():
    t, w, p = scenario()
    b = tco.estimate(t, w, p)
    a = tco.estimate(t, w.replace(metrics_interval_seconds=60), p)
    r = tco.tradeoff(t, w, p, "metrics_interval", 60)
    hours = b.expected_failures * (60 - 15) / 2 / 3600
    assert r.kind == "metrics_interval" and r.side_effect_unit == "h"
    assert r.saving == pytest.approx(b.total - a.total, rel=1e-12)
    assert r.side_effect == pytest.approx(hours, rel=1e-12)
    assert r.side_effect_cost == pytest.approx(hours * b.job_accelerators * waste_price(b), rel=1e-12)
    assert r.net == pytest.approx(r.saving - r.side_effect_cost)
    assert r.verdict == "worth_it" and not r.flagged


def test_log_retention_flagged_and_side_inputs():
    t, w, p = scenario()
    b = tco.estimate(t, w, p)
    r = tco.tradeoff(t, w, p, "log_retention", 10)
    h = b.expected_failures * 0.5 * (math.exp(-10 / 7) - math.exp(-30 / 7)) * 4
    staff = p.get("staff_per_fte_year") / p.get("staff_hours_per_fte_year")
    assert r.side_effect == pytest.approx(h, rel=1e-12)
    assert r.side_effect_cost == pytest.approx(h * staff, rel=1e-12)
    assert r.flagged and r.verdict == "flagged"
    cheap = tco.tradeoff(t, w, p, "log_retention", 10, staff_cost_per_hour=1)
    assert cheap.side_effect_cost == pytest.approx(h, rel=1e-12) and cheap.verdict == "worth_it"


def test_in_estimate_uses_the_estimates_figures():
    t, w, p = scenario()
    b = tco.estimate(t, w, p)
    a = tco.estimate(t.replace(spot_share=0.5), w, p)
    r = tco.tradeoff(t, w, p, tco.SAVINGS["more_spot"], 0.5)
    assert r.in_estimate
    assert r.side_effect_cost == pytest.approx(a.waste["failures"] - b.waste["failures"], rel=1e-12)
    assert r.net == pytest.approx(b.total - a.total, rel=1e-9)


def test_table_and_plot():
    t, w, p = scenario()
    table = tco.tradeoffs(t, w, p)
    # the kinds the scenario alone can cut: not the baseline or the timeout
    assert [r.kind for r in table] == list(tco.SAVINGS)[:6]
    df = table.to_pandas()
    assert list(df.columns) == list(tco.Tradeoff.COLUMNS) and len(df) == 6
    assert df["flagged"].any() and (df["verdict"] == "worth_it").any()
    one = tco.tradeoff(t, w, p, "checkpoint_interval", table["checkpoint_interval"].new_value)
    assert one.to_dict() == table["checkpoint_interval"].to_dict()
    assert table.plot() is not None


HOURLY = [2, 6, 3, 8, 1]


def baseline_scenario():
    return (tco.Topology(), tco.Workload(interruptible_share=0),
            tco.Pricing(reserved_per_accel_hour=2.5, on_demand_per_accel_hour=4))


def test_smaller_baseline_hand_worked():
    # tests/api/test_savings.c: 83 at 6 reserved, 69 at 2; 7 more
    # accelerators acquired, 0.25 h each, at 10 an accelerator-hour
    t, w, p = baseline_scenario()
    r = tco.tradeoff(t, w, p, "smaller_baseline", 2, demand=HOURLY, baseline=6, wait_cost_per_accelerator_hour=10)
    assert r.total_before == pytest.approx(83, rel=1e-15) and r.total_after == pytest.approx(69, rel=1e-15)
    assert r.saving == pytest.approx(14, rel=1e-14) and r.side_effect == pytest.approx(1.75, rel=1e-15)
    assert r.side_effect_cost == pytest.approx(17.5, rel=1e-15) and r.verdict == "flagged"
    assert r.side_effect_unit == "accelerator-h"


def test_idle_reclaim_hand_worked():
    t, w, p = scenario()
    b = tco.estimate(t, w, p)
    r = tco.tradeoff(t, w, p, "idle_reclaim", 0.5, idle_timeout_hours=1, idle_periods=10)
    more = math.exp(-0.5) - math.exp(-1)
    assert r.saving == pytest.approx(10 * b.job_accelerators * more * waste_price(b), rel=1e-12)
    assert r.side_effect == pytest.approx(10 * b.job_accelerators * more * 0.25, rel=1e-12)
    assert r.verdict == "worth_it"


def test_table_with_a_series_and_a_timeout():
    t, w, p = baseline_scenario()
    table = tco.tradeoffs(t, w, p, demand=HOURLY, baseline=6, idle_timeout_hours=2)
    assert [r.kind for r in table][-2:] == ["smaller_baseline", "idle_reclaim"]
    df = table.to_pandas().set_index("kind")
    assert df.loc["smaller_baseline", "new_value"] == 2 and df.loc["idle_reclaim", "new_value"] == 1
    assert df.loc["smaller_baseline", "saving"] == pytest.approx(14, rel=1e-14)
    assert table.plot() is not None


def test_bad_input():
    t, w, p = scenario()
    with pytest.raises(tco.RangeError) as e:
        tco.tradeoff(t, w, p, "metrics_interval", 5)
    assert e.value.param == "saving.value"
    with pytest.raises(tco.RangeError):
        tco.tradeoff(t, w, p, "no_such_saving", 5)
    with pytest.raises(tco.RangeError):
        tco.tradeoff(t, w, p, 99, 5)
    with pytest.raises(tco.NotFiniteError) as e:
        tco.tradeoff(t, w, p, "log_retention", 10, log_needed_share=float("nan"))
    assert e.value.param == "saving.log_needed_share"
    with pytest.raises(tco.RangeError):
        tco.tradeoffs(t, w, p, replica_availability=0)
    with pytest.raises(TypeError):
        tco.tradeoff(t, w, p, "log_retention", 10, no_such_input=1)
    with pytest.raises(TypeError):
        tco.tradeoff(w, w, p, "log_retention", 10)
    with pytest.raises(tco.InconsistentError) as e:
        tco.tradeoff(t, w, p, "smaller_baseline", 2, baseline=6)
    assert e.value.param == "saving.demand"
    with pytest.raises(tco.RangeError) as e:
        tco.tradeoff(t, w, p, "smaller_baseline", 2, demand=[1, -1], baseline=6)
    with pytest.raises(tco.RangeError) as e:
        tco.tradeoff(t, w, p, "idle_reclaim", 0.5, idle_timeout_hours=1, idle_gap_hours=0)
    assert e.value.param == "saving.idle_gap_hours"
