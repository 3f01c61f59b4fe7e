"""Topology, Workload, Pricing: keywords from the library's table, errors
that name the parameter and its range, immutability, freeing in any order."""
import gc
import math

import numpy as np
import pytest

import tco


def test_defaults_are_the_builtin_scenario():
    t, w = tco.Topology(), tco.Workload()
    assert t.accelerators == 1024 and isinstance(t.accelerators, int)
    assert t.accelerator_model == "H100-SXM"
    assert w.params_total == 70e9 and w.mfu == 0.4
    # Since 1.1: the shape is not given, attention is causal, checkpoints are asynchronous.
    assert (w.layers, w.hidden_size, w.seq_len) == (0, 0, 4096)
    assert (w.attention, w.recompute, w.zero_stage) == ("causal", "selective", 1)
    assert w.checkpoint_async is True
    assert tco.Pricing().currency == "USD"


def test_keywords_and_replace():
    t = tco.Topology(accelerators=2048, accelerator_model="B200", cooling="liquid")
    assert (t.accelerators, t.accelerator_model, t.cooling) == (2048, "B200", "liquid")
    u = t.replace(accelerators=4096)
    assert u.accelerators == 4096 and t.accelerators == 2048  # the original is frozen
    assert "accelerators=2048" in repr(t)
    assert t.to_dict()["cooling"] == "liquid"
    assert t.get("pue") == 1.2
    assert t == tco.Topology(accelerators=2048, accelerator_model="B200", cooling="liquid")
    assert t != u and hash(t) == hash(t.fingerprint)


def test_help_comes_from_the_table():
    doc = tco.Workload.__doc__
    assert "mfu" in doc and "0.001 to 1" in doc and "model FLOPs utilisation" in doc
    import inspect
    sig = inspect.signature(tco.Topology.__init__)
    assert sig.parameters["accelerators"].default == 1024
    assert len(tco.params("pricing")) == len([p for p in tco.params() if p.handle == "pricing"])
    p = tco.param("pue")
    assert (p.unit, p.min, p.max, p.handle) == ("1", 1, 3, "topology")


@pytest.mark.parametrize("kwargs, exc, name, text", [
    ({"mfu": 1.5}, tco.RangeError, "mfu", "0.001 to 1"),
    ({"mfu": math.nan}, tco.NotFiniteError, "mfu", "finite"),
    ({"tokens": -1}, tco.RangeError, "tokens", "out of range"),
    ({"layers": 2.5}, tco.RangeError, "layers", "whole number"),
    ({"mfu": "high"}, tco.ParameterTypeError, "mfu", "takes a number"),
    ({"mfu": None}, tco.ParameterTypeError, "mfu", "not NoneType"),
    ({"mfu": np.array([0.3, 0.4])}, tco.ParameterTypeError, "mfu", "tco.sweep"),
    ({"precision": "fp4"}, tco.RangeError, "precision", "bf16, fp8"),
    ({"mfuu": 0.5}, tco.UnknownParameterError, "mfuu", "did you mean 'mfu'"),
    ({"accelerators": 8}, tco.UnknownParameterError, "accelerators", "belongs to the topology"),
])
def test_bad_values_raise_with_name_and_range(kwargs, exc, name, text):
    with pytest.raises(exc) as info:
        tco.Workload(**kwargs)
    assert info.value.param == name
    assert text in str(info.value)
    assert isinstance(info.value, tco.Error)


def test_error_classes_are_also_builtin_ones():
    with pytest.raises(ValueError):
        tco.Workload(mfu=2)
    with pytest.raises(TypeError):
        tco.Workload(mfuu=1)
    with pytest.raises(TypeError):
        tco.Pricing(currency=5)


def test_inconsistent_values_fail_at_freeze():
    with pytest.raises(tco.InconsistentError) as info:
        tco.Topology(accelerators=1020)
    assert info.value.param == "accelerators"
    assert "whole number of nodes" in str(info.value)
    with pytest.raises(tco.InconsistentError):
        tco.Pricing(on_demand_per_accel_hour=2, reserved_per_accel_hour=3)


def test_numpy_scalars_and_bools_are_numbers():
    w = tco.Workload(mfu=np.float32(0.5), layers=np.int64(40), checkpoint_async=True)
    assert w.mfu == 0.5 and w.layers == 40 and w.checkpoint_async is True


def test_freed_in_any_order():
    handles = [tco.Topology(accelerators=8 * (i + 1)) for i in range(50)]
    copies = [h.replace(pue=1.3) for h in handles]
    del handles[::2]
    gc.collect()
    assert all(c.pue == 1.3 for c in copies)
    # One node of 8: a model whose state fits on it (70B does not, even sharded).
    e = tco.estimate(copies[0], tco.Workload(params_total=7e9, tensor_parallel=1, pipeline_parallel=1),
                     tco.Pricing())
    del copies
    gc.collect()
    assert e.total > 0


def test_unknown_attribute():
    with pytest.raises(AttributeError):
        tco.Topology().no_such_thing


def test_names_are_the_librarys(scenario):
    """Handle kinds, parameter types and the scenario format are named by the
    library (tco_handle_kind_name, tco_param_type_name, tco_scenario_format_name)."""
    from tco._native import ffi, lib

    def name(name_of, value):
        return ffi.string(name_of(value)).decode()

    kinds = {tco.Topology: lib.TCO_HANDLE_TOPOLOGY, tco.Workload: lib.TCO_HANDLE_WORKLOAD,
             tco.Pricing: lib.TCO_HANDLE_PRICING}
    for cls, kind in kinds.items():
        assert cls._kind == name(lib.tco_handle_kind_name, kind)
        assert tco.params(cls._kind) and all(p.handle == cls._kind for p in tco.params(cls._kind))
    assert [name(lib.tco_handle_kind_name, k) for k in kinds.values()] == ["topology", "workload", "pricing"]
    err = ffi.new("tco_error *")
    err.size = ffi.sizeof("tco_error")
    for p in tco.params():
        info = ffi.new("tco_param_info *")
        info.size = ffi.sizeof("tco_param_info")
        assert lib.tco_param_info_get(info, p.key, err) == lib.TCO_OK
        assert p.handle == name(lib.tco_handle_kind_name, info.handle)
        assert p.type == name(lib.tco_param_type_name, info.type)
    types = [lib.TCO_TYPE_REAL, lib.TCO_TYPE_INT, lib.TCO_TYPE_BOOL, lib.TCO_TYPE_CHOICE, lib.TCO_TYPE_TEXT]
    assert [name(lib.tco_param_type_name, t) for t in types] == ["real", "int", "bool", "choice", "text"]
    assert {p.type for p in tco.params()} <= {name(lib.tco_param_type_name, t) for t in types}
    doc = tco.to_json(*scenario)
    assert doc["format"] == ffi.string(lib.tco_scenario_format_name()).decode() == "libtco-scenario"
    assert list(doc) == ["format", "version"] + [name(lib.tco_handle_kind_name, k) for k in kinds.values()]
