"""Scale figures of tco.spark on a local Spark, each against the
single-machine function on the same inputs, measured in the same run:
Monte Carlo samples per second on local[1] and local[2] against
tco.monte_carlo (every core of this machine). Medians of a few rounds
after a warm-up. One function per workload, main() runs them; --large adds
10^7 samples (minutes, and the single-machine run holds ~7 GB).

    python3 bench_spark.py [--large] [--rounds N]

Needs pyspark and Java 17; the workers run this interpreter."""
import argparse
import os
import statistics
import sys
import time

import tco
import tco.spark

RANGES = {"mfu": tco.triangular(0.3, 0.4, 0.5), "on_demand_per_accel_hour": tco.normal(4, 0.5, lo=3, hi=6),
          "pue": tco.lognormal(1.3, 0.1, lo=1.05, hi=2)}
MASTERS = ("local[1]", "local[2]")


def median_time(fn, rounds):
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def session(master):
    os.environ["PYSPARK_PYTHON"] = sys.executable
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
        base = median_time(lambda: tco.monte_carlo(t, w, p, RANGES, n, seed=1), rounds)
        run = median_time(lambda: tco.spark.monte_carlo(spark, t, w, p, RANGES, n, seed=1), rounds)
        report(f"Monte Carlo, {n:.0e} samples, {master}", n / run, n / base)


WORKLOADS = [monte_carlo]  # each: (spark, master, sizes, rounds)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--large", action="store_true", help="also 10^7 samples")
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
