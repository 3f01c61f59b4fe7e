"""tco.spark.sweep and tco.spark.monte_carlo on a real local Spark: every
result equal to the single-machine one bit for bit, for several splits, and
the same errors for bad input."""
import os
import stat
import sys

import numpy as np
import pytest

import tco

spark_decide = pytest.importorskip("tco.spark")

RANGES = {"mfu": tco.triangular(0.3, 0.4, 0.5), "on_demand_per_accel_hour": tco.normal(4, 0.5, lo=3, hi=6),
          "spot_per_accel_hour": ("uniform", 1.0, 2.0), "pue": tco.lognormal(1.3, 0.1, lo=1.05, hi=2)}
PARTITIONS = [1, 3, 17]


def bits(bands):
    """Every number of a Bands as bytes: equal bytes, equal bits."""
    summaries = np.array([list(bands[s].to_dict().values()) for s in bands.series])
    return (bands.series, bands.inputs, summaries.tobytes(), np.array(list(bands.correlations.values())).tobytes(),
            bands.samples, bands.seed, bands.currency)


def sweep_bits(s):
    return (s.data.tobytes(), {k: v.tobytes() for k, v in s.inputs.items()},
            None if s.axes is None else {k: v.tobytes() for k, v in s.axes.items()}, s.currency, len(s))


def raised(fn, *args, **kwargs):
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    return type(info.value), str(info.value), getattr(info.value, "param", None)


# ---- Monte Carlo --------------------------------------------------------

@pytest.mark.parametrize("partitions", PARTITIONS)
def test_monte_carlo_is_the_single_machine_run(spark, scenario, partitions):
    # 1001 divides by neither 3 nor 17: ranges of unequal lengths
    one = tco.monte_carlo(*scenario, RANGES, 1001, seed=7)
    many = spark_decide.monte_carlo(spark, *scenario, RANGES, 1001, seed=7, partitions=partitions)
    assert bits(many) == bits(one)
    assert many["total"].sd > 0 and many.correlations["mfu"] < 0  # the inputs did vary


@pytest.mark.parametrize("samples", [1, 2, 5])
def test_monte_carlo_with_fewer_samples_than_partitions(spark, scenario, samples):
    one = tco.monte_carlo(*scenario, RANGES, samples, seed=3)
    assert bits(spark_decide.monte_carlo(spark, *scenario, RANGES, samples, seed=3, partitions=17)) == bits(one)


def test_monte_carlo_by_default_uses_the_contexts_parallelism(spark, scenario):
    ranges = {"capex_per_accelerator": ("triangular", 2e4, 2.5e4, 3.5e4)}
    one = tco.monte_carlo(*scenario, ranges, samples=500, seed=2**64 - 1)
    assert bits(spark_decide.monte_carlo(spark, *scenario, ranges, samples=500, seed=2**64 - 1)) == bits(one)


def test_monte_carlo_seeds_differ(spark, scenario):
    a = spark_decide.monte_carlo(spark, *scenario, RANGES, 300, seed=1, partitions=3)
    b = spark_decide.monte_carlo(spark, *scenario, RANGES, 300, seed=2, partitions=3)
    assert a["total"].mean != b["total"].mean


def test_monte_carlo_without_inputs(spark, scenario):
    one = tco.monte_carlo(*scenario, {}, 40)
    many = spark_decide.monte_carlo(spark, *scenario, {}, 40, partitions=3)
    assert bits(many) == bits(one) and many.correlations == {}


def test_monte_carlo_sample_that_cannot_be_priced(spark):
    # reserved above on-demand (4) is refused: about 1 sample in 60, the
    # first of them not in the first range, and several ranges fail
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing(on_demand_per_accel_hour=4)
    ranges = {"reserved_per_accel_hour": tco.uniform(1, 4.05), "mfu": tco.uniform(0.3, 0.5)}
    want = raised(tco.monte_carlo, t, w, p, ranges, 2000, seed=5)
    assert want[0] is tco.InconsistentError and "Monte Carlo sample" in want[1]
    first = int(want[1].split()[3])
    assert 2000 // 17 < first < 1000
    for partitions in PARTITIONS:
        assert raised(spark_decide.monte_carlo, spark, t, w, p, ranges, 2000, seed=5, partitions=partitions) == want


BAD_MONTE_CARLO = [
    ({"mfu_typo": tco.uniform(0.3, 0.5)}, 100, 0),          # no such parameter
    ({"mfu": tco.uniform(0.6, 0.3)}, 100, 0),               # low above high
    ({"mfu": tco.uniform(0.3, 0.5, lo=-1)}, 100, 0),        # a cut past the parameter's bound
    ({"mfu": tco.triangular(0.5, 0.4, 0.3)}, 100, 0),       # the mode outside
    ({"mfu": tco.uniform(0.3, float("nan"))}, 100, 0),      # not finite
    ({"mfu": tco.normal(0.4, -0.1)}, 100, 0),               # a negative sd
    ({"mfu": ("beta", 1, 2)}, 100, 0),                      # no such distribution
    ({"mfu": ("uniform", 0.3)}, 100, 0),                    # too few parameters
    ({"attention": tco.uniform(0, 1)}, 100, 0),             # a choice, not a number
    ({"mfu": tco.uniform(0.3, 0.5)}, 0, 0),                 # no samples
    ({"mfu": tco.uniform(0.6, 0.3)}, 0, 0),                 # both: the inputs' error first
    ({"mfu": tco.uniform(0.3, 0.5)}, -1, 0),
    ({"mfu": tco.uniform(0.3, 0.5)}, 10.5, 0),
    ({"mfu": tco.uniform(0.3, 0.5)}, 100, -1),
    ([("mfu", tco.uniform(0.3, 0.5))], 100, 0),             # not a dict
]


@pytest.mark.parametrize("ranges, samples, seed", BAD_MONTE_CARLO)
def test_monte_carlo_bad_input_as_on_one_machine(spark, scenario, ranges, samples, seed):
    want = raised(tco.monte_carlo, *scenario, ranges, samples, seed)
    assert raised(spark_decide.monte_carlo, spark, *scenario, ranges, samples, seed, partitions=3) == want


def test_bad_handles_and_partitions(spark, scenario):
    t, w, p = scenario
    assert raised(spark_decide.monte_carlo, spark, w, t, p, RANGES) == raised(tco.monte_carlo, w, t, p, RANGES)
    for bad, kind in ((0, tco.RangeError), (-2, tco.RangeError), (2.0, TypeError), (True, TypeError)):
        with pytest.raises(kind, match="partitions"):
            spark_decide.monte_carlo(spark, t, w, p, RANGES, 10, partitions=bad)
        with pytest.raises(kind, match="partitions"):
            spark_decide.sweep(spark, t, w, p, mfu=[0.3, 0.4], partitions=bad)


# ---- sweeps -------------------------------------------------------------

@pytest.mark.parametrize("partitions", PARTITIONS)
def test_sweep_is_the_single_machine_sweep(spark, scenario, partitions):
    values = dict(mfu=np.linspace(0.3, 0.6, 1001), accelerators=np.arange(1001) * 32 + 512)
    one = tco.sweep(*scenario, **values)
    assert sweep_bits(spark_decide.sweep(spark, *scenario, partitions=partitions, **values)) == sweep_bits(one)


@pytest.mark.parametrize("partitions", PARTITIONS)
def test_grid_sweep(spark, scenario, partitions):
    grid = dict(mfu=np.linspace(0.3, 0.6, 7), accelerators=[512, 1024, 2048, 4096], attention=["full", "causal"])
    one = tco.sweep(*scenario, grid=True, **grid)
    many = spark_decide.sweep(spark, *scenario, grid=True, partitions=partitions, **grid)
    assert sweep_bits(many) == sweep_bits(one)
    assert len(many) == 56 and len(np.unique(many.total)) > 1
    assert many.to_pandas().equals(one.to_pandas())


def test_sweep_broadcast_with_fewer_values_than_partitions(spark, scenario):
    one = tco.sweep(*scenario, mfu=[0.3, 0.45], accelerators=1024)
    assert sweep_bits(spark_decide.sweep(spark, *scenario, partitions=17, mfu=[0.3, 0.45], accelerators=1024)) \
        == sweep_bits(one)
    # by default, the context's parallelism
    assert sweep_bits(spark_decide.sweep(spark, *scenario, mfu=[0.3, 0.45], accelerators=1024)) == sweep_bits(one)


def test_sweep_value_that_cannot_be_priced(spark, scenario):
    mfu = np.linspace(0.3, 0.6, 1000)
    mfu[[700, 900]] = 1.5  # the first bad value is not in the first range
    want = raised(tco.sweep, *scenario, mfu=mfu)
    assert want[0] is tco.RangeError and want[1].startswith("sweep value 700: ")
    for partitions in PARTITIONS:
        assert raised(spark_decide.sweep, spark, *scenario, partitions=partitions, mfu=mfu) == want


BAD_SWEEPS = [
    dict(mfu_typo=[0.3, 0.4]),
    dict(attention=["full", "sparse"]),
    dict(currency=[1, 2]),
    dict(mfu=np.ones((2, 2))),
    dict(mfu=[0.3, 0.4], accelerators=[1, 2, 3]),
    dict(),
]


@pytest.mark.parametrize("arrays", BAD_SWEEPS)
def test_sweep_bad_input_as_on_one_machine(spark, scenario, arrays):
    assert raised(spark_decide.sweep, spark, *scenario, partitions=3, **arrays) == raised(tco.sweep, *scenario,
                                                                                              **arrays)


def test_grid_sweep_bad_input(spark, scenario):
    arrays = dict(mfu=np.ones((2, 2)), accelerators=[512])
    assert raised(spark_decide.sweep, spark, *scenario, True, **arrays) == raised(tco.sweep, *scenario, True,
                                                                                    **arrays)


# ---- the workers ----------------------------------------------------------

def test_scenario_shipped_as_bytes(scenario_1_0):
    from tco.spark import _workers
    back = _workers.scenario_from_bytes(_workers.scenario_bytes(*scenario_1_0))
    assert [h.fingerprint for h in back] == [h.fingerprint for h in scenario_1_0]
    assert [type(h) for h in back] == [tco.Topology, tco.Workload, tco.Pricing]


def test_require_library(spark):
    assert spark_decide.require_library(spark) == tco.__version__


def test_workers_without_the_library(spark, tmp_path):
    # Workers on a Python that has pyspark (from Spark's own path) but not
    # tco: this interpreter without its site-packages.
    from tco.spark import _workers
    python = tmp_path / "python-without-tco"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" -S "$@"\n')
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    sc = spark.sparkContext
    kept = sc.pythonExec
    sc.pythonExec = os.fspath(python)
    try:
        with pytest.raises(tco.Error) as info:
            spark_decide.require_library(spark)
        with pytest.raises(tco.Error) as again:  # a failure is not kept: the next call asks again
            spark_decide.monte_carlo(spark, tco.Topology(), tco.Workload(), tco.Pricing(), RANGES, 10)
    finally:
        sc.pythonExec = kept
    message = str(info.value)
    assert str(again.value) == message
    assert "cannot import tco" in message and "ModuleNotFoundError" in message
    for way in ("wheel", "spark.archives", "--py-files", "every node"):
        assert way in message
    assert (sc.applicationId, os.fspath(python)) not in _workers._READY
    assert spark_decide.require_library(spark) == tco.__version__
