"""A programme of stages (doc/model.md, section 21): the raw data pulled
and prepared, pretraining, context extension, fine-tunes, evaluation,
sweeps and ablations on one cluster and one pricing table, each priced as
its estimate, laid on a time line, the store of the versions they keep,
and the model served. The C library computes; this module lays the stages
out as a DataFrame, a stage waterfall and a Gantt chart."""
import numbers

import numpy as np

from . import pipeline as _pipeline, serving as _serving
from ._native import ffi, lib
from .errors import ParameterTypeError, check, new_error
from .handles import Pricing, Topology, Workload
from .display import money, money_axis
from .results import CATEGORIES, _optional, sized

#: The stage kinds by name, as the library names them ("pretraining"...).
KINDS = tuple(ffi.string(lib.tco_stage_kind_name(k)).decode() for k in range(1, 64)
              if lib.tco_stage_kind_name(k) != ffi.NULL)
START = lib.TCO_STAGE_START
_RESULT_FIELDS = ("estimate_total", "cluster_share", "total", "share", "start_hours", "end_hours", "accelerators",
                  "runs", "concurrent_runs", "waves", "cost_per_run", "effective_accelerator_hours",
                  "cost_per_effective_accelerator_hour", "cost_per_million_tokens", "store_gb", "tokens",
                  "cpu_node_hours", "fleet_peak_accelerators", "fleet_accelerator_hours")
_PROGRAMME_FIELDS = ("total", "stages_total", "storage_lifecycle", "makespan_hours", "makespan_months",
                     "cluster_accelerators", "peak_accelerators", "accelerator_hours", "utilisation", "runs",
                     "cost_per_experiment", "store_gb", "store_growth_gb_per_month", "cluster_hours",
                     "pipeline_total", "serving_total", "served_tokens", "cost_per_million_tokens_served")
_COLOURS = {"data_pipeline": "tab:green", "serving": "tab:orange"}  # the stages off the cluster; the rest tab:blue


class Stage:
    """One stage: its kind (one of tco.STAGE_KINDS, e.g. "pretraining",
    "sweep"), a tco.Workload (its runs parameter is the stage's runs), the
    stage it starts after (an earlier stage's index or name, or a list of
    them: it starts when the last ends; None: the programme's start), the
    versions of its checkpoint kept to the end, and a name (default: the
    kind).

    A "data_pipeline" stage takes pipeline, a dict of tco.data_pipeline's
    inputs (raw_bytes, preprocess_cpu_node_hours_per_tb, ...), and
    cpu_nodes, the CPU nodes it runs on; its workload is the one whose data
    it prepares. What a stage leaves in the store (its versions kept, a
    pipeline's data) moves to the warm tier warm_after_days after its end,
    and to the cold tier cold_after_days after (0: never). A "serving"
    stage takes serving, a dict of tco.serve's
    keywords (requests_per_second or tokens_per_second, interval_seconds,
    time_per_output_token, ...), where a single rate with hours=H is that
    rate for H hours; its workload is the model served."""

    def __init__(self, kind, workload, after=None, versions_kept=0, name=None, *, pipeline=None, cpu_nodes=0,
                 serving=None, warm_after_days=0, cold_after_days=0):
        if kind not in KINDS:
            raise ParameterTypeError(f"kind = {kind!r}: allowed {', '.join(KINDS)}", param="kind")
        if not isinstance(workload, Workload):
            raise TypeError(f"expected a tco.Workload, not {type(workload).__name__}")
        if isinstance(versions_kept, bool) or not isinstance(versions_kept, (int, np.integer)):
            raise ParameterTypeError(f"versions_kept: expected a whole number, not {versions_kept!r}",
                                     param="versions_kept")
        for key, value in (("cpu_nodes", cpu_nodes), ("warm_after_days", warm_after_days),
                           ("cold_after_days", cold_after_days)):
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise ParameterTypeError(f"{key}: expected a number, not {value!r}", param=key)
        for key, value in (("pipeline", pipeline), ("serving", serving)):
            if value is not None and not isinstance(value, dict):
                raise TypeError(f"{key}: expected a dict of its request, not {type(value).__name__}")
        self.kind, self.workload, self.after = kind, workload, after
        self.versions_kept, self.name = int(versions_kept), name if name is not None else kind
        self.pipeline, self.cpu_nodes, self.serving = pipeline, float(cpu_nodes), serving
        self.warm_after_days, self.cold_after_days = float(warm_after_days), float(cold_after_days)

    def __repr__(self):
        return f"Stage({self.kind!r}, name={self.name!r}, after={self.after!r}, versions_kept={self.versions_kept})"


class Programme:
    """A programme priced. Attributes: the programme's figures (total,
    stages_total, storage_lifecycle, makespan_hours, makespan_months,
    peak_accelerators, utilisation, runs, cost_per_experiment, store_gb,
    store_growth_gb_per_month, stage_count...), cost and share (dicts by category), and
    stages: a DataFrame, one row a stage, with its figures and categories."""

    def __init__(self, g, rows, stages, currency, also_after):
        self.currency = currency
        self.stage_count = g.stages
        for f in _PROGRAMME_FIELDS:
            setattr(self, f, getattr(g, f))
        self.cost = {c: g.cost[i] for i, c in enumerate(CATEGORIES)}
        self.share = {c: g.share[i] for i, c in enumerate(CATEGORIES)}
        self._rows = [{"name": s.name, "kind": s.kind,
                       "after": None if r.after == START else stages[r.after].name,
                       "also_after": [stages[k].name for k in also],
                       **{f: getattr(r, f) for f in _RESULT_FIELDS},
                       **{c: r.cost[i] for i, c in enumerate(CATEGORIES)}}
                      for s, r, also in zip(stages, rows, also_after)]

    @property
    def stages(self):
        return _optional("pandas").DataFrame(self._rows).set_index("name")

    to_pandas = stages.fget

    def __repr__(self):
        return (f"Programme({self.stage_count} stages, total={self.total:,.0f} {self.currency}, "
                f"{self.makespan_months:.2f} months, store {self.store_gb:,.0f} GB)")

    def plot(self, ax=None):
        """The stage waterfall: each stage's cost stacked onto those before
        it (the data pipeline in green, serving in orange), then the
        storage of the versions kept and the prepared data, up to the
        total (matplotlib); returns the axes."""
        plt = _optional("matplotlib.pyplot")
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 4))
        names = [r["name"] for r in self._rows] + ["store", "total"]
        steps = [r["total"] for r in self._rows] + [self.storage_lifecycle]
        bottoms = np.concatenate([[0], np.cumsum(steps)[:-1]])
        colours = [_COLOURS.get(r["kind"], "tab:blue") for r in self._rows] + ["tab:purple"]
        ax.bar(names[:-1], steps, bottom=bottoms, color=colours)
        ax.bar(names[-1], self.total, color="tab:gray")
        ax.set_ylabel(f"cost ({self.currency})")
        money_axis(ax.yaxis)
        ax.set_title(f"programme: {money(self.total, self.currency)} over {self.makespan_months:.1f} months")
        ax.tick_params(axis="x", rotation=30, labelsize=7)
        ax.figure.tight_layout()
        return ax

    def timeline(self, ax=None):
        """The time line: one bar a stage from its start to its end, in
        days, labelled with the cluster's accelerators it holds (a data
        pipeline its CPU node-hours, serving its rented fleet's peak)
        (matplotlib); returns the axes."""
        plt = _optional("matplotlib.pyplot")
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 0.4 * len(self._rows) + 1.5))
        for i, r in enumerate(self._rows):
            start, length = r["start_hours"] / 24, (r["end_hours"] - r["start_hours"]) / 24
            ax.barh(i, length, left=start, color=_COLOURS.get(r["kind"], "tab:blue"))
            label = {"data_pipeline": f" {r['cpu_node_hours']:,.0f} CPU node-h",
                     "serving": f" fleet of {r['fleet_peak_accelerators']:,.0f}, rented"}.get(
                         r["kind"], f" {r['accelerators']:.0f}")
            ax.text(start + length, i, label, va="center", fontsize=7)
        ax.set_yticks(range(len(self._rows)), [r["name"] for r in self._rows])
        ax.invert_yaxis()
        ax.set_xlabel("days from the programme's start")
        ax.set_title(f"peak {self.peak_accelerators:.0f} of {self.cluster_accelerators:.0f} accelerators, "
                     f"utilisation {self.utilisation:.0%}")
        ax.figure.tight_layout()
        return ax


def programme(topology, pricing, stages):
    """Prices a programme of stages (tco.Stage, in order) on one topology
    and pricing table (doc/model.md, section 21)."""
    if not isinstance(topology, Topology) or not isinstance(pricing, Pricing):
        raise TypeError("expected a tco.Topology and a tco.Pricing")
    stages = list(stages)
    index = {}
    for i, s in enumerate(stages):
        if not isinstance(s, Stage):
            raise TypeError(f"stages[{i}]: expected a tco.Stage, not {type(s).__name__}")
        index.setdefault(s.name, i)
    n = len(stages)
    arr = sized("tco_stage", max(n, 1))
    keep, also_after = [], []
    for i, s in enumerate(stages):
        after = [_stage_index(a, index, i) for a in (s.after if isinstance(s.after, (list, tuple)) else [s.after])]
        if not after:
            raise ParameterTypeError(f"stages[{i}].after = []: give None (the programme's start), or one or more "
                                     "earlier stages", param=f"stages[{i}].after")
        also_after.append(after[1:])
        if len(after) > 1:  # the first is tco_stage.after, the rest also_after
            also = ffi.new("int32_t[]", after[1:])
            keep.append(also)
            arr[i].also_after, arr[i].n_also_after = also, len(after) - 1
        name = ffi.new("char[]", s.name.encode())
        keep.append(name)
        arr[i].kind = KINDS.index(s.kind) + 1
        arr[i].after = after[0]
        arr[i].name = name
        arr[i].workload = s.workload._ptr
        arr[i].versions_kept = max(min(s.versions_kept, 2**31 - 1), -2**31)
        arr[i].cpu_nodes = s.cpu_nodes
        arr[i].warm_after_days, arr[i].cold_after_days = s.warm_after_days, s.cold_after_days
        if s.pipeline is not None:
            q = _pipeline._request(s.pipeline)
            keep.append(q)
            arr[i].pipeline = q
        if s.serving is not None:
            q = _serving_request(s.serving, i)
            keep.append(q)
            arr[i].serving = q[0]
    out, rows, err = sized("tco_programme"), sized("tco_stage_result", max(n, 1)), new_error()
    check(lib.tco_programme_compute(out, rows, ffi.sizeof("tco_stage_result"), arr, n, topology._ptr, pricing._ptr,
                                    err), err)
    return Programme(out, [rows[i] for i in range(n)], stages, pricing.currency, also_after)


def _stage_index(after, index, i):
    """An earlier stage given by index or name as its index; None: the start."""
    if after is None:
        return START
    if isinstance(after, str):
        if after not in index:
            raise ParameterTypeError(f"stages[{i}].after = {after!r} names no stage", param=f"stages[{i}].after")
        return index[after]
    if isinstance(after, bool) or not isinstance(after, (int, np.integer)) or not -2**31 <= after < 2**31:
        raise ParameterTypeError(f"stages[{i}].after: expected a stage's index or name, not {after!r}",
                                 param=f"stages[{i}].after")
    return int(after)


def _serving_request(serving, i):
    """A serving stage's dict as tco.serve's keywords; a single rate with
    hours=H is one point of H hours."""
    kw = dict(serving)
    hours = kw.pop("hours", None)
    rates = {k: kw.pop(k, None) for k in ("requests_per_second", "tokens_per_second")}
    if hours is not None:
        given = [v for v in rates.values() if v is not None]
        if "interval_seconds" in kw or len(given) != 1 or not isinstance(given[0], numbers.Real):
            raise ParameterTypeError(f"stages[{i}].serving: hours goes with one constant rate "
                                     "(requests_per_second or tokens_per_second), not with interval_seconds",
                                     param=f"stages[{i}].serving.hours")
        if isinstance(hours, bool) or not isinstance(hours, numbers.Real):
            raise ParameterTypeError(f"stages[{i}].serving.hours: expected a number, not {hours!r}",
                                     param=f"stages[{i}].serving.hours")
        rates = {k: None if v is None else [v] for k, v in rates.items()}
        kw["interval_seconds"] = float(hours) * 3600
    return _serving._request(rates["requests_per_second"], rates["tokens_per_second"],
                             kw.pop("interval_seconds", 60), kw.pop("tensor_parallel", None),
                             kw.pop("tensor_parallel_allreduce", False), kw)
