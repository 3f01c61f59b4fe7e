"""Parameter sweeps: numpy arrays of values priced in one C call."""
import json

import numpy as np

from ._native import ffi, lib
from .errors import ParameterTypeError, RangeError, check, new_error, raise_for
from .params import TYPE_CHOICE, TYPE_TEXT, param
from .display import html_table, money, money_axis
from .display import progress as _progress
from .results import CATEGORIES, ESTIMATE_FIELDS, WASTES, Estimate, _optional


def _dtypes():
    """tco_estimate as a numpy dtype (the C layout, for the library to write
    into), and a view of it with the named fields only (the category and
    waste slots cut to the named ones), at the same offsets."""
    names, c_formats, offsets, named = [], [], [], []
    for f in ESTIMATE_FIELDS:
        names.append(f.name)
        offsets.append(f.offset)
        if f.type == lib.TCO_FIELD_CATEGORIES:
            c_formats.append(("f8", lib.TCO_CATEGORY_SLOTS))
            named.append(("f8", len(CATEGORIES)))
        elif f.type == lib.TCO_FIELD_WASTES:
            c_formats.append(("f8", lib.TCO_WASTE_SLOTS))
            named.append(("f8", len(WASTES)))
        else:
            c_formats.append("u8" if f.type == lib.TCO_FIELD_UINT64 else "f8")
            named.append(c_formats[-1])
    size = ffi.sizeof("tco_estimate")
    c_layout = np.dtype({"names": ["size"] + names, "formats": ["u8"] + c_formats, "offsets": [0] + offsets,
                         "itemsize": size})
    return c_layout, np.dtype({"names": names, "formats": named, "offsets": offsets, "itemsize": size})


ESTIMATE_DTYPE, VIEW_DTYPE = _dtypes()
CHUNK = 65536  # variations per call: a progress bar's step


def _column(name, values):
    p = param(name)
    if p.type == TYPE_TEXT:
        raise ParameterTypeError(f"{name} is a text: a sweep varies numbers", param=name)
    arr = np.asarray(values)
    if arr.dtype.kind in "US" and p.type == TYPE_CHOICE:  # names, as set_text takes them
        lookup = dict(zip(p.choices, p.choice_values))
        bad = [str(v) for v in arr.ravel() if str(v) not in lookup]
        if bad:  # refused as set_text refuses it
            raise RangeError(f"{name} = {json.dumps(bad[0])} is not a choice: allowed {', '.join(p.choices)}",
                             code=lib.TCO_E_RANGE, param=name)
        arr = np.vectorize(lambda v: lookup[str(v)], otypes=[float])(arr)
    elif arr.dtype.kind not in "biuf":
        raise ParameterTypeError(f"{name} takes numbers, not an array of {arr.dtype}", param=name)
    return p.key, arr.astype(np.float64)


class Sweep:
    """The estimates of every variation; columns as numpy arrays. A grid
    sweep (grid=True) also knows its axes: to_xarray() gives a Dataset with
    one dimension per parameter, to_pandas() a MultiIndex."""

    def __init__(self, inputs, data, currency, axes=None):
        self.inputs = inputs        # the swept values, by parameter name, one per variation
        self.data = data            # structured array, one estimate per variation
        self.currency = currency
        self.axes = axes            # grid sweeps: each parameter's own values, in order

    def __len__(self):
        return len(self.data)

    def __getitem__(self, field):
        """An output field across the sweep (a numpy array)."""
        return self.data[field]

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.data.dtype.names))

    def __repr__(self):
        t = self.data["total"]
        what = " x ".join(f"{len(v)} {k}" for k, v in self.axes.items()) if self.axes else ", ".join(self.inputs)
        span = f"; total {money(t.min())} to {money(t.max(), self.currency)}" if len(t) else ""
        return f"Sweep({len(self)} variations of {what}{span})"

    def _repr_html_(self):
        t = self.data["total"]
        rows = [(k, f"{np.min(v):,.6g} to {np.max(v):,.6g}") for k, v in self.inputs.items()]
        if len(t):
            rows.append(("total", f"{money(t.min(), self.currency)} to {money(t.max(), self.currency)}"))
        return html_table(rows, ["", "range"], repr(self))

    @property
    def total(self):
        return self.data["total"]

    def cost(self, category):
        return self.data["cost"][:, CATEGORIES.index(category)]

    def _columns(self):
        columns = {}
        for f in ESTIMATE_FIELDS:
            if f.type == lib.TCO_FIELD_CATEGORIES:
                columns.update({f"{f.name}_{c}": self.data[f.name][:, i] for i, c in enumerate(CATEGORIES)})
            elif f.type == lib.TCO_FIELD_WASTES:
                columns.update({f"waste_{w}": self.data[f.name][:, i] for i, w in enumerate(WASTES)})
            elif f.name != "scenario_fingerprint":
                columns[f.name] = self.data[f.name]
        return columns

    def to_pandas(self):
        """One row per variation: the swept values, then every output (a
        grid's swept values as a MultiIndex)."""
        pd = _optional("pandas")
        if self.axes:
            index = pd.MultiIndex.from_arrays([self.inputs[k] for k in self.axes], names=list(self.axes))
            return pd.DataFrame(self._columns(), index=index)
        return pd.DataFrame({**self.inputs, **self._columns()})

    def to_xarray(self):
        """A grid sweep as an xarray Dataset: one dimension per parameter,
        every output a variable with its unit."""
        if not self.axes:
            raise ValueError("to_xarray() needs a grid sweep: tco.sweep(..., grid=True)")
        xr = _optional("xarray")
        shape = tuple(len(v) for v in self.axes.values())
        units = {k: u.replace("cur", self.currency) for k, u in Estimate.field_units().items()}
        data = {}
        for name, column in self._columns().items():
            unit = units.get(name, units.get(name.split("_")[0], ""))
            data[name] = (list(self.axes), column.reshape(shape), {"units": unit})
        return xr.Dataset(data, coords={k: v for k, v in self.axes.items()})

    def plot(self, x=None, y="total", ax=None):
        """y against the swept parameter x (the first one by default)."""
        plt = _optional("matplotlib.pyplot")
        x = x or next(iter(self.inputs))
        if ax is None:
            _, ax = plt.subplots(figsize=(7, 4))
        ax.plot(self.inputs[x], self.data[y], marker="." if self.axes else None, linestyle="" if self.axes else "-")
        ax.set_xlabel(x)
        unit = Estimate.field_units().get(y, "")
        money_like = unit.startswith("cur")
        if money_like:
            money_axis(ax.yaxis)
        ax.set_ylabel(f"{y} ({unit.replace('cur', self.currency)})" if unit and unit != "1" else y)
        ax.set_title(f"{y} against {x}, {len(self):,} variations")
        ax.figure.tight_layout()
        return ax


def sweep(topology, workload, pricing, grid=False, progress=None, **arrays):
    """Prices the scenario once per value: sweep(t, w, p, mfu=np.linspace(0.3, 0.6, 100)).

    Several parameters broadcast together (numpy rules), or with grid=True
    span every combination (mfu=..., accelerators=...: len(mfu) x
    len(accelerators) variations, to_xarray() by dimension). All go to the
    library in large calls; a variation with a value out of range raises
    the library's error, naming the variation. progress: a tqdm bar (None:
    when tqdm is installed and this runs in a terminal or a notebook)."""
    keys, inputs, axes, values = variations(grid, arrays)
    n = len(values)
    # The library writes each estimate in place, into the array the Sweep
    # keeps (read through a view of the named fields): nothing is copied.
    bar = _progress(n, progress, "sweep") if n > CHUNK else None
    try:
        raw = price_in_place(values, keys, topology, workload, pricing, bar, variation_name)
    finally:
        if bar:
            bar.close()
    return Sweep(inputs, raw.view(VIEW_DTYPE), pricing.currency, axes)


def variations(grid, arrays):
    """What sweep() prices, from its arrays ({name: values}): the parameters'
    keys, the swept values by name (one per variation), a grid's axes (or
    None), and the n x len(keys) values, one row per variation. tco.spark
    splits these rows across a cluster."""
    if not arrays:
        raise TypeError("sweep() needs at least one parameter given as an array")
    keys, columns = zip(*(_column(name, values) for name, values in arrays.items()))
    axes = None
    if grid:
        if any(c.ndim != 1 for c in columns):
            raise ValueError("a grid sweep takes one-dimensional values for each parameter")
        axes = {name: columns[i] for i, name in enumerate(arrays)}
        columns = [m.ravel() for m in np.meshgrid(*columns, indexing="ij")]
    columns = np.broadcast_arrays(*columns)
    if columns[0].ndim != 1:
        raise ValueError(f"sweep values must be one-dimensional, not of shape {columns[0].shape}")
    values = np.ascontiguousarray(np.stack(columns, axis=1), dtype=np.float64)
    inputs = {name: columns[i].copy() for i, name in enumerate(arrays)}
    return keys, inputs, axes, values


def variation_name(i):
    """The context of variation i's error."""
    return f"sweep value {i}"


def price_in_place(values, keys, topology, workload, pricing, bar=None, name=str):
    """Prices each row of values (n x len(keys), the parameters keys set)
    into a C-layout array the library writes in place, CHUNK rows a call,
    telling bar; a row that cannot be priced raises its error, context
    name(row). Sweeps and the shown Monte Carlo run share it."""
    n = len(values)
    raw = np.empty(n, dtype=ESTIMATE_DTYPE)
    status = np.empty(n, dtype=np.int32)
    c_keys, err = ffi.new("int32_t[]", list(keys)), new_error()
    for start in range(0, n, CHUNK):
        m = min(CHUNK, n - start)
        check(lib.tco_estimate_sweep(ffi.from_buffer("tco_estimate[]", raw[start:start + m]), ESTIMATE_DTYPE.itemsize,
                                     ffi.from_buffer("int32_t[]", status[start:]), m, c_keys, len(keys),
                                     ffi.from_buffer("double[]", values[start:start + m]), topology._ptr,
                                     workload._ptr, pricing._ptr, err), err)
        bad = np.flatnonzero(status[start:start + m])
        if len(bad):
            first = start + int(bad[0])
            raise_for(int(status[first]), err, name(first))
        if bar:
            bar.update(m)
    return raw
