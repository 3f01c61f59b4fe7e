"""Benchmarks of the Python binding, each against a baseline measured in the
same run: placements priced from numpy (target: a million in under 50 ms,
conversion included), a sweep of 100,000 scenarios (target: under 100 ms),
the per-call overhead of one estimate against the bare cffi call, a field
read and to_dict() against cffi's own struct access, and the
attribution of a million-row DataFrame (target: under 1.5 s, conversion
included) against the same attribution of records already converted.
Medians of several rounds; run it with the binding installed."""
import statistics
import time

import numpy as np

import tco
from tco._native import ffi, lib


def median_time(fn, rounds=7):
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    pools = tco.Pools([dict(price_class=c, accelerators_per_node=8, free_accelerators=1 << 20, rack=i, zone=i % 3,
                            region=0, rate_per_accel_hour=r, interruptions_per_node_hour=0.01 if c == "spot" else 0)
                       for i, (c, r) in enumerate([("on_demand", 4.0), ("reserved", 2.5), ("spot", 2.0)] * 4)])
    rng = np.random.default_rng(0)
    n = 1_000_000
    jobs = tco.jobs_array(dict(accelerators=rng.choice([8, 16, 32], 1000), interruptible=rng.integers(0, 2, 1000),
                               duration_hours=rng.uniform(1, 48, 1000), comm_share=rng.uniform(0, 1, 1000),
                               checkpoint_bytes=rng.uniform(1e9, 1e12, 1000),
                               traffic_gb_per_accel_hour=rng.uniform(0, 50, 1000),
                               delay_cost_per_hour=rng.uniform(0, 10, 1000)))
    job = rng.integers(0, 1000, n)
    pool = rng.integers(0, 12, (n, 2))
    acc = np.stack([jobs["accelerators"][job] // 2] * 2, axis=1)
    # as a scheduler holds them: int64 from numpy, converted by the call
    batch = median_time(lambda: tco.price_placements(pools, t, p, jobs, job, pool, acc))
    one_core = median_time(lambda: tco.price_placements(pools, t, p, jobs, job, pool, acc, threads=1))
    copy = median_time(lambda: (job.astype(np.int32), pool.astype(np.int32), acc.astype(np.int32),
                                np.empty(n), np.empty(n), np.empty(n, np.int32)))
    print(f"placements: {n:,} priced from numpy in {batch * 1e3:.1f} ms on the machine's cores, "
          f"{one_core * 1e3:.1f} ms on one, conversion included (target 50 ms); the conversions and "
          f"outputs alone {copy * 1e3:.1f} ms: ratios {batch / copy:.1f} and {one_core / copy:.1f}")

    x = np.linspace(0.2, 0.7, 100_000)
    sweep = median_time(lambda: tco.sweep(t, w, p, mfu=x))
    out = ffi.new("tco_estimate[]", 4096)
    status = ffi.new("int32_t[]", 4096)
    err = ffi.new("tco_error *")
    err.size = ffi.sizeof("tco_error")
    # The same 100,000 estimates as a loop in C (no keys: the scenario itself).
    c_loop = median_time(lambda: [lib.tco_estimate_sweep(out, ffi.sizeof("tco_estimate"), status, 4096, ffi.NULL, 0,
                                                         ffi.NULL, t._ptr, w._ptr, p._ptr, err) for _ in range(25)])
    print(f"sweep: 100,000 scenarios over mfu in {sweep * 1e3:.1f} ms (target 100 ms); "
          f"102,400 estimates looped in C {c_loop * 1e3:.1f} ms: ratio {sweep / c_loop:.2f} "
          f"({c_loop / 102_400 * 100_000 / sweep:.0%} of the sweep's time in C)")

    calls = 20_000
    py = median_time(lambda: [tco.estimate(t, w, p) for _ in range(calls)], rounds=5) / calls
    raw = ffi.new("tco_estimate *")
    raw.size = ffi.sizeof("tco_estimate")
    cffi_call = median_time(lambda: [lib.tco_estimate_compute(raw, t._ptr, w._ptr, p._ptr, err)
                                     for _ in range(calls)], rounds=5) / calls
    in_c = c_loop / 102_400
    print(f"one estimate: {py * 1e6:.2f} us through tco.estimate() (target 1.2 us); the bare cffi call "
          f"{cffi_call * 1e6:.2f} us: ratio {py / cffi_call:.2f}; in C {in_c * 1e9:.0f} ns")
    e = tco.estimate(t, w, p)
    read = median_time(lambda: [e.total for _ in range(calls)], rounds=5) / calls
    raw_read = median_time(lambda: [raw.total for _ in range(calls)], rounds=5) / calls
    whole = median_time(lambda: [e.to_dict() for _ in range(2000)], rounds=5) / 2000
    unpack = median_time(lambda: [ffi.unpack(ffi.cast("double *", raw), ffi.sizeof("tco_estimate") // 8)
                                  for _ in range(2000)], rounds=5) / 2000
    print(f"an estimate's field read in {read * 1e9:.0f} ns (target 150); the cffi struct's own {raw_read * 1e9:.0f} "
          f"ns: ratio {read / raw_read:.1f}")
    print(f"to_dict() in {whole * 1e6:.1f} us (target 10); unpacking the struct's words alone "
          f"{unpack * 1e6:.1f} us: ratio {whole / unpack:.1f}")

    pd = __import__("pandas")
    start = pd.Timestamp("2026-11-01", tz="UTC") + pd.to_timedelta(rng.uniform(0, 29 * 86400, n), unit="s")
    df = pd.DataFrame({"start": start, "end": start + pd.to_timedelta(rng.uniform(60, 86400, n), unit="s"),
                       "accelerators": rng.choice([1.0, 8.0, 64.0], n), "utilisation": rng.uniform(0, 1, n)})
    for k in range(5):  # 5 tag keys, 1,000 distinct values in all
        df[f"tag.key{k}"] = pd.Series(rng.integers(0, 200, n)).map(lambda v, k=k: f"k{k}-{v}")
    cluster = tco.Topology(accelerators=1 << 16)
    period = ("2026-11-01", "2026-12-01")
    whole = median_time(lambda: tco.attribute(tco.from_pandas(df), cluster, w, p, by="key0", period=period), rounds=5)
    records = tco.from_pandas(df)
    core = median_time(lambda: tco.attribute(records, cluster, w, p, by="key0", period=period), rounds=5)
    print(f"attribution: {n:,} DataFrame rows (5 tag keys) by one key in {whole * 1e3:.0f} ms, conversion "
          f"included (target 1,500 ms); of converted records {core * 1e3:.0f} ms: ratio {whole / core:.1f}")


if __name__ == "__main__":
    main()
