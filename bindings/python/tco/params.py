"""The library's parameter table, read at run time: names, units, defaults,
bounds and descriptions come from libtco, never from a copy here."""
import difflib
from dataclasses import dataclass
from typing import Optional, Tuple

from ._native import ffi, lib
from .errors import UnknownParameterError, check, new_error


def _names(name_of, values):
    """{value: the library's name of it} for each of an enum's values."""
    out = {}
    for v in values:
        name = name_of(v)
        if name == ffi.NULL:
            raise ImportError(f"the loaded libtco has no name for value {v} of an enum: rebuild the binding")
        out[v] = ffi.string(name).decode()
    return out


# The names of the handle kinds ("topology", "workload", "pricing") and of the
# parameter types ("real", "int", "bool", "choice", "text") are the library's.
HANDLE_NAMES = _names(lib.tco_handle_kind_name,
                      (lib.TCO_HANDLE_TOPOLOGY, lib.TCO_HANDLE_WORKLOAD, lib.TCO_HANDLE_PRICING))
_TYPE_KEYS = (lib.TCO_TYPE_REAL, lib.TCO_TYPE_INT, lib.TCO_TYPE_BOOL, lib.TCO_TYPE_CHOICE, lib.TCO_TYPE_TEXT)
_TYPES = _names(lib.tco_param_type_name, _TYPE_KEYS)
TYPE_REAL, TYPE_INT, TYPE_BOOL, TYPE_CHOICE, TYPE_TEXT = (_TYPES[t] for t in _TYPE_KEYS)


@dataclass(frozen=True)
class Param:
    """One row of the parameter table."""
    name: str
    key: int
    handle: str            # "topology", "workload" or "pricing"
    type: str              # "real", "int", "bool", "choice" or "text"
    unit: str
    description: str
    default: object        # a float, or a str for choices and texts
    min: Optional[float]
    max: Optional[float]
    choices: Tuple[str, ...]
    choice_values: Tuple[float, ...]
    stands_for: str = ""   # a default below min is a stand-in: what it stands for

    @property
    def numeric(self):
        return self.type in (TYPE_REAL, TYPE_INT, TYPE_BOOL)

    def describe(self):
        """One line for help(): name, unit, default, allowed values."""
        if self.type == TYPE_CHOICE:
            allowed = "one of " + ", ".join(self.choices)
        elif self.type == TYPE_TEXT:
            allowed = "text"
        elif self.stands_for:
            allowed = f"{self.default:g}, or {self.min:g} to {self.max:g}"
        else:
            allowed = f"{self.min:g} to {self.max:g}"
        unit = f" [{self.unit}]" if self.unit not in ("", "1") else ""
        default = repr(self.default) if isinstance(self.default, str) else f"{self.default:g}"
        if self.stands_for:
            default += f": {self.stands_for}"
        return f"{self.name}{unit}: {self.description} (default {default}; {allowed})"


def _load():
    table = {}
    err = new_error()
    for i in range(lib.tco_param_count()):
        info = ffi.new("tco_param_info *")
        info.size = ffi.sizeof("tco_param_info")
        check(lib.tco_param_info_at(info, i, err), err)
        choices, values = [], []
        for c in range(info.choice_count):
            name, value = ffi.new("char **"), ffi.new("double *")
            check(lib.tco_param_choice_at(name, value, info.key, c, err), err)
            choices.append(ffi.string(name[0]).decode())
            values.append(value[0])
        text = info.type in (lib.TCO_TYPE_TEXT, lib.TCO_TYPE_CHOICE)
        p = Param(
            name=ffi.string(info.name).decode(),
            key=info.key,
            handle=HANDLE_NAMES[info.handle],
            type=_TYPES[info.type],
            unit=ffi.string(info.unit).decode(),
            description=ffi.string(info.description).decode(),
            default=ffi.string(info.default_text).decode() if text else info.default_value,
            min=None if info.type == lib.TCO_TYPE_TEXT else info.min_value,
            max=None if info.type == lib.TCO_TYPE_TEXT else info.max_value,
            choices=tuple(choices),
            choice_values=tuple(values),
            stands_for="" if text or info.default_value >= info.min_value else ffi.string(info.default_text).decode(),
        )
        table[p.name] = p
    return table


PARAMS = _load()


def params(handle=None):
    """Every parameter (of one handle: "topology", "workload", "pricing")."""
    return [p for p in PARAMS.values() if handle is None or p.handle == handle]


def param(name, handle=None):
    """The parameter called name, or UnknownParameterError naming the closest."""
    p = PARAMS.get(name)
    if p is not None and (handle is None or p.handle == handle):
        return p
    pool = [q.name for q in params(handle)]
    close = difflib.get_close_matches(name, pool, n=1)
    where = f" of the {handle}" if handle else ""
    hint = f"; did you mean {close[0]!r}?" if close else ""
    if p is not None:
        hint = f": it belongs to the {p.handle}"
    raise UnknownParameterError(f"no parameter{where} is named {name!r}{hint}", param=name)
