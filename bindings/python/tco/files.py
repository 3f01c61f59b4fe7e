"""Scenario files: canonical CBOR (the library's encoder) and JSON (the same
keys, for people), and fingerprints (doc/format.md)."""
import json
import os
import sys

from ._native import ffi, lib
from .errors import check, new_error
from .handles import Pricing, Topology, Workload

FORMAT = ffi.string(lib.tco_scenario_format_name()).decode()  # "libtco-scenario": the "format" key's value
_HANDLES = (Topology, Workload, Pricing)  # a scenario's keys are their names ("topology"...), in this order
_KEYS = {"format", "version", *(h._kind for h in _HANDLES)}


def _encode(save, *args):
    size, err = ffi.new("size_t *"), new_error()
    check(save(ffi.NULL, 0, size, *args, err), err)
    buf = ffi.new("uint8_t[]", size[0])
    check(save(buf, size[0], size, *args, err), err)
    return bytes(ffi.buffer(buf, size[0]))


def to_cbor(topology, workload, pricing):
    """The scenario's canonical CBOR bytes."""
    return _encode(lib.tco_scenario_save_cbor, topology._ptr, workload._ptr, pricing._ptr)


def from_cbor(data):
    """(Topology, Workload, Pricing) from a scenario's CBOR bytes."""
    t, w, p, err = ffi.new("tco_topology **"), ffi.new("tco_workload **"), ffi.new("tco_pricing **"), new_error()
    check(lib.tco_scenario_load_cbor(t, w, p, data, len(data), err), err)
    return Topology._adopt(t[0]), Workload._adopt(w[0]), Pricing._adopt(p[0])


def to_json(topology, workload, pricing):
    """The scenario as a JSON-ready dict: the same keys as the CBOR."""
    doc = {"format": FORMAT, "version": lib.TCO_FORMAT_VERSION}
    doc.update((h._kind, v.to_dict()) for h, v in zip(_HANDLES, (topology, workload, pricing)))
    return doc


def from_json(doc):
    """(Topology, Workload, Pricing) from a parsed JSON scenario."""
    if doc.get("format") != FORMAT:
        raise ValueError(f"not a libtco scenario: format is {doc.get('format')!r}, expected {FORMAT!r}")
    version = doc.get("version")
    if not isinstance(version, int) or not 1 <= version <= lib.TCO_FORMAT_VERSION:
        raise ValueError(f"scenario version {version!r} is not one this library reads "
                         f"(1 to {lib.TCO_FORMAT_VERSION})")
    unknown = set(doc) - _KEYS
    if unknown:
        raise ValueError(f"unknown key {sorted(unknown)[0]!r} in the scenario")
    return tuple(h(**doc.get(h._kind, {})) for h in _HANDLES)


def load(source):
    """(Topology, Workload, Pricing) from a .cbor or .json file, or CBOR bytes."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return from_cbor(bytes(source))
    path = os.fspath(source)
    if path.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            try:
                doc = json.load(f, object_pairs_hook=_no_duplicates, parse_float=_exact_float)
            except json.JSONDecodeError:
                raise
            except ValueError as e:  # ours: name the file
                raise ValueError(f"{path}: {e}") from None
        return from_json(doc)
    with open(path, "rb") as f:
        return from_cbor(f.read())


def save(path, topology, workload, pricing):
    """Writes the scenario as canonical CBOR, or as JSON for a .json path."""
    path = os.fspath(path)
    if path.endswith(".json"):
        with open(path, "w", encoding="utf-8") as f:
            json.dump(to_json(topology, workload, pricing), f, indent=2)
            f.write("\n")
    else:
        with open(path, "wb") as f:
            f.write(to_cbor(topology, workload, pricing))


def scenario_fingerprint(topology, workload, pricing):
    """The scenario's 64-bit fingerprint: the same in C, Python and Go."""
    out, err = ffi.new("uint64_t *"), new_error()
    check(lib.tco_scenario_fingerprint(out, topology._ptr, workload._ptr, pricing._ptr, err), err)
    return int(out[0])


def estimate_to_cbor(cdata):
    return _encode(lib.tco_estimate_save_cbor, cdata)


def _digits(text):
    """The significant digits of a number as written: no sign, point,
    exponent, leading or trailing zeros."""
    return text.lower().partition("e")[0].lstrip("+-").replace(".", "").strip("0")


def _exact_float(text):
    """A JSON real whose digits its double gives back, as the command has it
    (doc/format.md): 0.1 reads back as 0.1, 1.00000000000000011 would not."""
    x, digits = float(text), _digits(text)
    if digits and (len(digits) > sys.float_info.dig or abs(x) < sys.float_info.min) and \
            _digits(f"{x:.{len(digits) - 1}e}") != digits:
        raise ValueError(f"the number {text} does not fit a double as written: it reads as {x!r} "
                         f"({'it is below the smallest double, 4.9e-324' if x == 0 else 'its last digits are lost'}); "
                         f"write that instead")
    return x


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    dup = next((k for k in keys if keys.count(k) > 1), None)
    if dup is not None:
        raise ValueError(f"duplicate key {dup!r}")
    return dict(pairs)
