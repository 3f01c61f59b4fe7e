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
    assert [r.kind for r in table] == list(tco.SAVINGS)
    df = table.to_pandas()
    assert list(df.columns) == list(tco.Tradeoff.COLUMNS) and len(df) == 6
    assert df["flagged"].any() and (df["verdict"] == "worth_it").any()
    one = tco.tradeoff(t, w, p, "checkpoint_interval", table["checkpoint_interval"].new_value)
    assert one.to_dict() == table["checkpoint_interval"].to_dict()
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
