"""Capacity questions over demand series (numpy arrays, read in place):
peaks, percentiles, the fixed vs elastic split, bandwidth bursts, storage
lifecycle, log governance and budgets (doc/model.md, sections 6 to 10)."""
import numpy as np

from ._native import ffi, lib
from .errors import ParameterTypeError, check, new_error, number
from .display import money
from .results import Result, _optional, enum_names


def _series(values, name):
    """A 1-D float64 array the library can read without a copy (one is made
    only when the input is not already such an array)."""
    arr = np.asarray(values)
    if arr.dtype.kind not in "iuf":  # a bool is no number, as in C and Go
        raise ParameterTypeError(f"{name} must hold numbers, not {arr.dtype}", param=name)
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, not of shape {arr.shape}")
    return arr, ffi.from_buffer("double[]", arr)


def _out(ctype):
    out = ffi.new(f"{ctype} *")
    out.size = ffi.sizeof(ctype)
    return out


class DemandStats(Result):
    """Peak and average of a demand series."""
    _ctype = "tco_demand_stats"


class Split(Result):
    """Fixed (reserved) against elastic (on-demand, spot) capacity."""
    _ctype = "tco_split"

    def plot(self, ax=None):
        """The demand curve, the baseline, and the elastic part shaded."""
        plt = _optional("matplotlib.pyplot")
        if ax is None:
            _, ax = plt.subplots(figsize=(9, 4))
        hours = np.arange(len(self._demand)) * self._interval
        d, b = self._demand, self.baseline
        ax.fill_between(hours, 0, np.minimum(d, b), color="#4c72b0", alpha=0.35, label="reserved, used")
        ax.fill_between(hours, b, np.maximum(d, b), color="#dd8452", alpha=0.6, label="elastic")
        ax.plot(hours, d, color="black", linewidth=0.4, label="demand")
        ax.axhline(b, color="#4c72b0", linewidth=1.5, label=f"baseline {b:,.0f}")
        ax.set_xlabel("hours")
        ax.set_ylabel("accelerators")
        ax.set_title(f"fixed against elastic: {money(self.total_cost)} in all, "
                     f"{money(self.savings_vs_on_demand)} below all on demand")
        ax.legend(loc="upper right")
        ax.figure.tight_layout()
        return ax


class Bandwidth(Result):
    """Peak against average storage and network bandwidth of a run."""
    _ctype = "tco_bandwidth"


class Lifecycle(Result):
    """Hot, warm and cold storage under the workload's retention policy."""
    _ctype = "tco_lifecycle"
    CLASSES = enum_names(lib.tco_data_class_name)
    TIERS = enum_names(lib.tco_tier_name)

    def to_pandas(self):
        """GB-months and cost by data class and tier."""
        pd = _optional("pandas")
        rows = [(c, t, self.gb_months[i][j], self.cost[i][j])
                for i, c in enumerate(self.CLASSES) for j, t in enumerate(self.TIERS)]
        return pd.DataFrame(rows, columns=["data", "tier", "gb_months", "cost"])


class Logging(Result):
    """Monitoring cost per month now and under a proposed sampling and retention."""
    _ctype = "tco_logging"


class Budget(Result):
    """Spending against the budget lines of a pricing table.
    days_to_exhaustion is None when the budget never runs out at the burn
    rate, growth None without a previous period or after one that spent
    nothing (doc/model.md, section 11)."""
    _ctype = "tco_budget"
    STATUS = enum_names(lib.tco_budget_status_name)

    def __init__(self, cdata):
        super().__init__(cdata)
        v = self._values
        if not v.pop("exhaustion_defined"):
            v["days_to_exhaustion"] = None
        if not v.pop("growth_defined"):
            v["growth"] = None

    @property
    def status_name(self):
        return self.STATUS[self.status]

    @property
    def projected_status_name(self):
        return self.STATUS[self.projected_status]


def demand_stats(demand, interval_hours=1.0):
    arr, buf = _series(demand, "demand")
    out, err = _out("tco_demand_stats"), new_error()
    check(lib.tco_demand_stats_compute(out, buf, len(arr), number(interval_hours, "interval_hours"), err), err)
    return DemandStats(out)


def percentiles(demand, q):
    """numpy.percentile(demand, q) with the library's checks."""
    arr, buf = _series(demand, "demand")
    qs, qbuf = _series(np.atleast_1d(q), "q")
    out = np.empty(len(qs))
    err = new_error()
    check(lib.tco_demand_percentiles(ffi.from_buffer("double[]", out), qbuf, len(qs), buf, len(arr), err), err)
    return out if np.ndim(q) else float(out[0])


def time_above(demand, thresholds, interval_hours=1.0):
    """Hours the demand is strictly above each threshold."""
    arr, buf = _series(demand, "demand")
    th, tbuf = _series(np.atleast_1d(thresholds), "thresholds")
    out = np.empty(len(th))
    err = new_error()
    check(lib.tco_demand_time_above(ffi.from_buffer("double[]", out), tbuf, len(th), buf, len(arr),
                                    number(interval_hours, "interval_hours"), err), err)
    return out if np.ndim(thresholds) else float(out[0])


def capacity_for_unmet(demand, max_unmet_share, interval_hours=1.0):
    """The least capacity leaving at most that share of accelerator-hours unserved."""
    arr, buf = _series(demand, "demand")
    out, err = ffi.new("double *"), new_error()
    check(lib.tco_capacity_for_unmet(out, number(max_unmet_share, "max_unmet_share"), buf, len(arr),
                                     number(interval_hours, "interval_hours"), err), err)
    return out[0]


def capacity_split(demand, interval_hours, topology, workload, pricing, baseline=None):
    """The cost-minimising reserved baseline (or the one given) and the split."""
    arr, buf = _series(demand, "demand")
    out, err = _out("tco_split"), new_error()
    interval_hours = number(interval_hours, "interval_hours")
    args = (buf, len(arr), interval_hours, topology._ptr, workload._ptr, pricing._ptr, err)
    if baseline is None:
        check(lib.tco_capacity_split(out, *args), err)
    else:
        check(lib.tco_capacity_split_at(out, baseline, *args), err)
    split = Split(out)
    split.__dict__.update(_demand=arr, _interval=interval_hours)
    return split


def bandwidth(topology, workload, pricing):
    out, err = _out("tco_bandwidth"), new_error()
    check(lib.tco_bandwidth_compute(out, topology._ptr, workload._ptr, pricing._ptr, err), err)
    return Bandwidth(out)


def lifecycle(topology, workload, pricing):
    out, err = _out("tco_lifecycle"), new_error()
    check(lib.tco_lifecycle_compute(out, topology._ptr, workload._ptr, pricing._ptr, err), err)
    return Lifecycle(out)


def logging_compare(topology, workload, pricing, interval_seconds, retention_days):
    """Monitoring per month at the workload's settings and at the proposed ones."""
    out, err = _out("tco_logging"), new_error()
    check(lib.tco_logging_compare(out, number(interval_seconds, "interval_seconds"),
                                  number(retention_days, "retention_days"), topology._ptr, workload._ptr,
                                  pricing._ptr, err), err)
    return Logging(out)


def budget(spend, pricing, interval_days=1.0, previous=None):
    """Status of the current period's spend (one value per interval)."""
    arr, buf = _series(spend, "spend")
    prev, pbuf = _series(previous, "previous") if previous is not None else (np.empty(0), ffi.NULL)
    out, err = _out("tco_budget"), new_error()
    check(lib.tco_budget_compute(out, buf, len(arr), number(interval_days, "interval_days"), pbuf, len(prev),
                                 pricing._ptr, err), err)
    return Budget(out)
