"""Serving (doc/model.md, "Serving"): the accelerators a request or token
rate series needs at a latency target, the fixed vs elastic split of that
fleet and its cost per million tokens. The C library computes, in one
call over the whole series; this module lays the points out as a
DataFrame and plots the fleet against its fixed level."""
import numpy as np

from ._native import ffi, lib
from .capacity import Split, _series
from .display import money
from .errors import ParameterTypeError, check, new_error
from .handles import check_handles
from .results import Result, _optional, enum_names, sized

LIMITS = enum_names(lib.tco_serve_limit_name)  # what may bound the batch: "latency", "memory", "max_batch"
# The request's numbers the caller may set (None: the library's default).
_REAL = ("prompt_tokens", "output_tokens", "time_per_output_token", "time_to_first_token", "flops_share",
         "bandwidth_share", "memory_share", "max_batch", "memory_bandwidth_bytes_per_s", "queue_percentile",
         "experts", "experts_per_token")


class Serving(Result):
    """The fleet: one attribute per field of the library's result
    (tensor_parallel, batch, time_per_output_token, replica_output_tokens_per_second,
    peak_accelerators, fixed_accelerators, total_cost,
    cost_per_million_output_tokens, cost_per_million_tokens, and of the
    opt-in refinements utilisation, queue_wait_seconds, allreduce_seconds,
    experts_read, weight_bytes_read...);
    batch_limit_name, what bounds the batch; needed, the accelerators of
    each point (a numpy array); split, the whole fixed/elastic split
    (tco.capacity_split's); to_pandas(), one row a point; plot()."""
    _ctype = "tco_serving"

    @property
    def batch_limit_name(self):
        return LIMITS[self.batch_limit]

    def to_pandas(self):
        """One row a point: its start (hours), the rate, the accelerators
        it needs, of them the fixed ones and the elastic rest."""
        pd = _optional("pandas")
        needed = self.needed
        fixed = np.minimum(needed, self.fixed_accelerators)
        return pd.DataFrame({
            "hours": np.arange(len(needed)) * self._interval_hours,
            self._rate_name: self._rate,
            "accelerators": needed,
            "fixed": fixed,
            "elastic": needed - fixed,
        }).set_index("hours")

    def plot(self, ax=None):
        """The accelerators needed at each point against the split's fixed
        level, the elastic part shaded (matplotlib); returns the axes."""
        plt = _optional("matplotlib.pyplot")
        if ax is None:
            _, ax = plt.subplots(figsize=(9, 4))
        hours = np.arange(len(self.needed)) * self._interval_hours
        d, b = self.needed, self.fixed_accelerators
        ax.fill_between(hours, 0, np.minimum(d, b), step="post", color="#4c72b0", alpha=0.35, label="fixed, used")
        ax.fill_between(hours, b, np.maximum(d, b), step="post", color="#dd8452", alpha=0.6, label="elastic")
        ax.step(hours, d, where="post", color="black", linewidth=0.6, label="accelerators needed")
        ax.axhline(b, color="#4c72b0", linewidth=1.5, label=f"fixed {b:,.0f}")
        ax.set_xlabel("hours")
        ax.set_ylabel("accelerators")
        ax.set_title(f"serving: replicas of {self.tensor_parallel} at batch {self.batch:,.0f}, "
                     f"{money(self.cost_per_million_output_tokens)} per million output tokens")
        ax.legend(loc="upper right")
        ax.figure.tight_layout()
        return ax


def serve(topology, workload, pricing, *, requests_per_second=None, tokens_per_second=None, interval_seconds=60,
          tensor_parallel=None, tensor_parallel_allreduce=False, **request):
    """The serving fleet of a rate series (doc/model.md, "Serving"): give
    requests_per_second or tokens_per_second (output tokens), one value
    per interval_seconds. The model is the workload's (params_total,
    layers, hidden_size, heads, kv_heads, precision), the accelerator the
    topology's. Keywords, each defaulting to the library's: prompt_tokens
    and output_tokens (per request), time_per_output_token and
    time_to_first_token (s, targets; 0: none), tensor_parallel (0: the
    least power of two whose memory holds the weights), flops_share,
    bandwidth_share, memory_share, max_batch, memory_bandwidth_bytes_per_s
    (0: the catalogue's). Opt-in, off by default: queue_percentile (the
    share of requests whose wait for a batch slot plus prefill meets
    time_to_first_token), tensor_parallel_allreduce (True: the ring
    all-reduces over the topology's intra_node_gbps), experts and
    experts_per_token (routed experts per MoE layer and per token). Bad
    input raises the library's error, naming the field
    ("request.time_per_output_token")."""
    check_handles(topology, workload, pricing)
    req, arr, rate_name, _buf = _request(requests_per_second, tokens_per_second, interval_seconds, tensor_parallel,
                                         tensor_parallel_allreduce, request)
    out, split, err = sized("tco_serving"), sized("tco_split"), new_error()
    needed = np.empty(len(arr))
    check(lib.tco_serving_compute(out, split, ffi.from_buffer("double[]", needed), len(needed), req, topology._ptr,
                                  workload._ptr, pricing._ptr, err), err)
    hours = req.interval_seconds / 3600
    result = Serving(out)
    whole = Split(split)
    whole.__dict__.update(_demand=needed, _interval=hours)
    result.__dict__.update(needed=needed, split=whole, _rate=arr, _rate_name=rate_name, _interval_hours=hours)
    return result


def _request(requests_per_second, tokens_per_second, interval_seconds, tensor_parallel, tensor_parallel_allreduce,
             request):
    """The tco_serve_request of serve()'s arguments (tco.programme's serving
    stages use it too): the request, the rate array, its name, and the
    buffer the request points into (keep it alive while the request is)."""
    if (requests_per_second is None) == (tokens_per_second is None):
        raise TypeError("serve() takes one of requests_per_second or tokens_per_second")
    unknown = set(request) - set(_REAL)
    if unknown:
        raise TypeError(f"serve() got unexpected keyword arguments {sorted(unknown)}: allowed "
                        f"{', '.join(_REAL)}, tensor_parallel, tensor_parallel_allreduce, interval_seconds")
    by_tokens = tokens_per_second is not None
    rate_name = "tokens_per_second" if by_tokens else "requests_per_second"
    arr, buf = _series(tokens_per_second if by_tokens else requests_per_second, rate_name)
    req = sized("tco_serve_request")
    lib.tco_serve_request_init(req)
    req.rate, req.n = buf, len(arr)
    req.rate_unit = lib.TCO_SERVE_OUTPUT_TOKENS_PER_SECOND if by_tokens else lib.TCO_SERVE_REQUESTS_PER_SECOND
    for name, value in (("interval_seconds", interval_seconds), *request.items()):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ParameterTypeError(f"{name}: expected a number, not {value!r}", param=name)
        setattr(req, name, float(value))
    if tensor_parallel is not None:
        if isinstance(tensor_parallel, bool) or not isinstance(tensor_parallel, (int, np.integer)):
            raise ParameterTypeError(f"tensor_parallel: expected a whole number, not {tensor_parallel!r}",
                                     param="tensor_parallel")
        if not -2**31 <= tensor_parallel < 2**31:
            raise ParameterTypeError(f"tensor_parallel: {tensor_parallel} is out of range for a whole number",
                                     param="tensor_parallel")
        req.tensor_parallel = int(tensor_parallel)
    if not isinstance(tensor_parallel_allreduce, (bool, np.bool_)):
        raise ParameterTypeError(f"tensor_parallel_allreduce: expected True or False, not "
                                 f"{tensor_parallel_allreduce!r}", param="tensor_parallel_allreduce")
    req.tensor_parallel_allreduce = int(tensor_parallel_allreduce)
    return req, arr, rate_name, buf
