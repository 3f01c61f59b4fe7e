"""Scale figures of tco.spark on a local Spark, each against the
single-machine function on the same inputs, measured in the same run:
Monte Carlo samples per second on local[1] and local[2] against
tco.monte_carlo (every core of this machine); usage records per second of
tco.spark.attribute (and tco.spark.find_waste at 10^5) over records read
from Parquet with spark.read.parquet, against pandas.read_parquet +
tco.from_pandas + tco.attribute (tco.find_waste) of the same file, the
bills (and findings) asserted equal. Medians of a few rounds after a
warm-up. One function per workload, main() runs them; the default takes
about six minutes on two cores, --rounds 1 about two and a half; --large
adds 10^7 samples and records (tens of minutes, and the single-machine runs
hold several GB).

    python3 bench_spark.py [--large] [--rounds N]

Needs pyspark and Java 17; the workers run this interpreter."""
import argparse
import functools
import os
import statistics
import sys
import tempfile
import time
import warnings

import numpy as np
import pandas as pd

import tco
import tco.spark

RANGES = {"mfu": tco.triangular(0.3, 0.4, 0.5), "on_demand_per_accel_hour": tco.normal(4, 0.5, lo=3, hi=6),
          "pue": tco.lognormal(1.3, 0.1, lo=1.05, hi=2)}
MASTERS = ("local[1]", "local[2]")
PANDAS_3 = "PySpark does not yet fully support"


def median_time(fn, rounds):
    """The median of rounds timed calls, and the last call's result."""
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def session(master):
    os.environ["PYSPARK_PYTHON"] = sys.executable
    # pyspark 4.0 warns, here and on every worker, that it has not caught up with pandas 3
    os.environ["PYTHONWARNINGS"] = f"ignore:{PANDAS_3}:FutureWarning"
    warnings.filterwarnings("ignore", PANDAS_3, FutureWarning)
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master(master).appName("libtco bench")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", "2").config("spark.driver.memory", "4g").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def report(what, rate, baseline):
    print(f"{what:<40} {rate:>14,.0f}/s   baseline {baseline:>14,.0f}/s   ratio {rate / baseline:6.2f}", flush=True)


def monte_carlo(spark, master, sizes, rounds):
    """Samples per second of tco.spark.monte_carlo, against tco.monte_carlo."""
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    tco.spark.monte_carlo(spark, t, w, p, RANGES, 1000, seed=1)  # warm-up: the workers' Python starts
    for n in sizes:
        base, _ = median_time(lambda: tco.monte_carlo(t, w, p, RANGES, n, seed=1, progress=False), rounds)
        run, _ = median_time(lambda: tco.spark.monte_carlo(spark, t, w, p, RANGES, n, seed=1), rounds)
        report(f"Monte Carlo, {n:.0e} samples, {master}", n / run, n / base)


# ---- usage records ----------------------------------------------------------

T0_US = pd.Timestamp("2026-03-01", tz="UTC").value // 1000
PERIOD = ("2026-03-01T00:00:00Z", "2026-03-29T00:00:00Z")
CLUSTER = (tco.Topology(accelerators=512, owned_share=0.4, reserved_share=0.3), tco.Workload(),
           tco.Pricing(on_demand_per_accel_hour=4, reserved_per_accel_hour=2.5, spot_per_accel_hour=2,
                       capex_per_accelerator=25000))
_DATA = tempfile.TemporaryDirectory(prefix="tco-bench-")  # the "data lake", removed at exit


def _texts(fmt, k):
    return np.array([fmt.format(i) for i in range(k)], dtype=object)


def records(n, seed=7):
    """n usage records, vectorised: four weeks of jobs of ~20 records each
    (overlaps, reruns), skewed teams (some untagged), storage and traffic.
    Times are whole microseconds, what Spark's timestamps hold."""
    rng = np.random.default_rng(seed)
    start = T0_US + rng.integers(0, 28 * 86400 * 10 ** 6, n)
    hours = np.where(rng.random(n) < 0.05, 0.0, rng.exponential(20, n))
    jobs = max(n // 20, 1)
    job = rng.integers(0, jobs, n)
    stored = rng.random(n) < 0.3
    return pd.DataFrame({
        "start": pd.to_datetime(start, unit="us", utc=True),
        "end": pd.to_datetime(start + (hours * 3.6e9).astype(np.int64), unit="us", utc=True),
        "accelerators": rng.integers(1, 33, n).astype(float),
        "utilisation": np.where(rng.random(n) < 0.3, np.nan, rng.random(n)),
        "price_class": np.array(["on_demand", "reserved", "owned"], dtype=object)[rng.integers(0, 3, n)],
        "state": np.array(["completed", "failed", "cancelled", "running"], dtype=object)[
            rng.choice(4, n, p=[0.6, 0.25, 0.1, 0.05])],
        "storage_hot_gb_hours": np.where(stored, rng.uniform(0, 4e5, n), 0.0),
        "traffic_internet_gb": rng.uniform(0, 50, n),
        "tag.team": np.array(["vision", "nlp", "speech", "rl", "ops", None], dtype=object)[
            rng.choice(6, n, p=[0.66, 0.07, 0.07, 0.07, 0.07, 0.06])],
        "tag.project": _texts("p{}", 12)[job % 12],
        "tag.job_id": _texts("j{}", jobs)[job],
        "tag.job_name": _texts("train-{}", max(jobs // 4, 1))[job // 4],
        "tag.user": np.array(["ann", "bob", "cy"], dtype=object)[rng.integers(0, 3, n)]})


@functools.lru_cache(maxsize=None)
def parquet(n):
    """n records written once to Parquet, in row groups of 50,000 so that
    Spark can split the file over its cores as it would a data lake's."""
    path = os.path.join(_DATA.name, f"records-{n}.parquet")
    records(n).to_parquet(path, row_group_size=50_000)
    return path


def single_machine(path, fn, **kw):
    return fn(tco.from_pandas(pd.read_parquet(path)), *CLUSTER, period=PERIOD, **kw)


def attribution(spark, master, sizes, rounds):
    """Records per second of tco.spark.attribute over spark.read.parquet,
    against pandas.read_parquet + tco.from_pandas + tco.attribute."""
    tco.spark.attribute(spark.read.parquet(parquet(10 ** 4)), *CLUSTER, by="team", period=PERIOD)  # warm-up
    for n in sizes:
        path = parquet(n)
        base, want = median_time(lambda: single_machine(path, tco.attribute, by="team", progress=False),
                                 rounds)
        run, got = median_time(lambda: tco.spark.attribute(spark.read.parquet(path), *CLUSTER, by="team",
                                                           period=PERIOD), rounds)
        assert got.bill == want.bill, (got.bill, want.bill)
        report(f"attribute, {n:.0e} records, {master}", n / run, n / base)


def waste(spark, master, sizes, rounds):
    """Records per second of tco.spark.find_waste (findings collected),
    against tco.find_waste, at 10^5 records."""
    n = 10 ** 5
    path = parquet(n)
    base, want = median_time(lambda: single_machine(path, tco.find_waste, by="team"), rounds)
    run, got = median_time(lambda: tco.spark.find_waste(spark.read.parquet(path), *CLUSTER, by="team",
                                                        period=PERIOD).toPandas(), rounds)
    assert len(got) == len(want.findings) and np.array_equal(np.sort(got["cost"]), np.sort(want.findings["cost"]))
    report(f"find_waste, {n:.0e} records, {master}", n / run, n / base)


WORKLOADS = [monte_carlo, attribution, waste]  # each: (spark, master, sizes, rounds)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--large", action="store_true", help="also 10^7 samples and records")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    sizes = [10 ** 5, 10 ** 6] + ([10 ** 7] if args.large else [])
    print(f"libtco {tco.__version__}, {os.cpu_count()} cores; medians of {args.rounds} rounds")
    for master in MASTERS:
        spark = session(master)
        try:
            for workload in WORKLOADS:
                workload(spark, master, sizes, args.rounds)
        finally:
            spark.stop()


if __name__ == "__main__":
    main()
