"""Results as plain Python objects: attributes, to_dict(), to_pandas() and
plot(). Field names, units and categories come from the library: the
estimate's from its field table, the other results' from the header."""
import struct
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter, itemgetter

from ._native import ffi, lib
from .display import html_table, money, money_axis
from .errors import check, new_error
from .handles import check_handles


@dataclass(frozen=True)
class Field:
    name: str
    unit: str
    description: str
    type: int
    offset: int


def _fields():
    out, err = [], new_error()
    for i in range(lib.tco_estimate_field_count()):
        f = ffi.new("tco_field_info *")
        f.size = ffi.sizeof("tco_field_info")
        check(lib.tco_estimate_field_at(f, i, err), err)
        out.append(Field(ffi.string(f.name).decode(), ffi.string(f.unit).decode(),
                         ffi.string(f.description).decode(), f.type, f.offset))
    return out


def sized(ctype, n=None):
    """A new C struct (or array of n) with every size field set."""
    if n is None:
        out = ffi.new(f"{ctype} *")
        out.size = ffi.sizeof(ctype)
        return out
    out = ffi.new(f"{ctype}[]", n)
    for i in range(n):
        out[i].size = ffi.sizeof(ctype)
    return out


def enum_names(name_of):
    """The names the library gives an enum's values 0, 1, 2... (until NULL)."""
    names = []
    while name_of(len(names)) != ffi.NULL:
        names.append(ffi.string(name_of(len(names))).decode())
    return tuple(names)


def _flags():
    """(bit, name, description) of every bit of tco_estimate.flags the library
    names (tco_estimate_flag_name: NULL for a bit it does not know)."""
    out = []
    for i in range(64):
        bit = 1 << i
        name = lib.tco_estimate_flag_name(bit)
        if name != ffi.NULL:
            description = lib.tco_estimate_flag_description(bit)
            out.append((bit, ffi.string(name).decode(),
                        ffi.string(description).decode() if description != ffi.NULL else ""))
    return tuple(out)


ESTIMATE_FIELDS = _fields()
CATEGORIES = list(enum_names(lib.tco_category_name))
PRICE_CLASSES = enum_names(lib.tco_price_class_name)  # "on_demand", "reserved", "spot", "owned"
WASTES = list(enum_names(lib.tco_waste_name))
_FLAGS = _flags()
# What an estimate may say it assumed, or which input set a figure: the
# library's flag names, in bit order, with their one-line descriptions.
ESTIMATE_FLAGS = {name: description for _, name, description in _FLAGS}


def _optional(module):
    try:
        return __import__(module, fromlist=["_"])
    except ImportError as e:
        extra = {"matplotlib": "plot", "pyarrow": "parquet"}.get(module.split(".")[0], "pandas")
        raise ImportError(f"this needs {module.split('.')[0]}: pip install 'libtco[{extra}]'") from e


class Result:
    """A C result struct as a Python object: one attribute per field."""
    _ctype = ""

    def __init__(self, cdata):
        self._values = {}
        for name, field in ffi.typeof(self._ctype).fields:
            if name == "size":
                continue
            value = getattr(cdata, name)
            if field.type.kind == "array":
                value = [list(row) if ffi.typeof(row).kind == "array" else row for row in value]
            self._values[name] = value

    def __getattr__(self, name):
        try:
            return self.__dict__["_values"][name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}") from None

    def to_dict(self):
        return dict(self._values)

    def to_pandas(self):
        """A one-column table: field, value."""
        pd = _optional("pandas")
        return pd.DataFrame({"value": list(self._values.values())}, index=list(self._values)).rename_axis("field")

    def __repr__(self):
        inner = ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v!r}" for k, v in self._values.items())
        return f"{type(self).__name__}({inner})"

    def _repr_html_(self):
        rows = [(k, f"{v:,.6g}" if isinstance(v, float) else v) for k, v in self._values.items()]
        return html_table(rows, ["field", "value"], type(self).__name__)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.__dict__.get("_values", ())))


class Estimate(Result):
    """What a training scenario costs, category by category (doc/model.md).

    total, cost (by category name), waste (by kind), and every other field of
    the estimate as an attribute, in the units field_units() gives. Fields
    are read from the C struct when asked for. flags is the library's bit
    set of what the estimate assumed; assumptions names the bits set."""

    _BY_NAME = {f.name: f for f in ESTIMATE_FIELDS}

    def __init__(self, cdata, currency="cur"):
        self._c = cdata  # a tco_estimate * this object owns
        self.currency = currency

    @cached_property
    def currency(self):
        """The ISO 4217 code of every amount: the pricing table's, read when
        first asked for (estimate() leaves it to here)."""
        return self._pricing.currency

    def _read(self, f):
        base = ffi.cast("char *", self._c) + f.offset
        if f.type == lib.TCO_FIELD_CATEGORIES:
            arr = ffi.cast("double *", base)
            return {name: arr[i] for i, name in enumerate(CATEGORIES)}
        if f.type == lib.TCO_FIELD_WASTES:
            arr = ffi.cast("double *", base)
            return {name: arr[i] for i, name in enumerate(WASTES)}
        if f.type == lib.TCO_FIELD_UINT64:
            return int(ffi.cast("uint64_t *", base)[0])
        return ffi.cast("double *", base)[0]

    def __getattr__(self, name):
        f = Estimate._BY_NAME.get(name)
        if f is None or name.startswith("_"):
            raise AttributeError(f"Estimate has no field {name!r}")
        return self._read(f)

    @property
    def assumptions(self):
        """The names of the flags set in ``flags``, in bit order: what the
        estimate assumed or which input set a figure ("attention_omitted",
        "time_from_mfu"...). ``tco.ESTIMATE_FLAGS`` describes each."""
        flags = self.flags
        return [name for bit, name, _ in _FLAGS if flags & bit]

    def to_dict(self):
        """Every field by name: the maps as dicts, the rest as numbers."""
        # One unpack of every field, then into a dict whose keys are already
        # in the library's order.
        values = _UNPACK(ffi.buffer(self._c))
        out = _ORDER.copy()
        out.update(zip(_SCALARS, _PICK_SCALARS(values)))
        for name, i, names in _MAPS:
            out[name] = dict(zip(names, values[i:i + len(names)]))
        return out

    def __repr__(self):
        return f"Estimate(total={self.total:,.2f} {self.currency}, wall_hours={self.wall_hours:.1f}, " \
               f"goodput={self.goodput:.4f})"

    def _repr_html_(self):
        total, units = self.total, Estimate.field_units()
        rows = [(c, money(a, self.currency), f"{a / total:.1%}" if total else "") for c, a in self.cost.items() if a]
        rows += [("total", money(total, self.currency), ""),
                 ("per million tokens", money(self.cost_per_million_tokens, self.currency), ""),
                 ("per effective accelerator-hour", money(self.cost_per_effective_accelerator_hour, self.currency), ""),
                 ("wall time", f"{self.wall_hours / 24:,.1f} days", ""),
                 ("goodput", f"{self.goodput:.1%}", "")]
        caption = f"Estimate: {money(total, self.currency)} ({units['total'].replace('cur', self.currency)})"
        return html_table(rows, ["category", "cost", "share"], caption)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(Estimate._BY_NAME))

    def to_cbor(self):
        """The result as canonical CBOR, keyed by the field names."""
        from .files import estimate_to_cbor
        return estimate_to_cbor(self._c)

    @staticmethod
    def field_units():
        """Unit of every field, by name."""
        return {f.name: f.unit for f in ESTIMATE_FIELDS}

    def to_pandas(self):
        """The breakdown: one row per category with amount, share and unit."""
        pd = _optional("pandas")
        total = self.total
        rows = [(c, a, a / total if total else 0.0) for c, a in self.cost.items()]
        df = pd.DataFrame(rows, columns=["category", "amount", "share"])
        df["unit"] = self.currency
        return df

    def plot(self, ax=None, title=None):
        """The breakdown as a horizontal bar chart (matplotlib); returns the axes."""
        plt = _optional("matplotlib.pyplot")
        if ax is None:
            _, ax = plt.subplots(figsize=(7, 4))
        names = [n for n in self.cost if self.cost[n]][::-1]  # no empty categories
        bars = ax.barh(names, [self.cost[n] for n in names], color="#4c72b0")
        ax.bar_label(bars, labels=[f" {self.cost[n] / self.total:.1%}" if self.total else "" for n in names],
                     fontsize=8)
        money_axis(ax.xaxis)
        ax.set_xlabel(f"cost ({self.currency})")
        ax.set_title(title or f"cost by category: {money(self.total, self.currency)} in all")
        ax.figure.tight_layout()
        return ax


_DOUBLE_P = ffi.typeof("double *")
_ESTIMATE_P = ffi.typeof("tco_estimate *")
_MEMBERS = dict(ffi.typeof("tco_estimate").fields)


def _map_names(f):
    return CATEGORIES if f.type == lib.TCO_FIELD_CATEGORIES else WASTES


def _typed_fields():
    """A property for each field of the estimate, reading the C struct: a
    scalar by its member (attrgetter, no lookup by name in Python on the
    way), a map from its offset. A field the compiled struct does not have
    at the library's offset is left to Estimate.__getattr__."""
    for f in ESTIMATE_FIELDS:
        if hasattr(Estimate, f.name):
            continue
        member = _MEMBERS.get(f.name)
        if f.type in (lib.TCO_FIELD_DOUBLE, lib.TCO_FIELD_UINT64):
            if member is not None and member.offset == f.offset:
                setattr(Estimate, f.name, property(attrgetter("_c." + f.name), doc=f.unit))
        elif f.type in (lib.TCO_FIELD_CATEGORIES, lib.TCO_FIELD_WASTES):
            def read(self, i=f.offset // 8, names=_map_names(f)):
                return dict(zip(names, ffi.unpack(ffi.cast(_DOUBLE_P, self._c) + i, len(names))))
            setattr(Estimate, f.name, property(read, doc=f.unit))


_typed_fields()


def _unpacker():
    """What to_dict reads: a struct.Struct that unpacks every field the
    library lists, in offset order (a map's named slots only), with the
    scalars' names and positions in what it unpacks, and each map's name,
    first position and names."""
    fmt, at, pos, scalars, maps = ["="], 0, 0, [], []
    for f in sorted(ESTIMATE_FIELDS, key=lambda f: f.offset):
        fmt.append(f"{f.offset - at}x")
        if f.type in (lib.TCO_FIELD_DOUBLE, lib.TCO_FIELD_UINT64):
            fmt.append("d" if f.type == lib.TCO_FIELD_DOUBLE else "Q")
            scalars.append((f.name, pos))
            width = 1
        else:
            names = _map_names(f)
            fmt.append(f"{len(names)}d")
            maps.append((f.name, pos, names))
            width = len(names)
        pos, at = pos + width, f.offset + 8 * width
    names, positions = zip(*scalars)
    return struct.Struct("".join(fmt)).unpack_from, names, itemgetter(*positions), tuple(maps)


_ORDER = dict.fromkeys(f.name for f in ESTIMATE_FIELDS)
_UNPACK, _SCALARS, _PICK_SCALARS, _MAPS = _unpacker()
_new, _compute, _compute_sized, _bare = ffi.new, lib.tco_estimate_compute, lib.tcopy_estimate, object.__new__


def estimate(topology, workload, pricing):
    """Prices a training scenario: an Estimate."""
    out = _new(_ESTIMATE_P)
    try:
        rc = _compute_sized(out, topology._ptr, workload._ptr, pricing._ptr)
    except (AttributeError, TypeError):  # not three handles: say which (free on the path that succeeds)
        check_handles(topology, workload, pricing, "estimate(): ")
        raise
    if rc:
        # again for the message: the computation is pure, so it fails the
        # same way, and the path that succeeds makes no error struct
        err = new_error()
        check(_compute(out, topology._ptr, workload._ptr, pricing._ptr, err), err)
    # built without __init__: the currency is read from pricing when asked
    e = _bare(Estimate)
    e._c, e._pricing = out, pricing
    return e
