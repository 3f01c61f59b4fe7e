"""Serving from Python: the fleet as the C library gives it (the same
hand-worked values as tests/api/test_serving.c), the DataFrame and the
plot of a day, and bad input refused with the library's error naming the
field."""
import math

import numpy as np
import pytest
from matplotlib.axes import Axes

import tco

# A custom accelerator of round figures (1e15 FLOP/s, 100 GB, 2e12 B/s), a
# 10B dense model of 40 layers, width 4096, 32 heads, 8 KV heads, in BF16.
HAND = dict(prompt_tokens=1000, output_tokens=200, time_per_output_token=0.05, flops_share=0.5,
            bandwidth_share=1, memory_bandwidth_bytes_per_s=2e12)


@pytest.fixture
def hand():
    t = tco.Topology(accelerator_model="custom", accelerator_peak_flops=1e15, accelerator_memory_bytes=100e9,
                     accelerator_tdp_watts=700)
    w = tco.Workload(params_total=10e9, params_active=0, layers=40, hidden_size=4096, heads=32, kv_heads=8,
                     interruptible_share=0)
    p = tco.Pricing(reserved_per_accel_hour=2.5, on_demand_per_accel_hour=4, spot_per_accel_hour=2)
    return t, w, p


def test_replica_and_fleet_hand_worked(hand):
    # doc/model.md, "Serving": a = 0.01 s, b = 9.0112e-5 s, d = 2.016384e-4 s;
    # the latency allows floor(0.04 / (b + d)) = 137 sequences; TPOT(137) =
    # 0.0499698048 s; 137 / TPOT / 200 = 13.708278 requests/s a replica.
    s = tco.serve(*hand, requests_per_second=[100, 27, 13, 0, 200], interval_seconds=3600, tensor_parallel=1,
                  **HAND)
    assert s.tensor_parallel == 1 and s.batch == 137 and s.batch_limit_name == "latency"
    assert s.max_batch_memory == 356 and s.kv_bytes_per_token == 163840 and s.weight_bytes == 2e10
    assert s.prefill_seconds == pytest.approx(0.04032768, rel=1e-14)
    assert s.time_per_output_token == pytest.approx(0.0499698048, rel=1e-14)
    assert s.min_time_per_output_token == pytest.approx(0.0102917504, rel=1e-14)
    assert s.replica_requests_per_second == pytest.approx(13.708278484209726, rel=1e-13)
    # 8, 2, 1, 0 and 15 accelerators; the baseline 1: 12.5 fixed + 22 x 4 elastic
    assert s.needed.tolist() == [8, 2, 1, 0, 15]
    assert s.fixed_accelerators == 1 and s.fixed_cost == 12.5 and s.elastic_cost == 88 and s.total_cost == 100.5
    assert s.output_tokens == 244.8e6 and s.prompt_tokens == 1224e6
    assert s.cost_per_million_output_tokens == pytest.approx(100.5 / 244.8, rel=1e-15)
    assert s.cost_per_million_tokens == pytest.approx(100.5 / 1468.8, rel=1e-15)
    # the whole split, and tco.capacity_split of the accelerators agrees
    direct = tco.capacity_split(s.needed, 1, *hand)
    assert s.split.to_dict() == direct.to_dict()
    # the same traffic counted in output tokens
    by_tokens = tco.serve(*hand, tokens_per_second=np.array([100, 27, 13, 0, 200]) * 200, interval_seconds=3600,
                          tensor_parallel=1, **HAND)
    assert by_tokens.needed.tolist() == s.needed.tolist() and by_tokens.total_cost == 100.5


def test_a_day_as_a_dataframe_and_a_plot(hand):
    minutes = np.arange(1440)
    rate = 60 + 50 * np.sin(2 * math.pi * minutes / 1440)
    s = tco.serve(*hand, requests_per_second=rate, tensor_parallel=1, **HAND)
    df = s.to_pandas()
    assert len(df) == 1440 and list(df.columns) == ["requests_per_second", "accelerators", "fixed", "elastic"]
    assert df.index[1] == pytest.approx(1 / 60) and df.index[-1] == pytest.approx(1439 / 60)
    assert (df["accelerators"] == np.ceil(rate / s.replica_requests_per_second)).all()
    assert (df["fixed"] + df["elastic"] == df["accelerators"]).all()
    assert df["accelerators"].max() == s.peak_accelerators
    assert 0 < s.fixed_accelerators < s.peak_accelerators
    assert isinstance(s.plot(), Axes)
    assert "batch_limit" in s.to_dict()


def test_catalogue_has_bandwidth():
    df = tco.accelerators()
    assert df.loc["H100-SXM", "memory_bandwidth_bytes_per_s"] == 3.35e12
    assert df.loc["H200-SXM", "memory_bandwidth_bytes_per_s"] == 4.8e12
    assert df.loc["B200", "memory_bandwidth_bytes_per_s"] == 8e12
    assert df.loc["A100-SXM-80GB", "memory_bandwidth_bytes_per_s"] == 2.039e12
    assert df.loc["MI300X", "memory_bandwidth_bytes_per_s"] == 5.3e12
    assert df.loc["custom", "memory_bandwidth_bytes_per_s"] == 0


def test_latency_below_reach_refused(hand):
    with pytest.raises(tco.InconsistentError) as e:
        tco.serve(*hand, requests_per_second=[1], tensor_parallel=1, **{**HAND, "time_per_output_token": 0.01})
    assert e.value.param == "request.time_per_output_token"
    assert "0.0102918 s" in str(e.value)
    with pytest.raises(tco.InconsistentError) as e:
        tco.serve(*hand, requests_per_second=[1], tensor_parallel=1, **{**HAND, "time_to_first_token": 0.04})
    assert e.value.param == "request.time_to_first_token"


@pytest.mark.parametrize("field, value, error", [
    ("time_per_output_token", float("nan"), tco.NotFiniteError),
    ("time_per_output_token", 0, tco.RangeError),
    ("prompt_tokens", -1, tco.RangeError),
    ("output_tokens", float("inf"), tco.NotFiniteError),
    ("flops_share", 1.5, tco.RangeError),
    ("bandwidth_share", 0, tco.RangeError),
    ("memory_share", -0.1, tco.RangeError),
    ("max_batch", 2.5, tco.RangeError),
    ("memory_bandwidth_bytes_per_s", 1e300, tco.RangeError),
])
def test_bad_fields(hand, field, value, error):
    with pytest.raises(error) as e:
        tco.serve(*hand, requests_per_second=[1, 2], tensor_parallel=1, **{**HAND, field: value})
    assert e.value.param == "request." + field


def test_opt_in_refinements_hand_worked(hand):
    # the same hand-worked values as tests/api/test_serving.c: two ring
    # all-reduces a layer, 655,360 B a token at 450 GB/s, on a replica of 2
    ar = tco.serve(*hand, requests_per_second=[10], tensor_parallel=2, tensor_parallel_allreduce=True,
                   **{**HAND, "time_per_output_token": 0.03})
    assert ar.batch == 161 and ar.allreduce_seconds == pytest.approx(161 * 655360 / 450e9, rel=1e-14)
    # 64 experts, 2 a token, 0.7B of 10B active: 58.45 experts read at batch 77
    t, w, p = hand
    moe = tco.serve(t, w.replace(params_active=0.7e9), p, requests_per_second=[10], tensor_parallel=1,
                    experts=64, experts_per_token=2, **{**HAND, "time_per_output_token": 0.02})
    assert moe.batch == 77 and moe.experts_read == pytest.approx(58.44758308504198, rel=1e-13)
    # one slot (M/M/1), t = S: rho e^(rho - 1) = 1/2, rho = W(e / 2) = 0.68507694
    S = 200 * 0.0102917504
    one = dict(HAND, max_batch=1, time_to_first_token=0.04032768 + S)
    q = tco.serve(*hand, requests_per_second=[1], tensor_parallel=1, queue_percentile=0.5, **one)
    assert q.utilisation == pytest.approx(0.6850769421545939, rel=1e-12)
    assert q.needed.tolist() == [4]
    full = tco.serve(*hand, requests_per_second=[1], tensor_parallel=1, **one)
    assert full.utilisation == 1 and full.needed.tolist() == [3] and full.queue_wait_seconds == 0


@pytest.mark.parametrize("field,value,error,named", [
    ("queue_percentile", 1, tco.RangeError, "request.queue_percentile"),
    ("queue_percentile", float("nan"), tco.NotFiniteError, "request.queue_percentile"),
    ("experts", 1, tco.RangeError, "request.experts"),
    ("experts_per_token", 1, tco.RangeError, "request.experts_per_token"),
])
def test_bad_opt_in_fields(hand, field, value, error, named):
    with pytest.raises(error) as e:
        tco.serve(*hand, requests_per_second=[1, 2], tensor_parallel=1,
                  **{**HAND, "time_to_first_token": 1, field: value})
    assert e.value.param == named
    with pytest.raises(tco.InconsistentError) as e:
        tco.serve(*hand, requests_per_second=[1], tensor_parallel=16, tensor_parallel_allreduce=True, **HAND)
    assert e.value.param == "request.tensor_parallel_allreduce"
    with pytest.raises(tco.ParameterTypeError):
        tco.serve(*hand, requests_per_second=[1], tensor_parallel_allreduce=1, **HAND)


def test_bad_series_and_types(hand):
    with pytest.raises(tco.NotFiniteError, match=r"request\.rate\[1\]"):
        tco.serve(*hand, requests_per_second=[1, float("nan")], **HAND)
    with pytest.raises(tco.RangeError, match=r"request\.rate\[0\] = -1"):
        tco.serve(*hand, requests_per_second=[-1], **HAND)
    with pytest.raises(tco.RangeError, match="empty"):
        tco.serve(*hand, requests_per_second=[], **HAND)
    with pytest.raises(tco.RangeError) as e:
        tco.serve(*hand, requests_per_second=[1e300], **HAND)
    assert e.value.param == "request.rate"
    with pytest.raises(tco.RangeError) as e:
        tco.serve(*hand, requests_per_second=[1], interval_seconds=0, **HAND)
    assert e.value.param == "request.interval_seconds"
    with pytest.raises(tco.ParameterTypeError):
        tco.serve(*hand, requests_per_second=["a"], **HAND)
    with pytest.raises(tco.ParameterTypeError):
        tco.serve(*hand, requests_per_second=[True], **HAND)
    with pytest.raises(tco.ParameterTypeError):
        tco.serve(*hand, requests_per_second=[1], **{**HAND, "prompt_tokens": "1000"})
    with pytest.raises(tco.ParameterTypeError):
        tco.serve(*hand, requests_per_second=[1], tensor_parallel=1.5, **HAND)
    with pytest.raises(tco.ParameterTypeError):
        tco.serve(*hand, requests_per_second=[1], tensor_parallel=True, **HAND)
    with pytest.raises(tco.RangeError) as e:
        tco.serve(*hand, requests_per_second=[1], tensor_parallel=-1, **HAND)
    assert e.value.param == "request.tensor_parallel"
    with pytest.raises(TypeError):
        tco.serve(*hand, **HAND)
    with pytest.raises(TypeError):
        tco.serve(*hand, requests_per_second=[1], tokens_per_second=[1], **HAND)
    with pytest.raises(TypeError):
        tco.serve(*hand, requests_per_second=[1], latency=1)
    with pytest.raises(TypeError):
        tco.serve(hand[0], hand[2], hand[1], requests_per_second=[1])
    # the custom accelerator needs a bandwidth; a model needs its layers
    with pytest.raises(tco.InconsistentError) as e:
        tco.serve(*hand, requests_per_second=[1], **{**HAND, "memory_bandwidth_bytes_per_s": 0})
    assert e.value.param == "request.memory_bandwidth_bytes_per_s"
    with pytest.raises(tco.InconsistentError) as e:
        tco.serve(tco.Topology(), tco.Workload(), tco.Pricing(), requests_per_second=[1])
    assert e.value.param == "layers"


def test_monotone(hand):
    rng = np.random.default_rng(7)
    rate = rng.uniform(0, 500, 400)
    fewer = False
    for target in (0.011, 0.02, 0.05, 0.2):
        a = tco.serve(*hand, requests_per_second=rate, **{**HAND, "time_per_output_token": target})
        more = tco.serve(*hand, requests_per_second=rate * 1.3, **{**HAND, "time_per_output_token": target})
        looser = tco.serve(*hand, requests_per_second=rate, **{**HAND, "time_per_output_token": target * 2})
        assert (more.needed >= a.needed).all()
        assert (looser.needed <= a.needed).all()
        fewer |= looser.needed.sum() < a.needed.sum()
    assert fewer  # the targets do change the fleet (until max_batch bounds it)
