"""The waste in usage records (doc/model.md, section 17): idle and
over-sized accelerators, overruns, failures run again, checkpoints and
datasets kept too long or twice, storage a finished project left, and the
cluster's idle capacity. The C library finds and prices; this module puts
the findings in a DataFrame."""
import numpy as np

from ._native import ffi, lib
from .display import money, money_axis
from .errors import ParameterTypeError, check, new_error
from .handles import check_handles
from .records import Attribution, Records, _arrays, attribute
from .results import _optional, enum_names, sized

KINDS = enum_names(lambda k: lib.tco_finding_kind_name(k + 1))  # "idle_capacity" is kind 1
ACTIONS = {k: ffi.string(lib.tco_finding_action(i + 1)).decode() for i, k in enumerate(KINDS)}
# The thresholds: tco_waste_request's fields, their defaults the library's.
_DEFAULTS = sized("tco_waste_request")
lib.tco_waste_request_init(_DEFAULTS)
THRESHOLDS = {f: getattr(_DEFAULTS, f) for f, _ in ffi.typeof("tco_waste_request").fields if f != "size"}
_NONE = 0xFFFFFFFF


class Waste:
    """The findings, largest first. findings: a DataFrame, one row a
    finding: kind, the group's value of the grouping key, record (its index
    in the records; missing for the cluster's idle capacity), job_id and
    name (its tags), other (the record it re-runs or copies), since and
    until (UTC timestamps), cost and per_day (in the currency), accelerator
    hours, gb, action and tags (a dict). total: their cost added up."""

    def __init__(self, ptr, attribution, records=None):
        ptr = ffi.gc(ptr, lib.tco_findings_free)
        records, groups = records or attribution.records, attribution.groups
        self.by, self.currency = attribution.by[0], attribution.currency
        self.total = lib.tco_findings_total(ptr)
        f, err, rows = sized("tco_finding"), new_error(), []
        for i in range(lib.tco_findings_count(ptr)):
            check(lib.tco_findings_at(f, ptr, i, err), err)
            tags = records.tags_of(f.record) if f.record != _NONE else {}
            rows.append({"kind": KINDS[f.kind - 1],
                         self.by: groups[self.by].iloc[f.group] if f.group != _NONE else None,
                         "record": f.record if f.record != _NONE else None,
                         "job_id": tags.get("job_id"), "name": tags.get("name"),
                         "other": f.other if f.other != _NONE else None,
                         "since": f.since, "until": f.until, "cost": f.cost, "per_day": f.per_day,
                         "accelerator_hours": f.accelerator_hours, "gb": f.gb,
                         "action": ACTIONS[KINDS[f.kind - 1]], "tags": tags})
        self._rows = rows

    @property
    def findings(self):
        pd = _optional("pandas")
        columns = ["kind", self.by, "record", "job_id", "name", "other", "since", "until", "cost", "per_day",
                   "accelerator_hours", "gb", "action", "tags"]
        df = pd.DataFrame(self._rows, columns=columns)
        for c in ("record", "other"):
            df[c] = df[c].astype("Int64")
        for c in ("since", "until"):
            df[c] = pd.to_datetime(df[c], unit="s", utc=True)
        return df

    to_pandas = findings.fget

    def __len__(self):
        return len(self._rows)

    def __repr__(self):
        return f"Waste({len(self._rows)} findings, total={self.total:,.2f} {self.currency})"

    def plot(self, ax=None):
        """The waste by kind and by group, stacked bars (matplotlib);
        returns the axes."""
        plt = _optional("matplotlib.pyplot")
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 4))
        df = self.findings
        if len(df):
            table = df.fillna({self.by: "(cluster)"}).pivot_table(index="kind", columns=self.by, values="cost",
                                                                  aggfunc="sum", fill_value=0)
            table = table.loc[table.sum(axis=1).sort_values().index]
            left = np.zeros(len(table))
            for col in table.columns:
                ax.barh(table.index, table[col], left=left, label=str(col))
                left += table[col].to_numpy()
            ax.legend(fontsize=7, loc="lower right", title=self.by)
        money_axis(ax.xaxis)
        ax.set_xlabel(f"waste in the period ({self.currency})")
        ax.set_title(f"waste: {money(self.total, self.currency)} in {len(df)} findings")
        ax.figure.tight_layout()
        return ax


def find_waste(records, topology=None, workload=None, pricing=None, *, by="project", period=None,
               attribution=None, **thresholds):
    """Finds the waste in the records (doc/model.md, section 17), priced as
    tco.attribute prices them: either an Attribution (then the records and
    handles it was made from), or records and the three handles (then by
    and period as for tco.attribute). thresholds: any of THRESHOLDS
    (idle_utilisation, idle_hours, oversized_utilisation, max_runtime_hours,
    rerun_hours, retention_days, orphan_days); 0 turns the last four off."""
    if isinstance(records, Attribution):
        attribution = records
    elif attribution is None:
        if not isinstance(records, Records):
            raise TypeError(f"records: expected tco.Records or tco.Attribution, not {type(records).__name__}")
        attribution = attribute(records, topology, workload, pricing, by=by, period=period)
    req = _thresholds(thresholds)
    recs = attribution.records
    out, err = ffi.new("tco_findings **"), new_error()
    if recs is None:  # settled from parts: the cluster's idle capacity alone (find_waste_part finds the rest)
        check(lib.tco_find_waste(out, attribution._ptr, ffi.NULL, 0, ffi.NULL, 0, attribution._tags, req, err), err)
        return Waste(out[0], attribution)
    data, pairs = _arrays(recs)
    check(lib.tco_find_waste(out, attribution._ptr, data, len(recs), pairs, len(recs.tag_pairs), recs._tags, req,
                             err), err)
    return Waste(out[0], attribution)


def _thresholds(thresholds):
    """The tco_waste_request of find_waste's thresholds."""
    req = sized("tco_waste_request")
    lib.tco_waste_request_init(req)
    for name, value in thresholds.items():
        if name not in THRESHOLDS:
            raise TypeError(f"unexpected threshold {name!r}: allowed {', '.join(THRESHOLDS)}")
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ParameterTypeError(f"{name}: expected a number, not {value!r}", param=name)
        setattr(req, name, float(value))
    return req


def find_waste_part(records, whole, topology, workload, pricing, **thresholds):
    """The waste in a share of the records of whole, an Attribution settled
    from parts (Part.settle; doc/spark.md): find_waste's findings for these
    records, numbered within the share, without the cluster's idle capacity
    (find_waste(whole) gives it). The records of one project, one job_name,
    one fingerprint or one name must be in one share."""
    if not isinstance(records, Records):
        raise TypeError(f"records: expected tco.Records, not {type(records).__name__}")
    if not isinstance(whole, Attribution):
        raise TypeError(f"whole: expected tco.Attribution, not {type(whole).__name__}")
    check_handles(topology, workload, pricing)
    req = _thresholds(thresholds)
    out, err = ffi.new("tco_findings **"), new_error()
    data, pairs = _arrays(records)
    check(lib.tco_find_waste_part(out, whole._ptr, data, len(records), pairs, len(records.tag_pairs), records._tags,
                                  req, topology._ptr, workload._ptr, pricing._ptr, err), err)
    return Waste(out[0], whole, records)
