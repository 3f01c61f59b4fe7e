"""What each saving costs in return (doc/model.md, section 22): a cut the
library prices (coarser metric sampling, shorter log retention, fewer
checkpoints kept, rarer checkpoints, fewer replicas, more spot, a smaller
reserved baseline under a demand series, a tighter idle reclaim) beside
the side-effect it implies, priced by the library; a saving whose
side-effect costs more than it saves is flagged. One library call per
tradeoff, one for the whole table."""
from ._native import ffi, lib
from .capacity import _series
from .errors import RangeError, check, new_error, raise_for
from .handles import check_handles
from .results import Result, _optional, sized

# tco_saving_kind by the library's names: the enum's values, named by
# tco_saving_name (no copy of the names is kept here).
KINDS = {ffi.string(lib.tco_saving_name(k)).decode(): k
         for k in range(1, 64) if lib.tco_saving_name(k) != ffi.NULL}
_VERDICTS = {lib.TCO_VERDICT_WORTH_IT: "worth_it", lib.TCO_VERDICT_FLAGGED: "flagged",
             lib.TCO_VERDICT_NO_SAVING: "no_saving"}
# The side-effect inputs of tco_saving, as keyword arguments.
# demand, a series, is one of them too (smaller_baseline).
SIDE_INPUTS = ("staff_cost_per_hour", "log_needed_share", "incident_age_days", "rediagnosis_hours",
               "checkpoint_corrupt_probability", "replica_availability", "interval_hours", "baseline",
               "acquire_hours", "wait_cost_per_accelerator_hour", "idle_timeout_hours", "idle_gap_hours",
               "idle_periods")


def _text(p):
    return ffi.string(p).decode() if p != ffi.NULL else None


class Tradeoff(Result):
    """One saving and what it costs in return: saving (name of the kind),
    side_effect_name and side_effect_unit, current_value and new_value,
    total_before and total_after, saving (cur), side_effect (in its unit),
    side_effect_accelerator_hours, side_effect_cost (cur), net (saving -
    side_effect_cost), verdict ("worth_it", "flagged", "no_saving"),
    flagged, in_estimate (the estimate itself prices the side-effect) and
    status (0, or why a row of tco.tradeoffs could not be priced)."""
    _ctype = "tco_tradeoff"
    COLUMNS = ("kind", "side_effect_name", "current_value", "new_value", "saving", "side_effect",
               "side_effect_unit", "side_effect_cost", "net", "verdict", "flagged", "in_estimate", "status")

    def __init__(self, cdata):
        super().__init__(cdata)
        v = self._values
        k = v["kind"]
        v["kind"] = _text(lib.tco_saving_name(k))
        v["side_effect_name"] = _text(lib.tco_saving_side_effect(k))
        v["side_effect_unit"] = _text(lib.tco_saving_side_effect_unit(k))
        v["verdict"] = _VERDICTS.get(v["verdict"])
        v["flagged"] = bool(v["flagged"])
        v["in_estimate"] = bool(v["in_estimate"])

    @property
    def error(self):
        """None, or the exception of a row that could not be priced."""
        if self.status == lib.TCO_OK:
            return None
        try:
            raise_for(self.status, new_error(), f"{self.kind} at its suggested value")
        except Exception as e:  # noqa: BLE001 - the library's class for the code
            return e


class Tradeoffs(list):
    """The table of tco.tradeoffs, in kind order."""

    def __init__(self, rows, currency):
        super().__init__(rows)
        self.currency = currency

    def __getitem__(self, key):
        if isinstance(key, str):
            for r in self:
                if r.kind == key:
                    return r
            raise KeyError(f"no tradeoff of a saving named {key!r}")
        return super().__getitem__(key)

    def to_pandas(self):
        """One row per saving: kind, side_effect_name, current_value,
        new_value, saving, side_effect, side_effect_unit, side_effect_cost,
        net, verdict, flagged, in_estimate, status."""
        pd = _optional("pandas")
        return pd.DataFrame([{c: r.to_dict()[c] for c in Tradeoff.COLUMNS} for r in self],
                            columns=list(Tradeoff.COLUMNS))

    def plot(self, ax=None):
        """Saving against side-effect cost per kind, flagged ones in red."""
        plt = _optional("matplotlib.pyplot")
        rows = [r for r in self if r.status == lib.TCO_OK]
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 0.45 * len(rows) + 1.5))
        y = list(range(len(rows)))[::-1]
        ax.barh([i + 0.2 for i in y], [r.saving for r in rows], height=0.4, color="#55a868", label="saving")
        ax.barh([i - 0.2 for i in y], [r.side_effect_cost for r in rows], height=0.4,
                color=["#c44e52" if r.flagged else "#8c8c8c" for r in rows], label="side-effect cost")
        ax.set_yticks(y, [r.kind + (" (flagged)" if r.flagged else "") for r in rows])
        ax.set_xlabel(f"{self.currency} over the runs")
        ax.legend(loc="lower right")
        ax.set_title("What each saving costs in return")
        return ax


def _saving(kind, value, side):
    """The tco_saving, and the buffer of its demand series to keep alive
    for the call."""
    demand = side.pop("demand", None)
    unknown = set(side) - set(SIDE_INPUTS)
    if unknown:
        raise TypeError(f"unknown side-effect input {sorted(unknown)[0]!r}: allowed demand, "
                        f"{', '.join(SIDE_INPUTS)}")
    q = ffi.new("tco_saving *")
    lib.tco_saving_init(q)
    q.kind, q.value = kind, float(value)
    for k, v in side.items():
        setattr(q, k, float(v))
    buf = None
    if demand is not None:
        arr, buf = _series(demand, "demand")
        q.demand, q.n = buf, len(arr)
    return q, buf


def tradeoff(topology, workload, pricing, kind, value, **side_inputs):
    """One saving weighed: kind by name ("metrics_interval", "log_retention",
    "checkpoint_retention", "checkpoint_interval", "fewer_replicas",
    "more_spot", "smaller_baseline", "idle_reclaim") or value, value the new
    value in the kind's unit (a cut from the current one), side_inputs any
    of SIDE_INPUTS (their defaults are the library's: tco_saving_init) and
    demand, the accelerators needed at each interval_hours for
    smaller_baseline, whose current value is baseline (idle_reclaim's:
    idle_timeout_hours)."""
    check_handles(topology, workload, pricing, "tradeoff: ")
    if isinstance(kind, str):
        if kind not in KINDS:
            raise RangeError(f"kind = {kind!r} names no saving: allowed {', '.join(KINDS)}", code=lib.TCO_E_RANGE,
                             param="saving.kind")
        kind = KINDS[kind]
    q, _keep = _saving(int(kind), value, side_inputs)
    out, err = sized("tco_tradeoff"), new_error()
    check(lib.tco_tradeoff_compute(out, q, topology._ptr, workload._ptr, pricing._ptr, err), err)
    return Tradeoff(out)


def tradeoffs(topology, workload, pricing, **side_inputs):
    """Every saving that can cut the scenario, at the library's suggested
    values (doc/model.md, section 22): a Tradeoffs table (.to_pandas(),
    .plot()). smaller_baseline joins with a demand series and a baseline
    above its cost optimum, idle_reclaim with an idle_timeout_hours."""
    check_handles(topology, workload, pricing, "tradeoffs: ")
    q, _keep = _saving(0, 0, side_inputs)
    cap = len(KINDS)
    out, n, err = sized("tco_tradeoff", cap), ffi.new("size_t *"), new_error()
    check(lib.tco_tradeoffs(out, ffi.sizeof("tco_tradeoff"), cap, n, q, topology._ptr, workload._ptr,
                            pricing._ptr, err), err)
    return Tradeoffs([Tradeoff(r) for r in out[0:min(cap, n[0])]], pricing.currency)
