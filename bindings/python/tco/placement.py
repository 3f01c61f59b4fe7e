"""Placement pricing for schedulers: pools of capacity, jobs, and the
expected cost of placing a job, one placement or a whole numpy batch in one
C call (doc/scheduling.md)."""
import numpy as np

from ._native import ffi, lib
from .errors import ParameterTypeError, RangeError, check, new_error, raise_for
from .results import PRICE_CLASSES as _PRICE_CLASS_NAMES, Result

PRICE_CLASSES = {name: i for i, name in enumerate(_PRICE_CLASS_NAMES)}  # "on_demand": 0


def _struct_dtype(ctype):
    """A numpy dtype with the C struct's layout (names, offsets, size)."""
    kinds = {"int32_t": "i4", "double": "f8", "size_t": "u8", "uint64_t": "u8"}
    fields = ffi.typeof(ctype).fields
    return np.dtype({"names": [n for n, _ in fields],
                     "formats": [kinds[f.type.cname] for _, f in fields],
                     "offsets": [f.offset for _, f in fields],
                     "itemsize": ffi.sizeof(ctype)})


JOB_DTYPE = _struct_dtype("tco_job")
_INT64 = np.dtype(np.int64)  # native byte order


def _fill(ctype, values, what):
    """A new C struct from a dict of its fields (size set, the rest zero)."""
    out = ffi.new(f"{ctype} *")
    out.size = ffi.sizeof(ctype)
    names = {n for n, _ in ffi.typeof(ctype).fields} - {"size"}
    for key, value in values.items():
        if key not in names:
            raise TypeError(f"{what} has no field {key!r}: allowed {', '.join(sorted(names))}")
        if isinstance(value, (bool, np.bool_, str, bytes)):  # no silent 1 for True, no text for a number
            raise ParameterTypeError(f"{what}.{key}: expected a number, not {value!r}", param=key)
        try:
            setattr(out, key, value)
        except (TypeError, OverflowError) as e:  # a fraction or a list for an int32, past an int32
            raise ParameterTypeError(f"{what}.{key}: {value!r} does not fit the field: {e}", param=key) from None
    return out


class Pools:
    """Pools of capacity, addressed by their index in the list given."""

    def __init__(self, pools):
        out, err = ffi.new("tco_pools **"), new_error()
        check(lib.tco_pools_new(out, err), err)
        self._ptr = ffi.gc(out[0], lib.tco_pools_free)
        for i, pool in enumerate(pools):
            pool = dict(pool)
            if isinstance(pool.get("price_class"), str):
                if pool["price_class"] not in PRICE_CLASSES:
                    raise ValueError(f"pool {i}: price_class {pool['price_class']!r} is not one of "
                                     f"{', '.join(PRICE_CLASSES)}")
                pool["price_class"] = PRICE_CLASSES[pool["price_class"]]
            c, id_ = _fill("tco_pool", pool, f"pool {i}"), ffi.new("int32_t *")
            check(lib.tco_pools_add(self._ptr, c, id_, err), err, f"pool {i}")
        check(lib.tco_pools_freeze(self._ptr, err), err)

    def __len__(self):
        return lib.tco_pools_count(self._ptr)


class Price(Result):
    """The expected cost of one placement and its parts."""
    _ctype = "tco_price"


def price_placement(pools, topology, pricing, job, pools_used, accelerators, racks=0, zones=0, regions=0,
                    start_hours=0.0):
    """The expected cost of one placement: job is a dict of tco_job fields;
    pools_used and accelerators list the pools and how many from each."""
    if len(pools_used) != len(accelerators):
        raise ValueError(f"pools_used has {len(pools_used)} entries but accelerators {len(accelerators)}")
    if len(pools_used) > lib.TCO_PLACEMENT_MAX_PARTS:
        raise ValueError(f"a placement spans at most {lib.TCO_PLACEMENT_MAX_PARTS} pools, not {len(pools_used)}")
    c_job = _fill("tco_job", job, "job")
    place = _fill("tco_placement", {"parts": len(pools_used), "racks": racks, "zones": zones,
                                    "regions": regions, "start_hours": start_hours}, "placement")
    for i, (p, a) in enumerate(zip(pools_used, accelerators)):
        place.pool[i], place.accelerators[i] = p, a
    out = ffi.new("tco_price *")
    out.size = ffi.sizeof("tco_price")
    err = new_error()
    check(lib.tco_placement_price(out, pools._ptr, topology._ptr, pricing._ptr, c_job, place, err), err)
    return Price(out)


def jobs_array(jobs):
    """Jobs as an array in tco_job's layout, from a dict of columns, a
    pandas DataFrame or a list of dicts (vectorised, no loop per job)."""
    if isinstance(jobs, np.ndarray) and jobs.dtype == JOB_DTYPE:
        return jobs
    if isinstance(jobs, list):
        fields = set().union(*(j.keys() for j in jobs)) if jobs else set()
        jobs = {k: [j.get(k, 0) for j in jobs] for k in fields}
    columns = {k: np.asarray(jobs[k]) for k in jobs.keys()}
    unknown = set(columns) - set(JOB_DTYPE.names)
    if unknown:
        raise TypeError(f"jobs have no field {sorted(unknown)[0]!r}: allowed "
                        f"{', '.join(n for n in JOB_DTYPE.names if n != 'size')}")
    n = len(next(iter(columns.values()))) if columns else 0
    out = np.zeros(n, dtype=JOB_DTYPE)
    out["size"] = JOB_DTYPE.itemsize
    for k, v in columns.items():
        if JOB_DTYPE.fields[k][0].kind == "i":
            v = _whole(v, f"jobs.{k}")
        elif v.dtype == np.bool_ or v.dtype.kind not in "iuf":
            raise ParameterTypeError(f"jobs.{k}: expected numbers, not {v.dtype}", param=k)
        out[k] = v
    return out


def _whole(a, name):
    """a (an array) as int32, or the error C and Go give: no bools, no
    texts, no fractions, nothing outside int32 (never cast silently)."""
    if a.dtype == _INT64 and a.flags.c_contiguous:  # numpy's integers: checked and narrowed in one pass
        out = np.empty(a.shape, np.int32)
        if not lib.tcopy_narrow(ffi.from_buffer("int32_t[]", out), ffi.from_buffer("int64_t[]", a), a.size):
            return out
    if a.dtype == np.bool_ or a.dtype.kind not in "iuf":
        raise ParameterTypeError(f"{name}: expected whole numbers, not {a.dtype}", param=name)
    if a.dtype.kind == "f" and a.size and not (np.isfinite(a).all() and (a == np.floor(a)).all()):
        raise ParameterTypeError(f"{name}: expected whole numbers, found a fraction or a non-finite value",
                                 param=name)
    if a.size and (a.min() < -2**31 or a.max() > 2**31 - 1):
        raise RangeError(f"{name}: {a.max() if a.max() > 2**31 - 1 else a.min()} is outside the 32-bit range "
                         f"the library takes", param=name)
    return np.ascontiguousarray(a, dtype=np.int32)


def _ints(values, name, shape=None):
    arr = _whole(np.asarray(values), name)
    if shape is not None and arr.shape != shape:
        raise ValueError(f"{name} has shape {arr.shape}, expected {shape}")
    return arr


def price_placements(pools, topology, pricing, jobs, job, pool, accelerators, racks=None, zones=None,
                     regions=None, start_hours=None, raise_errors=False, threads=None):
    """Prices many placements in one C call, on threads for a large batch.

    job[i] indexes jobs; pool[i, j] and accelerators[i, j] are placement i's
    parts (2-D, or 1-D for single-pool placements; 0 accelerators ends a
    placement's list). Returns (cost, completion_hours, status): numpy
    arrays; a placement that cannot be priced has NaN figures and its status
    code (or raises, with raise_errors). `threads` is the number of threads
    the library prices on (tco_placement_price_batch_mt; None: one per core,
    at most one per 16,384 placements; 1: the calling thread alone), with
    the GIL released; each placement's figures are the same, bit for bit,
    whatever the count."""
    jobs = jobs_array(jobs)
    job = _ints(job, "job")
    if job.ndim != 1:
        raise ValueError(f"job must be one-dimensional, not of shape {job.shape}")
    n = len(job)
    pool = _ints(pool, "pool")
    pool = pool.reshape(n, -1) if pool.ndim == 1 else pool
    if pool.ndim != 2 or pool.shape[0] != n:
        raise ValueError(f"pool has shape {pool.shape}: expected ({n},) or ({n}, parts)")
    parts = pool.shape[1]
    accelerators = _ints(accelerators, "accelerators").reshape(pool.shape) if np.size(accelerators) == pool.size \
        else _ints(accelerators, "accelerators", pool.shape)
    optional = {}
    for name, values in (("racks", racks), ("zones", zones), ("regions", regions)):
        optional[name] = None if values is None else _ints(values, name, (n,))
    start = None if start_hours is None else np.ascontiguousarray(start_hours, dtype=np.float64)
    if start is not None and start.shape != (n,):
        raise ValueError(f"start_hours has shape {start.shape}, expected ({n},)")

    cost, done = np.empty(n), np.empty(n)
    status = np.empty(n, dtype=np.int32)
    c_jobs = ffi.from_buffer("tco_job[]", jobs)

    batch = ffi.new("tco_placement_batch *")
    batch.size, batch.count, batch.max_parts = ffi.sizeof("tco_placement_batch"), n, parts
    batch.job = ffi.from_buffer("int32_t[]", job)
    batch.pool = ffi.from_buffer("int32_t[]", pool)
    batch.accelerators = ffi.from_buffer("int32_t[]", accelerators)
    for name, arr in optional.items():
        setattr(batch, name, ffi.NULL if arr is None else ffi.from_buffer("int32_t[]", arr))
    batch.start_hours = ffi.NULL if start is None else ffi.from_buffer("double[]", start)
    out = (ffi.from_buffer("double[]", cost), ffi.from_buffer("double[]", done), ffi.from_buffer("int32_t[]", status))
    handles = (pools._ptr, topology._ptr, pricing._ptr, c_jobs, len(jobs), batch)
    err = new_error()
    if threads == 1:
        check(lib.tco_placement_price_batch(*out, *handles, err), err)
    else:
        threads = 0 if threads is None else max(min(int(threads), 2**31 - 1), -1)  # the library refuses -1
        check(lib.tco_placement_price_batch_mt(*out, *handles, threads, err), err)
    if raise_errors and status.any():
        raise_for(int(status[np.flatnonzero(status)[0]]), err, f"placement {int(np.flatnonzero(status)[0])}")
    return cost, done, status
