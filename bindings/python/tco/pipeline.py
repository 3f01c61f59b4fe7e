"""The data pipeline of a scenario (doc/model.md, section 23): pulling the
raw data in (internet ingress and NAT), preparing it (CPU node-hours),
storing what deduplication and compression keep, and reading it (requests),
each a cost line priced by the library, with the data-stall share a cache
and prefetching imply. The estimate is not changed: feed stall_share back
with tco.Workload(data_stall_share=...) to price it."""
from ._native import ffi, lib
from .errors import check, new_error, number
from .handles import check_handles
from .results import Result, _optional, sized

# The inputs of tco_pipeline_request, as keyword arguments; their defaults
# are the library's (tco_pipeline_request_init).
INPUTS = tuple(name for name, _ in ffi.typeof("tco_pipeline_request").fields if name != "size")
# The cost lines: (line, quantity field, its unit, cost field).
LINES = (("preprocessing", "preprocess_node_hours", "node-h", "preprocess_cost"),
         ("storage", "storage_gb_months", "GB-month", "storage_cost"),
         ("read_requests", "read_requests", "1", "request_cost"),
         ("ingress", "ingress_gb", "GB", "ingress_cost"),
         ("nat", "ingress_gb", "GB", "nat_cost"))


class Pipeline(Result):
    """The pipeline's cost lines in the pricing's currency, one attribute per
    field of tco_pipeline (raw_bytes, prepared_bytes, preprocess_cost,
    storage_cost, read_bytes, request_cost, ingress_cost, nat_cost, total,
    stall_share, data_stall_share_floor, ...)."""
    _ctype = "tco_pipeline"

    def __init__(self, cdata, currency="cur"):
        super().__init__(cdata)
        self.currency = currency

    def lines(self):
        """(line, quantity, unit, cost) for each cost line."""
        return [(name, self._values[q], unit, self._values[c]) for name, q, unit, c in LINES]

    def to_pandas(self):
        """One row per cost line: quantity, unit, cost; indexed by line."""
        pd = _optional("pandas")
        df = pd.DataFrame(self.lines(), columns=["line", "quantity", "unit", "cost"]).set_index("line")
        df.attrs["currency"] = self.currency
        return df


def data_pipeline(topology, workload, pricing, **request):
    """The data pipeline of a frozen scenario: request any of INPUTS
    (raw_bytes, preprocess_cpu_node_hours_per_tb, cpu_node_hour_price,
    dedup_kept_share, compression_ratio, cache_hit_rate, prefetch_depth,
    request_price_per_1000, object_bytes, internet_ingress_per_gb,
    nat_per_gb, storage_months). A value out of range raises the library's
    error naming the field ("pipeline.dedup_kept_share")."""
    check_handles(topology, workload, pricing, "data_pipeline: ")
    q = _request(request)
    out, err = sized("tco_pipeline"), new_error()
    check(lib.tco_data_pipeline_compute(out, q, topology._ptr, workload._ptr, pricing._ptr, err), err)
    return Pipeline(out, pricing.currency)


def _request(request):
    """The tco_pipeline_request of INPUTS given by name (tco.programme's
    data pipeline stages use it too)."""
    unknown = set(request) - set(INPUTS)
    if unknown:
        raise TypeError(f"unknown pipeline input {sorted(unknown)[0]!r}: allowed {', '.join(INPUTS)}")
    q = ffi.new("tco_pipeline_request *")
    lib.tco_pipeline_request_init(q)
    for k, v in request.items():
        setattr(q, k, number(v, k))
    return q
