"""The inputs of libtco 1.1 through Python: the run as published runs report
it (recomputation, utilisation or accelerator-hours as the input, the
model's shape), the flags that say what the estimate assumed, and the
library's errors for a shape that cannot be. Expectations are re-derived
from the formulas of doc/model.md (tests/api/test_fidelity.c does the same
in C)."""
import pytest

import tco
from tco._native import ffi, lib


def test_full_recompute_without_shape_is_8n(scenario):
    # layers 0 (the default): no attention term, so per token 6 N model FLOPs
    # and, recomputing every layer (one more forward pass), 8 N hardware FLOPs
    # (Narayanan et al. 2021, eq. 3).
    t, w, p = scenario
    assert w.layers == 0
    e = tco.estimate(t, w.replace(recompute="full"), p)
    assert e.model_flops_per_token == pytest.approx(6 * w.params_total, rel=1e-15)
    assert e.hardware_flops_per_token == pytest.approx(8 * w.params_total, rel=1e-15)
    assert e.attention_term_layers == 0 and e.attention_term_width == 0
    # mfu 0.4 on model FLOPs sets the time: the hardware runs at 0.4 x 8/6.
    assert e.achieved_mfu == pytest.approx(0.4, rel=1e-14)
    assert e.achieved_hfu == pytest.approx(0.4 * 8 / 6, rel=1e-14)
    assert "attention_omitted" in e.assumptions and "time_from_mfu" in e.assumptions


def test_run_accelerator_hours_give_back_the_mfu(scenario):
    t, w, p = scenario
    from_mfu = tco.estimate(t, w, p)
    hours = from_mfu.job_accelerators * from_mfu.wall_hours
    # mfu is not used once the hours are given: the hours win.
    from_hours = tco.estimate(t, w.replace(run_accelerator_hours=hours, mfu=0.9), p)
    assert from_hours.achieved_mfu == pytest.approx(0.4, rel=1e-12)
    assert from_hours.wall_hours == pytest.approx(from_mfu.wall_hours, rel=1e-12)
    assert from_hours.compute_hours == pytest.approx(from_mfu.compute_hours, rel=1e-12)
    assert "time_from_run_accelerator_hours" in from_hours.assumptions
    assert "time_from_mfu" not in from_hours.assumptions
    assert "time_from_mfu" in from_mfu.assumptions
    assert from_hours.flags & lib.TCO_FLAG_TIME_FROM_RUN_ACCELERATOR_HOURS


def test_too_few_accelerator_hours_name_the_input(scenario):
    t, w, p = scenario
    e = tco.estimate(t, w, p)
    with pytest.raises(tco.InconsistentError) as info:  # MFU 0.4 / 0.3 = 1.3 needed
        tco.estimate(t, w.replace(run_accelerator_hours=0.3 * e.job_accelerators * e.wall_hours), p)
    assert info.value.param == "run_accelerator_hours"


def test_kv_heads_must_divide_heads():
    with pytest.raises(tco.InconsistentError) as info:
        tco.Workload(heads=64, kv_heads=12)
    assert info.value.param == "kv_heads"
    assert "kv_heads" in str(info.value) and "heads = 64" in str(info.value)
    assert isinstance(info.value, ValueError)
    assert tco.Workload(heads=64, kv_heads=8).kv_heads == 8  # 8 groups of 8: fine


def test_assumptions_are_the_librarys_names(scenario):
    t, w, p = scenario
    e = tco.estimate(t, w, p)
    names = [ffi.string(lib.tco_estimate_flag_name(1 << i)).decode() for i in range(64) if e.flags >> i & 1]
    assert e.assumptions == names
    assert {"attention_omitted", "time_from_mfu"} <= set(e.assumptions)
    # The shape given: the attention term is counted, its width derived if not given.
    shaped = tco.estimate(t, w.replace(layers=80), p)
    assert "attention_omitted" not in shaped.assumptions and "hidden_derived" in shaped.assumptions
    # Every name the library knows, in bit order, with its description.
    known = [(1 << i, lib.tco_estimate_flag_name(1 << i)) for i in range(64)]
    known = [(bit, ffi.string(n).decode()) for bit, n in known if n != ffi.NULL]
    assert list(tco.ESTIMATE_FLAGS) == [n for _, n in known]
    for bit, name in known:
        assert tco.ESTIMATE_FLAGS[name] == ffi.string(lib.tco_estimate_flag_description(bit)).decode() != ""
    assert lib.tco_estimate_flag_name(0) == ffi.NULL and lib.tco_estimate_flag_name(3) == ffi.NULL
    with pytest.raises(AttributeError):
        e.assumptions = []  # read-only, like every field
    assert "flags" in e.to_dict() and "assumptions" not in e.to_dict()


def test_what_if_switches_and_sweeps(scenario):
    t, w, p = scenario
    e = tco.estimate(t, w.replace(count_failures=0), p)
    assert e.expected_failures == 0 and e.lost_work_hours == 0 and e.restart_hours == 0
    assert "failures_off" in e.assumptions
    # A sweep keeps the flags of each variation, as the single estimate does.
    s = tco.sweep(t, w, p, count_failures=[1, 0])
    assert s["flags"].tolist() == [tco.estimate(t, w, p).flags, e.flags]


def test_intra_node_link_bounds_the_layout(scenario):
    # With the shape given, tensor parallelism (8 in a node) exchanges
    # activations over the intra-node link: a slower link exposes more of it.
    t, w, p = scenario
    w = w.replace(layers=80, hidden_size=8192)
    fast = tco.estimate(t, w, p)
    slow = tco.estimate(t.replace(intra_node_gbps=50), w, p)
    assert slow.comm_exposed_share > fast.comm_exposed_share > 0
    assert slow.mfu_ceiling < fast.mfu_ceiling
    assert "mfu_above_ceiling" in slow.assumptions and "mfu_above_ceiling" not in fast.assumptions
    assert slow.total == fast.total  # mfu still sets the time: the ceiling is a warning
