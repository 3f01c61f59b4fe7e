"""Rates that belong to the accelerator, from Python: a rate left at -1 is
the topology's accelerator's list price (AWS us-east-1, instance price over
its 8 GPUs: p5.48xlarge 55.04 on demand, 31.464 as a Capacity Block;
p6-b200.48xlarge 113.9328), the same in the estimate as the rate typed in,
and refused naming the rate where the accelerator has none."""
import pytest

import tco


def test_list_prices_follow_the_accelerator():
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    assert p.get("on_demand_per_accel_hour") == -1
    assert tco.rate("on_demand_per_accel_hour", t, p) == 55.04 / 8
    assert tco.rate("reserved_per_accel_hour", t, p) == 31.464 / 8
    assert tco.rate("capex_per_accelerator", t, p) == 27500
    b200 = t.replace(accelerator_model="B200")
    assert tco.rate("on_demand_per_accel_hour", b200, p) == 113.9328 / 8
    assert tco.rate("on_demand_per_accel_hour", b200, p.replace(on_demand_per_accel_hour=9)) == 9
    # charged exactly as the rate typed in
    typed = tco.estimate(t, w, p.replace(on_demand_per_accel_hour=55.04 / 8))
    assert tco.estimate(t, w, p).total == typed.total


def test_missing_list_prices_are_named():
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    with pytest.raises(tco.InconsistentError, match="H100-SXM has none") as e:
        tco.rate("spot_per_accel_hour", t, p)
    assert e.value.param == "spot_per_accel_hour"
    with pytest.raises(tco.InconsistentError) as e:
        tco.estimate(t.replace(spot_share=0.25), w, p)
    assert e.value.param == "spot_per_accel_hour"
    with pytest.raises(tco.InconsistentError, match="in USD, but currency = EUR"):
        tco.estimate(t, w, p.replace(currency="EUR"))
    with pytest.raises(ValueError, match="not a rate"):
        tco.rate("pue", t, p)
    with pytest.raises(TypeError):
        tco.rate("spot_per_accel_hour", p, t)
    # the stand-in is the only value below the range
    with pytest.raises(tco.RangeError, match="allowed -1"):
        tco.Pricing(on_demand_per_accel_hour=-0.5)


def test_catalogue_and_help():
    df = tco.accelerators()
    assert df.loc["H100-SXM", "on_demand_per_accel_hour"] == 55.04 / 8
    assert df.loc["H200-SXM", "spot_per_accel_hour"] == 27.1988 / 8
    assert df.loc["custom", "on_demand_per_accel_hour"] == 0
    assert (df.drop("custom")["on_demand_per_accel_hour"] > 0).all()
    assert df["price_source"].str.len().min() > 10
    line = tco.param("on_demand_per_accel_hour").describe()
    assert "default -1: the accelerator's list price; -1, or 0 to 100000" in line
