"""Sweeps and Monte Carlo on Apache Spark: the rows, or the samples, split
into index ranges, one Spark task each, each range priced by the library in
one call (of tco.sweep.CHUNK rows at most a call). The counter-based draws
make sample i a function of (seed, i) alone, so the split changes nothing:
the results equal tco.sweep and tco.monte_carlo bit for bit."""
from functools import partial

import numpy as np

from ..decide import SERIES, Bands, _distribution, _monte_carlo_arguments, _series_places, draw, \
    monte_carlo as _monte_carlo, rank_correlation, summarise
from ..errors import Error, RangeError
from ..handles import check_handles
from ..params import param
from ..sweep import ESTIMATE_DTYPE, VIEW_DTYPE, Sweep, price_in_place, variation_name, variations
from ._workers import require_library, scenario_bytes, scenario_from_bytes

_TOTAL = SERIES.index("total")
_FAILED = -1  # the key of a failure's record: (order, exception)


def _partitions(spark, partitions):
    if partitions is None:
        return spark.sparkContext.defaultParallelism
    if isinstance(partitions, bool) or not isinstance(partitions, (int, np.integer)):
        raise TypeError(f"partitions must be a whole number, not {type(partitions).__name__}")
    if partitions < 1:
        raise RangeError(f"partitions = {partitions}: allowed 1 or more", param="partitions")
    return int(partitions)


def _ranges(n, parts):
    """[first, end) of each of parts ranges of n, as tco_monte_carlo splits
    samples over threads: the first n % parts one longer."""
    return [(c * (n // parts) + min(c, n % parts), (c + 1) * (n // parts) + min(c + 1, n % parts))
            for c in range(parts)]


def _raise_first(failures):
    """The failure the single-machine run meets first (the lowest order)."""
    if failures:
        raise min(failures, key=lambda f: f[0])[1]


# ---- sweeps -------------------------------------------------------------

def _sweep_part(scenario, keys, items):
    """A worker's ranges: each (index, first, rows) priced in place; yields
    (index, the C-layout estimates' bytes, None) or (index, None, error)."""
    t, w, p = scenario_from_bytes(scenario)
    for c, first, rows in items:
        try:
            raw = price_in_place(rows, keys, t, w, p, None, lambda i: variation_name(first + i))
        except Error as e:  # shipped back: the driver raises what tco.sweep would
            yield c, None, e
            continue
        yield c, raw.tobytes(), None


def sweep(spark, topology, workload, pricing, grid=False, *, partitions=None, **arrays):
    """tco.sweep on a Spark cluster: sweep(spark, t, w, p, mfu=np.linspace(0.3, 0.6, 10**6)).

    The same arguments (grid=True for every combination) and the same
    Sweep, bit for bit: the variations are split into partitions index
    ranges (default: the context's defaultParallelism), each priced on an
    executor, and the estimates collected, in order, to the driver. A
    variation out of range raises the error tco.sweep raises."""
    check_handles(topology, workload, pricing)
    keys, inputs, axes, values = variations(grid, arrays)
    parts = _partitions(spark, partitions)
    require_library(spark)
    items = [(c, a, values[a:b]) for c, (a, b) in enumerate(_ranges(len(values), parts))]
    rows = spark.sparkContext.parallelize(items, parts) \
        .mapPartitions(partial(_sweep_part, scenario_bytes(topology, workload, pricing), list(keys))).collect()
    rows.sort(key=lambda r: r[0])
    _raise_first([(c, e) for c, _, e in rows if e is not None])
    raw = np.concatenate([np.frombuffer(b, dtype=ESTIMATE_DTYPE) for _, b, _ in rows])
    return Sweep(inputs, raw.view(VIEW_DTYPE), pricing.currency, axes)


# ---- Monte Carlo --------------------------------------------------------

def _sample_name(names, first, values):
    """The context tco_monte_carlo gives a sample's error (C's %g)."""
    return lambda i: f"Monte Carlo sample {first + i} (" + \
        ", ".join(f"{name} = {v:g}" for name, v in zip(names, values[i])) + ")"


def _draw_and_price(scenario, ranges, seed, items):
    """Stage 1, on a worker: each range (index, first, count) drawn and
    priced; yields (series, (index, its values' bytes)) for every series,
    (len(SERIES) + j, (index, input j's bytes, the total's bytes)) for every
    input, or (_FAILED, ((0, sample), error))."""
    t, w, p = scenario_from_bytes(scenario)
    names = list(ranges)
    keys = [param(name).key for name in names]
    places = _series_places()
    for c, first, count in items:
        x = draw(ranges, count, seed, first)
        failed = []

        def name(i):
            failed.append(first + i)
            return _sample_name(names, first, x)(i)

        try:
            raw = price_in_place(x, keys, t, w, p, None, name)
        except Error as e:
            yield _FAILED, ((0, failed[0] if failed else first), e)
            continue
        flat = raw.view(np.float64).reshape(count, ESTIMATE_DTYPE.itemsize // 8)
        for s, (offset, slot) in enumerate(places):
            yield s, (c, flat[:, offset // 8 + slot].tobytes())
        total = flat[:, places[_TOTAL][0] // 8].tobytes()
        for j in range(len(names)):
            yield len(places) + j, (c, x[:, j].tobytes(), total)


def _summarise_part(parts, pairs):
    """Stage 2, on a worker: each key's chunks joined in sample order and
    summarised (a series) or ranked against the total (an input), as
    tco_monte_carlo does on the whole run; keys short of a chunk (a range
    failed: its error is the answer) are skipped."""
    chunks = {}
    for key, value in pairs:
        if key == _FAILED:
            yield key, value
        else:
            chunks.setdefault(key, []).append(value)
    for key in sorted(chunks):
        got = sorted(chunks.pop(key), key=lambda v: v[0])
        if len(got) != parts:
            continue
        join = [np.frombuffer(b"".join(v[k] for v in got)) for k in range(1, len(got[0]))]
        try:
            yield key, summarise(join[0]) if len(join) == 1 else rank_correlation(join[0], join[1])
        except Error as e:
            yield _FAILED, ((1, key), e)


def monte_carlo(spark, topology, workload, pricing, ranges, samples=10000, seed=0, *, partitions=None):
    """tco.monte_carlo on a Spark cluster: monte_carlo(spark, t, w, p,
    {"mfu": tco.triangular(0.3, 0.4, 0.5)}, samples=10**7, seed=1).

    The same arguments and the same Bands, bit for bit, for any
    partitions: samples 0 .. samples - 1 are split into partitions index
    ranges (default: the context's defaultParallelism), each drawn and
    priced on an executor; then each series is joined in sample order on
    one executor and summarised there, each input ranked against the
    total, and only the summaries come back to the driver. Bad arguments
    and a sample that cannot be priced raise what tco.monte_carlo raises."""
    names, inputs, samples, seed = _monte_carlo_arguments(topology, workload, pricing, ranges, samples, seed)
    if samples == 0:
        return _monte_carlo(topology, workload, pricing, ranges, samples, seed)  # raises the library's refusal
    ranges = {name: _distribution(name, ranges[name]) for name in names}
    draw(ranges, 0, seed)  # the library's checks of the inputs, drawing nothing
    parts = _partitions(spark, partitions)
    require_library(spark)
    sc = spark.sparkContext
    keys = len(SERIES) + len(names)
    items = [(c, a, b - a) for c, (a, b) in enumerate(_ranges(samples, parts))]
    out = sc.parallelize(items, parts) \
        .mapPartitions(partial(_draw_and_price, scenario_bytes(topology, workload, pricing), ranges, seed)) \
        .partitionBy(min(parts, keys)) \
        .mapPartitions(partial(_summarise_part, parts)).collect()
    _raise_first([v for k, v in out if k == _FAILED])
    got = dict(out)
    summaries = {s: got[i] for i, s in enumerate(SERIES)}
    correlations = {name: got[len(SERIES) + j] for j, name in enumerate(names)}
    return Bands(summaries, correlations, samples, seed, pricing.currency)


__all__ = ["sweep", "monte_carlo"]
