"""Parameter sweeps: numpy arrays of values priced in one C call."""
import numpy as np

from ._native import ffi, lib
from .errors import ParameterTypeError, check, new_error, raise_for
from .params import TYPE_CHOICE, TYPE_TEXT, param
from .results import CATEGORIES, ESTIMATE_FIELDS, WASTES, _optional


def _dtypes():
    """tco_estimate as a numpy dtype (the C layout, for the library to write
    into) and the same fields packed, without the unused slots (to keep)."""
    names, c_formats, offsets, packed = [], [], [], []
    for f in ESTIMATE_FIELDS:
        names.append(f.name)
        offsets.append(f.offset)
        if f.type == lib.TCO_FIELD_CATEGORIES:
            c_formats.append(("f8", lib.TCO_CATEGORY_SLOTS))
            packed.append(("f8", len(CATEGORIES)))
        elif f.type == lib.TCO_FIELD_WASTES:
            c_formats.append(("f8", lib.TCO_WASTE_SLOTS))
            packed.append(("f8", len(WASTES)))
        else:
            c_formats.append("u8" if f.type == lib.TCO_FIELD_UINT64 else "f8")
            packed.append(c_formats[-1])
    c_layout = np.dtype({"names": ["size"] + names, "formats": ["u8"] + c_formats, "offsets": [0] + offsets,
                         "itemsize": ffi.sizeof("tco_estimate")})
    return c_layout, np.dtype({"names": names, "formats": packed})


ESTIMATE_DTYPE, PACKED_DTYPE = _dtypes()
CHUNK = 4096  # variations per call: the C buffer stays small and warm


def _column(name, values):
    p = param(name)
    if p.type == TYPE_TEXT:
        raise ParameterTypeError(f"{name} is a text: a sweep varies numbers", param=name)
    arr = np.asarray(values)
    if arr.dtype.kind in "US" and p.type == TYPE_CHOICE:
        lookup = dict(zip(p.choices, p.choice_values))
        bad = [v for v in arr.ravel() if str(v) not in lookup]
        if bad:
            raise ParameterTypeError(f"{name} = {bad[0]!r} is not a choice: allowed {', '.join(p.choices)}",
                                     param=name)
        arr = np.vectorize(lambda v: lookup[str(v)], otypes=[float])(arr)
    elif arr.dtype.kind not in "biuf":
        raise ParameterTypeError(f"{name} takes numbers, not an array of {arr.dtype}", param=name)
    return p.key, arr.astype(np.float64)


class Sweep:
    """The estimates of every variation; columns as numpy arrays."""

    def __init__(self, inputs, data, currency):
        self.inputs = inputs        # the swept values, by parameter name
        self.data = data            # structured array, one tco_estimate per variation
        self.currency = currency

    def __len__(self):
        return len(self.data)

    def __getitem__(self, field):
        """An output field across the sweep (a numpy array)."""
        return self.data[field]

    @property
    def total(self):
        return self.data["total"]

    def cost(self, category):
        return self.data["cost"][:, CATEGORIES.index(category)]

    def to_pandas(self):
        """One row per variation: the swept values, then every output."""
        pd = _optional("pandas")
        columns = dict(self.inputs)
        for f in ESTIMATE_FIELDS:
            if f.type == lib.TCO_FIELD_CATEGORIES:
                columns.update({f"cost_{c}": self.data[f.name][:, i] for i, c in enumerate(CATEGORIES)})
            elif f.type == lib.TCO_FIELD_WASTES:
                columns.update({f"waste_{w}": self.data[f.name][:, i] for i, w in enumerate(WASTES)})
            elif f.name != "scenario_fingerprint":
                columns[f.name] = self.data[f.name]
        return pd.DataFrame(columns)

    def plot(self, x=None, y="total", ax=None):
        """y against the swept parameter x (the first one by default)."""
        plt = _optional("matplotlib.pyplot")
        x = x or next(iter(self.inputs))
        if ax is None:
            _, ax = plt.subplots(figsize=(7, 4))
        ax.plot(self.inputs[x], self.data[y])
        ax.set_xlabel(x)
        ax.set_ylabel(f"{y} ({self.currency})" if y == "total" else y)
        ax.figure.tight_layout()
        return ax


def sweep(topology, workload, pricing, **arrays):
    """Prices the scenario once per value: sweep(t, w, p, mfu=np.linspace(0.3, 0.6, 100)).

    Several parameters broadcast together (numpy rules); all variations go
    to the library in one call. A variation with a value out of range raises
    the library's error, naming the variation."""
    if not arrays:
        raise TypeError("sweep() needs at least one parameter given as an array")
    keys, columns = zip(*(_column(name, values) for name, values in arrays.items()))
    columns = np.broadcast_arrays(*columns)
    if columns[0].ndim != 1:
        raise ValueError(f"sweep values must be one-dimensional, not of shape {columns[0].shape}")
    n = len(columns[0])
    values = np.ascontiguousarray(np.stack(columns, axis=1), dtype=np.float64)
    out = np.empty(n, dtype=PACKED_DTYPE)
    buf = np.empty(min(n, CHUNK), dtype=ESTIMATE_DTYPE)
    status = np.empty(min(n, CHUNK), dtype=np.int32)
    c_buf, c_status = ffi.from_buffer("tco_estimate[]", buf), ffi.from_buffer("int32_t[]", status)
    c_keys = ffi.new("int32_t[]", list(keys))
    err = new_error()
    for start in range(0, n, CHUNK):
        m = min(CHUNK, n - start)
        check(lib.tco_estimate_sweep(c_buf, ESTIMATE_DTYPE.itemsize, c_status, m, c_keys, len(keys),
                                     ffi.from_buffer("double[]", values[start:start + m]), topology._ptr,
                                     workload._ptr, pricing._ptr, err), err)
        if status[:m].any():
            first = int(np.flatnonzero(status[:m])[0])
            raise_for(int(status[first]), err, f"sweep value {start + first}")
        for name in PACKED_DTYPE.names:
            width = PACKED_DTYPE[name].shape
            out[name][start:start + m] = buf[name][:m, :width[0]] if width else buf[name][:m]
    inputs = {name: columns[i].copy() for i, name in enumerate(arrays)}
    return Sweep(inputs, out, pricing.currency)
