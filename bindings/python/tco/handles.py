"""Topology, Workload and Pricing: the three inputs of every computation.

Each is built from keyword arguments named after the library's parameters,
then frozen: it never changes afterwards, so it is safe to share. replace()
gives a changed copy. Unset parameters keep the library's defaults (the
built-in scenario)."""
import inspect
import numbers

import numpy as np

from ._native import ffi, lib
from .errors import ParameterTypeError, RangeError, check, new_error
from .params import HANDLE_NAMES, TYPE_BOOL, TYPE_CHOICE, TYPE_INT, TYPE_TEXT, param, params


class _Handle:
    _c = ""     # the C spelling: tco_<_c>_new(), tco_<_c> *
    _kind = ""  # the library's name of the handle kind ("topology"): Param.handle, files, messages

    def __init__(self, **values):
        self._ptr = self._new()
        for name, value in values.items():
            self._set(name, value)
        err = new_error()
        check(self._fn("freeze")(self._ptr, err), err, self._kind)

    # -- the C handle -----------------------------------------------------
    @classmethod
    def _fn(cls, verb):
        return getattr(lib, f"tco_{cls._c}_{verb}")

    @classmethod
    def _new(cls):
        out, err = ffi.new(f"tco_{cls._c} **"), new_error()
        check(cls._fn("new")(out, err), err)
        return ffi.gc(out[0], cls._fn("free"))

    @classmethod
    def _adopt(cls, ptr):
        """Wraps a C handle this object will own (it is frozen here)."""
        self = cls.__new__(cls)
        self._ptr = ffi.gc(ptr, cls._fn("free"))
        err = new_error()
        check(cls._fn("freeze")(self._ptr, err), err, cls._kind)
        return self

    def _set(self, name, value):
        p = param(name, self._kind)
        err = new_error()
        if isinstance(value, np.ndarray) and value.ndim > 0:
            raise ParameterTypeError(
                f"{name} is given an array: build the scenario with one value and sweep it with "
                f"tco.sweep(..., {name}=array)", param=name)
        if isinstance(value, str):
            if p.numeric:
                raise ParameterTypeError(f"{name} takes a number ({p.describe()}), not {value!r}", param=name)
            if "\0" in value:  # C would read the text only up to it
                raise ParameterTypeError(f"{name}: the text holds a NUL character", param=name)
            rc = self._fn("set_text")(self._ptr, p.key, value.encode(), err)
        elif isinstance(value, (bool, np.bool_)) and p.type != TYPE_BOOL:
            # as C and Go have it: True is no number, only a bool parameter's value
            raise ParameterTypeError(f"{name} takes {'a text' if p.type in (TYPE_TEXT, TYPE_CHOICE) else 'a number'} "
                                     f"({p.describe()}), not {value!r}", param=name)
        elif isinstance(value, numbers.Real):
            if p.type == TYPE_TEXT:
                raise ParameterTypeError(f"{name} takes a text ({p.describe()}), not {value!r}", param=name)
            try:
                x = float(value)
            except OverflowError:  # a whole number past the largest double
                x = None
            if x is None or (isinstance(value, numbers.Integral) and x != value):
                # as the command has it: a whole number is never rounded in silence
                raise RangeError(f"{name} = {value} does not fit a double exactly (it would be rounded): allowed "
                                 f"whole numbers up to 2**53, or a float", code=lib.TCO_E_RANGE, param=name)
            rc = self._fn("set")(self._ptr, p.key, x, err)
        else:
            raise ParameterTypeError(
                f"{name} takes {'a text' if p.type in (TYPE_TEXT, TYPE_CHOICE) else 'a number'} "
                f"({p.describe()}), not {type(value).__name__}", param=name)
        check(rc, err)

    # -- reading ----------------------------------------------------------
    def get(self, name):
        """The value of a parameter: float, int or bool; str for choices and texts."""
        cache = self.__dict__.setdefault("_cache", {})  # frozen: values never change
        if name not in cache:
            cache[name] = self._read(name)
        return cache[name]

    def _read(self, name):
        p = param(name, self._kind)
        err = new_error()
        if p.type in (TYPE_TEXT, TYPE_CHOICE):
            out = ffi.new("char **")
            check(self._fn("get_text")(self._ptr, p.key, out, err), err)
            return ffi.string(out[0]).decode()
        out = ffi.new("double *")
        check(self._fn("get")(self._ptr, p.key, out, err), err)
        return int(out[0]) if p.type == TYPE_INT else bool(out[0]) if p.type == TYPE_BOOL else out[0]

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self.get(name)
        except TypeError:
            raise AttributeError(f"{type(self).__name__} has no parameter {name!r}") from None

    def __dir__(self):  # tab completion offers the parameters
        return sorted(set(super().__dir__()) | {p.name for p in params(self._kind)})

    def to_dict(self):
        """Every parameter of this handle, by name."""
        return {p.name: self.get(p.name) for p in params(self._kind)}

    def replace(self, **changes):
        """A frozen copy with some parameters changed."""
        out, err = ffi.new(f"tco_{self._c} **"), new_error()
        check(self._fn("clone")(out, self._ptr, err), err)
        copy = type(self).__new__(type(self))
        copy._ptr = ffi.gc(out[0], self._fn("free"))
        for name, value in changes.items():
            copy._set(name, value)
        check(self._fn("freeze")(copy._ptr, err), err, self._kind)
        return copy

    @property
    def fingerprint(self):
        """XXH3-64 of the canonical CBOR encoding: equal inputs, equal fingerprint."""
        out, err = ffi.new("uint64_t *"), new_error()
        check(self._fn("fingerprint")(out, self._ptr, err), err)
        return int(out[0])

    def __eq__(self, other):
        return type(self) is type(other) and self.fingerprint == other.fingerprint

    def __hash__(self):
        # hash() of the int, not the int: Python would use a returned value
        # that fits in 64 bits as it is, so hash(h) == hash(h.fingerprint)
        # only held for fingerprints below 2^61 - 1.
        return hash(self.fingerprint)

    def __repr__(self):
        changed = [f"{p.name}={self.get(p.name)!r}" for p in params(self._kind)
                   if self.get(p.name) != p.default]
        return f"{type(self).__name__}({', '.join(changed)})"


def _document(cls, summary):
    """Docstring and signature from the library's table, for help()."""
    rows = params(cls._kind)
    cls.__doc__ = summary + "\n\nParameters (keyword only):\n" + "\n".join("    " + p.describe() for p in rows)
    cls.__init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default) for p in rows])
    return cls


class Topology(_Handle):
    _c, _kind = "topology", HANDLE_NAMES[lib.TCO_HANDLE_TOPOLOGY]

    def __init__(self, **values):
        super().__init__(**values)


class Workload(_Handle):
    _c, _kind = "workload", HANDLE_NAMES[lib.TCO_HANDLE_WORKLOAD]

    def __init__(self, **values):
        super().__init__(**values)


class Pricing(_Handle):
    _c, _kind = "pricing", HANDLE_NAMES[lib.TCO_HANDLE_PRICING]

    def __init__(self, **values):
        super().__init__(**values)

    @property
    def currency(self):
        """The ISO 4217 code of every amount (read once: the table is frozen)."""
        c = self.__dict__.get("_currency")
        if c is None:
            c = self.__dict__["_currency"] = self.get("currency")
        return c


_document(Topology, "The cluster: accelerators, nodes, fabric, storage, facility, reliability, ownership.")
_document(Workload, "The training run: model, tokens, parallelism, data, checkpoints, logs, experiments.")
_document(Pricing, "The price list: rental rates, capital, energy, network, storage, services, staff, budget.")


def check_handles(topology, workload, pricing, where=""):
    """TypeError unless the three are a Topology, a Workload and a Pricing."""
    for value, cls in ((topology, Topology), (workload, Workload), (pricing, Pricing)):
        if not isinstance(value, cls):
            raise TypeError(f"{where}expected a tco.{cls.__name__}, not {type(value).__name__}")
