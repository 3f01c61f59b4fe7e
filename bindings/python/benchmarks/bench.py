"""Benchmarks of the Python binding, each against a baseline measured in the
same run: placements priced from numpy (target: a million in under 50 ms,
conversion included) against the conversions alone and against the same
batch priced by one C call (target: 80% of the time in C), a sweep of
100,000 scenarios (target: under 100 ms, 80% of it in C) against the same
sweep in one C call, the per-call overhead of one estimate against the
bare cffi call, a field read and to_dict() against cffi's own struct
access, and the attribution of a million-row DataFrame (target: under
1.5 s, conversion included) against the same attribution of records
already converted. Medians of several rounds; a call on one thread and
its baseline alternate round by round, so that both see the same machine,
and are timed by the processor time they take. Run it with the binding
installed."""
import statistics
import time

import numpy as np

import tco
from tco._native import ffi, lib
from tco.sweep import ESTIMATE_DTYPE


def median_time(fn, rounds=7, clock=time.perf_counter):
    times = []
    for _ in range(rounds):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times)


def paired(fn, baseline, rounds=9):
    """fn and baseline, each on one thread, in alternating rounds: their
    median times and the median of the ratio of each pair of rounds. The
    times are the process's processor time, which other work on a shared
    machine disturbs less than the wall clock."""
    times, base, ratios = [], [], []
    for _ in range(rounds):
        t0 = time.process_time()
        fn()
        t1 = time.process_time()
        baseline()
        t2 = time.process_time()
        times.append(t1 - t0)
        base.append(t2 - t1)
        ratios.append((t1 - t0) / (t2 - t1))
    return statistics.median(times), statistics.median(base), statistics.median(ratios)


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
    copy = median_time(lambda: (job.astype(np.int32), pool.astype(np.int32), acc.astype(np.int32),
                                np.empty(n), np.empty(n), np.empty(n, np.int32)))
    print(f"placements: {n:,} priced from numpy in {batch * 1e3:.1f} ms on the machine's cores, conversion "
          f"included (target 50 ms); the conversions and outputs alone {copy * 1e3:.1f} ms: ratio {batch / copy:.1f}")
    # On one core, against the same batch by one C call on the arrays
    # already converted, into new arrays (as price_placements returns
    # them) and into arrays written before: the share of the time in C.
    c_job, c_pool, c_acc = (np.ascontiguousarray(a, dtype=np.int32) for a in (job, pool, acc))
    c_batch = ffi.new("tco_placement_batch *")
    c_batch.size, c_batch.count, c_batch.max_parts = ffi.sizeof("tco_placement_batch"), n, 2
    c_batch.job, c_batch.pool, c_batch.accelerators = (ffi.from_buffer("int32_t[]", a) for a in (c_job, c_pool, c_acc))
    c_jobs, err = ffi.from_buffer("tco_job[]", jobs), ffi.new("tco_error *")
    err.size = ffi.sizeof("tco_error")

    def c_batch_into(cost, done, status):
        return lib.tco_placement_price_batch(ffi.from_buffer("double[]", cost), ffi.from_buffer("double[]", done),
                                             ffi.from_buffer("int32_t[]", status), pools._ptr, t._ptr, p._ptr,
                                             c_jobs, len(jobs), c_batch, err)
    outputs = (np.empty(n), np.empty(n), np.empty(n, np.int32))
    c_batch_into(*outputs)
    one_core, new, ratio = paired(lambda: tco.price_placements(pools, t, p, jobs, job, pool, acc, threads=1),
                                  lambda: c_batch_into(np.empty(n), np.empty(n), np.empty(n, np.int32)))
    _, written, ratio_written = paired(lambda: tco.price_placements(pools, t, p, jobs, job, pool, acc, threads=1),
                                       lambda: c_batch_into(*outputs))
    print(f"placements on one core: {one_core * 1e3:.1f} ms, conversion included; the same batch by one C call "
          f"{new * 1e3:.1f} ms into new arrays: ratio {ratio:.2f} ({1 / ratio:.0%} of the time in C; target 80%); "
          f"{written * 1e3:.1f} ms into arrays written before: ratio {ratio_written:.2f} ({1 / ratio_written:.0%})")

    x = np.linspace(0.2, 0.7, 100_000)
    # The same 100,000 variations by one C call: into a new array, as
    # tco.sweep writes them (the first touch of its 113 MB is part of the
    # call), and into one written before, as tests/bench/bench_estimate.c
    # makes it.
    status, key = np.empty(len(x), np.int32), ffi.new("int32_t[]", [tco.param("mfu").key])

    def c_sweep(rows):
        return lib.tco_estimate_sweep(ffi.from_buffer("tco_estimate[]", rows), rows.itemsize,
                                      ffi.from_buffer("int32_t[]", status), len(x), key, 1,
                                      ffi.from_buffer("double[]", x), t._ptr, w._ptr, p._ptr, err)
    rows = np.empty(len(x), dtype=ESTIMATE_DTYPE)
    c_sweep(rows)
    sweep, new, ratio = paired(lambda: tco.sweep(t, w, p, mfu=x), lambda: c_sweep(np.empty(len(x), ESTIMATE_DTYPE)))
    _, written, ratio_written = paired(lambda: tco.sweep(t, w, p, mfu=x), lambda: c_sweep(rows))
    print(f"sweep: 100,000 scenarios over mfu in {sweep * 1e3:.1f} ms (target 100 ms); the same sweep by one C "
          f"call {new * 1e3:.1f} ms into a new array: ratio {ratio:.2f} ({1 / ratio:.0%} of the time in C; "
          f"target 80%); {written * 1e3:.1f} ms into one written before: ratio {ratio_written:.2f} "
          f"({1 / ratio_written:.0%})")
    # One estimate in C: the scenario itself, 4,096 to a call.
    out, out_status = ffi.new("tco_estimate[]", 4096), ffi.new("int32_t[]", 4096)
    c_loop = median_time(lambda: [lib.tco_estimate_sweep(out, ffi.sizeof("tco_estimate"), out_status, 4096, ffi.NULL,
                                                         0, ffi.NULL, t._ptr, w._ptr, p._ptr, err) for _ in range(25)],
                         clock=time.process_time)

    calls = 20_000
    raw = ffi.new("tco_estimate *")
    raw.size = ffi.sizeof("tco_estimate")
    py, cffi_call, ratio = paired(lambda: [tco.estimate(t, w, p) for _ in range(calls)],
                                  lambda: [lib.tco_estimate_compute(raw, t._ptr, w._ptr, p._ptr, err)
                                           for _ in range(calls)])
    print(f"one estimate: {py / calls * 1e6:.2f} us through tco.estimate() (target 1.2 us); the bare cffi call "
          f"{cffi_call / calls * 1e6:.2f} us: ratio {ratio:.2f}; in C {c_loop / 102_400 * 1e9:.0f} ns")
    e = tco.estimate(t, w, p)
    read, raw_read, ratio = paired(lambda: [e.total for _ in range(calls)], lambda: [raw.total for _ in range(calls)])
    print(f"an estimate's field read in {read / calls * 1e9:.0f} ns (target 150); the cffi struct's own "
          f"{raw_read / calls * 1e9:.0f} ns: ratio {ratio:.1f}")
    whole, unpack, ratio = paired(lambda: [e.to_dict() for _ in range(2000)],
                                  lambda: [ffi.unpack(ffi.cast("double *", raw), ffi.sizeof("tco_estimate") // 8)
                                           for _ in range(2000)])
    print(f"to_dict() in {whole / 2000 * 1e6:.1f} us (target 10); unpacking the struct's words alone "
          f"{unpack / 2000 * 1e6:.1f} us: ratio {ratio:.1f}")

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
