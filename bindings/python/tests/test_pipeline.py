"""tco.data_pipeline: the data pipeline's cost lines and stall
(doc/model.md, section 23), the same hand-worked values as the C tests."""
import math

import pytest

import tco

WORKED = dict(preprocess_cpu_node_hours_per_tb=2, cpu_node_hour_price=0.5, dedup_kept_share=0.6,
              compression_ratio=0.5, cache_hit_rate=0.25, request_price_per_1000=0.0004,
              internet_ingress_per_gb=0.01, nat_per_gb=0.045, storage_months=3)


def test_worked_lines():
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    e = tco.estimate(t, w, p)
    r = tco.data_pipeline(t, w, p, **WORKED)
    # raw = tokens x bytes_per_token = 8e12 B; prepared = 8e12 x 0.6 x 0.5
    assert r.raw_bytes == pytest.approx(8e12, rel=1e-15)
    assert r.prepared_bytes == pytest.approx(2.4e12, rel=1e-15)
    assert r.preprocess_node_hours == pytest.approx(16) and r.preprocess_cost == pytest.approx(8)
    assert r.storage_gb_months == pytest.approx(7200) and r.storage_cost == pytest.approx(1044, rel=1e-14)
    requests = 3e12 / 16777216  # every token read compressed (4e12 B), 3/4 of it from storage
    assert r.read_requests == pytest.approx(requests, rel=1e-15)
    assert r.request_cost == pytest.approx(requests / 1000 * 0.0004, rel=1e-14)
    assert r.ingress_cost == pytest.approx(80) and r.nat_cost == pytest.approx(360)
    assert r.total == pytest.approx(8 + 1044 + requests / 1000 * 0.0004 + 80 + 360, rel=1e-14)
    steps = e.tokens / 4194304
    assert r.compute_seconds == pytest.approx(e.compute_hours * 3600 / steps, rel=1e-14)
    assert r.fetch_seconds == pytest.approx(8388608 * 0.75 / 100e9, rel=1e-14)
    assert r.stall_share == 0 and r.estimate_data_stall_share == pytest.approx(e.data_stall_share)
    df = r.to_pandas()
    assert list(df.index) == ["preprocessing", "storage", "read_requests", "ingress", "nat"]
    assert df["cost"].sum() == pytest.approx(r.total, rel=1e-14)
    assert df.loc["storage", "unit"] == "GB-month" and df.attrs["currency"] == p.currency


def test_defaults_store_the_dataset_for_the_held_months():
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    e = tco.estimate(t, w, p)
    r = tco.data_pipeline(t, w, p)
    assert r.storage_months == pytest.approx(e.held_hours / 730.5, rel=1e-12)
    assert r.total == pytest.approx(8000 * r.storage_months * 0.145, rel=1e-12)


def test_stall_model_and_feedback():
    w = tco.Workload(bytes_per_token=4000)
    t, p = tco.Topology(), tco.Pricing()
    e = tco.estimate(t, w, p)
    c = e.compute_hours * 3600 / (e.tokens / 4194304)
    t = tco.Topology(storage_hot_gbps=4194304 * 4000 / (4 * c) / 1e9)  # fetch = 4 computes
    assert tco.data_pipeline(t, w, p, cache_hit_rate=0.5).stall_share == pytest.approx(0.5, rel=1e-12)
    assert tco.data_pipeline(t, w, p, cache_hit_rate=0.5, prefetch_depth=0).stall_share == \
        pytest.approx(2 / 3, rel=1e-12)
    assert tco.data_pipeline(t, w, p, cache_hit_rate=0.75, prefetch_depth=1).stall_share == 0
    shares = [tco.data_pipeline(t, w, p, cache_hit_rate=h / 10).stall_share for h in range(11)]
    assert shares == sorted(shares, reverse=True)
    # no cache, prefetched: the estimate's own bandwidth bound, 3c / 4c
    slow = tco.estimate(t, w, p)
    assert tco.data_pipeline(t, w, p).stall_share == pytest.approx(slow.data_stall_share, rel=1e-9)
    assert slow.data_stall_share == pytest.approx(0.75, rel=1e-9)
    # fed back on a fast tier, the estimate prices it as its floor
    r = tco.data_pipeline(t, w, p, cache_hit_rate=0.5)
    fast = tco.Topology()
    fed = tco.estimate(fast, w.replace(data_stall_share=r.stall_share), p)
    assert fed.data_stall_share == pytest.approx(0.5, rel=1e-12)


def test_more_dedup_never_costs_more():
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    totals = [tco.data_pipeline(t, w, p, **{**WORKED, "dedup_kept_share": k / 10}).total for k in range(1, 11)]
    assert totals == sorted(totals)


@pytest.mark.parametrize("field,value,cls", [
    ("dedup_kept_share", 1.2, tco.RangeError),
    ("compression_ratio", 0, tco.RangeError),
    ("cache_hit_rate", math.nan, tco.NotFiniteError),
    ("prefetch_depth", 2.5, tco.RangeError),
    ("raw_bytes", -1, tco.RangeError),
    ("nat_per_gb", math.inf, tco.NotFiniteError),
])
def test_bad_input_names_the_field(field, value, cls):
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    with pytest.raises(cls) as ex:
        tco.data_pipeline(t, w, p, **{field: value})
    assert ex.value.param == "pipeline." + field
    assert "pipeline." + field in str(ex.value)


def test_unknown_input():
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    with pytest.raises(TypeError, match="dedup_share"):
        tco.data_pipeline(t, w, p, dedup_share=0.5)


def test_the_same_lines_inside_the_estimate():
    """The request's values as parameters: each line lands in its category
    of the estimate (doc/model.md, section 23), equal to the request's."""
    values = dict(preprocess_cpu_node_hours_per_tb=2, data_kept_share=0.6, data_compression_ratio=0.5,
                  data_cache_hit_rate=0.25)
    prices = dict(cpu_node_hour_price=0.5, storage_request_per_1000=0.0004, internet_ingress_per_gb=0.01,
                  nat_per_gb=0.045)
    t, w, p = tco.Topology(), tco.Workload(**values), tco.Pricing(**prices)
    base, e = tco.estimate(t, tco.Workload(), tco.Pricing()), tco.estimate(t, w, p)
    r = tco.data_pipeline(t, w, p, **dict(WORKED, storage_months=0))
    assert e.data_stored_bytes == pytest.approx(2.4e12, rel=1e-15) == r.prepared_bytes
    assert e.preprocess_cost == pytest.approx(8, rel=1e-15) == r.preprocess_cost
    assert e.data_ingress_cost == pytest.approx(440, rel=1e-14)
    assert e.storage_request_cost == pytest.approx(r.request_cost, rel=1e-15)
    assert e.cost["network"] - base.cost["network"] == pytest.approx(440, rel=1e-9)
    assert e.wall_hours == base.wall_hours  # the floor still sets the stalls

