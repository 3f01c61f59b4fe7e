"""The accelerator catalogue, with its list prices, and the rate a
computation charges: the pricing table's, or the list price its -1 stands
for (doc/model.md, "Accelerator catalogue" and "List prices")."""
from ._native import ffi, lib
from .errors import check, new_error
from .handles import Pricing, Topology
from .params import param
from .results import _optional

_RATES = ("on_demand_per_accel_hour", "reserved_per_accel_hour", "spot_per_accel_hour", "capex_per_accelerator")


def accelerators():
    """The catalogue as a DataFrame indexed by name: datasheet figures
    (memory bandwidth in B/s among them) and list prices (USD; 0 where none is published), each with its source."""
    pd = _optional("pandas")
    err, rows = new_error(), []
    for i in range(lib.tco_accelerator_count()):
        a = ffi.new("tco_accelerator *")
        a.size = ffi.sizeof("tco_accelerator")
        check(lib.tco_accelerator_at(a, i, err), err)
        rows.append({
            "name": ffi.string(a.name).decode(), "vendor": ffi.string(a.vendor).decode(),
            "bf16_flops": a.bf16_flops, "fp8_flops": a.fp8_flops, "memory_bytes": a.memory_bytes,
            "memory_bandwidth_bytes_per_s": a.memory_bandwidth_bytes_per_s, "tdp_watts": a.tdp_watts, "source": ffi.string(a.source).decode(),
            **{name: getattr(a, name) for name in _RATES},
            "price_source": ffi.string(a.price_source).decode(),
        })
    return pd.DataFrame(rows).set_index("name")


def rate(name, topology, pricing):
    """What the computations charge for one of the four rates (name): the
    pricing table's, or the topology's accelerator's list price where the
    table leaves it at -1; InconsistentError naming it when there is none."""
    if name not in _RATES:
        raise ValueError(f"{name!r} is not a rate: allowed {', '.join(_RATES)}")
    if not isinstance(topology, Topology) or not isinstance(pricing, Pricing):
        raise TypeError("rate(name, topology, pricing) takes a tco.Topology and a tco.Pricing")
    err, out = new_error(), ffi.new("double *")
    check(lib.tco_rate(out, param(name).key, topology._ptr, pricing._ptr, err), err)
    return out[0]
