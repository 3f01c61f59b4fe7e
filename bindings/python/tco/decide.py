"""Decisions (doc/model.md, sections 12 to 15): options side by side on cost
per unit of effective output, with payback and break-even; a run sized to a
deadline, a budget or both; the tornado of what the total hangs on; and
seeded Monte Carlo bands. Each function is one library call: no number here
comes from a Python loop of estimates."""
from dataclasses import dataclass
from typing import Optional

import numpy as np

from ._native import ffi, lib
from .capacity import _series
from .errors import RangeError, check, new_error, number, raise_for
from .handles import check_handles
from .display import money, money_axis
from .display import progress as _progress
from .params import PARAMS, param
from .results import CATEGORIES, ESTIMATE_FIELDS, PRICE_CLASSES, WASTES, Result, _optional, sized

# ---- comparing options ------------------------------------------------------

class Option(Result):
    """One option of a comparison, set against the first (the baseline).

    Every field of tco_option as an attribute, in the pricing table's
    currency: total, cost and difference (dicts by category, as
    Estimate.cost), cost_per_run, cost_per_million_tokens,
    cost_per_effective_accelerator_hour, cost_per_pflop_day, one_off,
    recurring_per_run, saving_per_run, saving_per_month, pays_back and
    cheaper (bools), payback_runs and payback_months (0 when it never pays
    back, or has nothing to repay), breakeven_utilisation, breakeven_rate and
    scenario_fingerprint."""
    _ctype = "tco_option"
    _BY_CATEGORY = ("cost", "difference")
    _FLAGS = ("pays_back", "cheaper")

    def __init__(self, cdata, name, currency):  # Result.__init__ would read the arrays as plain lists
        values = {}
        for field, _ in ffi.typeof(self._ctype).fields:
            if field == "size":
                continue
            v = getattr(cdata, field)
            if field in self._BY_CATEGORY:
                v = {c: v[i] for i, c in enumerate(CATEGORIES)}
            elif field in self._FLAGS:
                v = bool(v)
            elif field == "scenario_fingerprint":
                v = int(v)
            values[field] = v
        self._values = values
        self.name = name
        self.currency = currency

    def __repr__(self):
        return (f"Option({self.name!r}, total={self.total:,.2f} {self.currency}, "
                f"cost_per_million_tokens={self.cost_per_million_tokens:.4g}, pays_back={self.pays_back})")


class Comparison(list):
    """The options, baseline first (a list of Option; also indexed by name)."""

    def __init__(self, options, currency):
        super().__init__(options)
        self.currency = currency

    @property
    def names(self):
        return [o.name for o in self]

    @property
    def baseline(self):
        return self[0]

    def __getitem__(self, key):
        if isinstance(key, str):
            for o in self:
                if o.name == key:
                    return o
            raise KeyError(f"no option is named {key!r}: the options are {', '.join(map(repr, self.names))}")
        return super().__getitem__(key)

    def to_pandas(self):
        """The options side by side: one column per option (named as the
        options are), one row per figure: every scalar field of tco_option
        (total, total_difference, the unit costs, one_off, the saving,
        pays_back, cheaper, the payback and the break-evens), then
        cost.<category> and difference.<category> (the Monte Carlo series'
        names). .T gives one row per option."""
        pd = _optional("pandas")
        scalars = [k for k in self[0].to_dict() if k not in Option._BY_CATEGORY and k != "scenario_fingerprint"]
        index = scalars + [f"cost.{c}" for c in CATEGORIES] + [f"difference.{c}" for c in CATEGORIES]
        columns = {o.name: [getattr(o, k) for k in scalars] + [o.cost[c] for c in CATEGORIES] +
                   [o.difference[c] for c in CATEGORIES] for o in self}
        return pd.DataFrame(columns, index=pd.Index(index, name="figure")).rename_axis(columns="option")

    def plot(self, ax=None):
        """Each option's cost by category, stacked, with its cost per
        million tokens over the bar; returns the axes."""
        plt = _optional("matplotlib.pyplot")
        if ax is None:
            _, ax = plt.subplots(figsize=(1.6 * len(self) + 4, 4))
        bottom = np.zeros(len(self))
        x = np.arange(len(self))
        for c in CATEGORIES:
            v = np.array([o.cost[c] for o in self])
            if v.any():
                ax.bar(x, v, bottom=bottom, label=c)
                bottom += v
        for i, o in enumerate(self):
            ax.annotate(f"{o.cost_per_million_tokens:,.3g} / M tokens", (i, bottom[i]), ha="center", va="bottom",
                        fontsize=8)
        ax.set_xticks(x, self.names)
        money_axis(ax.yaxis)
        ax.set_ylabel(f"cost ({self.currency})")
        ax.set_title("options by cost category")
        ax.legend(fontsize=7, ncol=2)
        ax.figure.tight_layout()
        return ax


def compare(*options, names=None):
    """Options side by side: compare((t0, w0, p0), (t1, w1, p1), ...), the
    first being the baseline each other option is set against. Each option
    is priced as tco.estimate prices it. names (default "option 0",
    "option 1"...) label the options in tables and charts. Pricing tables
    in different currencies raise InconsistentError naming both; an option
    that cannot be priced raises its estimate's error, its index first."""
    if not options:
        raise TypeError("compare() needs at least one option: (topology, workload, pricing) triples")
    triples = []
    for i, o in enumerate(options):
        o = tuple(o)
        if len(o) != 3:
            raise TypeError(f"option {i} must be a (topology, workload, pricing) triple, not {len(o)} items")
        check_handles(*o, where=f"option {i}: ")
        triples.append(o)
    n = len(triples)
    names = [f"option {i}" for i in range(n)] if names is None else [str(s) for s in names]
    if len(names) != n:
        raise ValueError(f"{len(names)} names for {n} options")
    if len(set(names)) != n:
        raise ValueError(f"the names must differ: {names}")
    out = sized("tco_option", n)
    ts = ffi.new("tco_topology *[]", [o[0]._ptr for o in triples])
    ws = ffi.new("tco_workload *[]", [o[1]._ptr for o in triples])
    ps = ffi.new("tco_pricing *[]", [o[2]._ptr for o in triples])
    err = new_error()
    check(lib.tco_compare(out, ffi.sizeof("tco_option"), n, ts, ws, ps, err), err)
    currency = triples[0][2].currency
    return Comparison([Option(out[i], names[i], currency) for i in range(n)], currency)


# ---- sizing -----------------------------------------------------------------

class Sizing(Result):
    """A run sized to a deadline, a budget or both (tco_sizing).

    feasible (bool): the targets given are met. accelerators: the job's, on
    the grid of whole nodes tensor x pipeline x expert parallel divides (the
    job as given when solving for mfu). mfu: the mfu needed (or the
    workload's). wall_days and total: at the solution, or at the closest
    achievable run. price_class: with a deadline and a budget, the name of
    the cheapest price class meeting both ("on_demand", "reserved", "spot",
    "owned"), else None. closest_wall_days and closest_total: when
    infeasible, the shortest and the cheapest runs within the limits (None
    when feasible). iterations: estimates the search priced."""
    _ctype = "tco_sizing"

    def __init__(self, cdata, currency):
        super().__init__(cdata)
        v = self._values
        v["feasible"] = bool(v["feasible"])
        v["price_class"] = PRICE_CLASSES[v["price_class"]] if 0 <= v["price_class"] < len(PRICE_CLASSES) else None
        if v["feasible"]:
            v["closest_wall_days"] = v["closest_total"] = None
        self.currency = currency

    def __repr__(self):
        return (f"Sizing(feasible={self.feasible}, accelerators={self.accelerators:g}, mfu={self.mfu:.4g}, "
                f"wall_days={self.wall_days:.4g}, total={self.total:,.2f} {self.currency})")


_SOLVE = {"accelerators": lib.TCO_SOLVE_ACCELERATORS, "mfu": lib.TCO_SOLVE_MFU}


def size(topology, workload, pricing, *, deadline_days=None, budget=None, solve="accelerators",
         max_accelerators=None, tolerance=None):
    """The fewest accelerators (solve="accelerators") or the least mfu
    (solve="mfu") that meet a deadline (days of one run), a budget (all
    runs, in the pricing table's currency), or both; with both, the
    cheapest price class that meets them. max_accelerators caps the job
    (default: the topology's accelerators); tolerance is the mfu root
    finder's, relative (default 1e-9). An infeasible target is no error:
    .feasible is False and .closest_* say what can be had."""
    check_handles(topology, workload, pricing)
    if solve not in _SOLVE:
        raise RangeError(f"solve = {solve!r}: allowed {' or '.join(map(repr, _SOLVE))}",
                         code=lib.TCO_E_RANGE, param="target.solve")
    target = ffi.new("tco_target *", {
        "size": ffi.sizeof("tco_target"), "solve": _SOLVE[solve],
        **{name: 0.0 if v is None else number(v, name) for name, v in (
            ("deadline_days", deadline_days), ("budget", budget), ("max_accelerators", max_accelerators),
            ("tolerance", tolerance))}})
    out, err = sized("tco_sizing"), new_error()
    check(lib.tco_size(out, target, topology._ptr, workload._ptr, pricing._ptr, err), err)
    return Sizing(out, pricing.currency)


# ---- sensitivity ------------------------------------------------------------

class Swing(Result):
    """One row of a tornado: parameter (its name), value (as given),
    low_value and high_value (where it was swung to), low_total and
    high_total, low_unit and high_unit (cost per effective
    accelerator-hour), spread (|high_total - low_total|), clipped (a swing
    stopped at the parameter's bound) and status (0, or the code of why a
    swing could not be priced: then the figures are 0; see .error)."""
    _ctype = "tco_swing"
    COLUMNS = ("parameter", "handle", "value", "low_value", "high_value", "low_total", "high_total", "low_unit",
               "high_unit", "spread", "clipped", "status")

    def __init__(self, cdata, value):
        super().__init__(cdata)
        v = self._values
        p = _BY_KEY[v.pop("key")]
        v["clipped"] = bool(v["clipped"])
        self._values = {"parameter": p.name, "handle": p.handle, "value": value, **v}

    @property
    def error(self):
        """None, or the exception of a swing that could not be priced."""
        if self.status == lib.TCO_OK:
            return None
        try:
            raise_for(self.status, new_error(), f"{self.parameter} swung")
        except Exception as e:  # noqa: BLE001 - the library's class for the code
            return e


_BY_KEY = {p.key: p for p in PARAMS.values()}


class Tornado(list):
    """The swings, largest spread first (equal spreads in table order);
    total and unit are the scenario's own total and cost per effective
    accelerator-hour, share the relative swing."""

    def __init__(self, rows, total, unit, share, currency):
        super().__init__(rows)
        self.total, self.unit, self.share, self.currency = total, unit, share, currency

    def __getitem__(self, key):
        if isinstance(key, str):
            for r in self:
                if r.parameter == key:
                    return r
            raise KeyError(f"no swing of a parameter named {key!r}")
        return super().__getitem__(key)

    def to_pandas(self):
        """One row per parameter, in rank order: parameter, handle, value,
        low_value, high_value, low_total, high_total, low_unit, high_unit,
        spread, clipped, status."""
        pd = _optional("pandas")
        return pd.DataFrame([r.to_dict() for r in self], columns=list(Swing.COLUMNS))

    def plot(self, top=12, ax=None):
        """The tornado: the total with each of the top parameters swung down
        and up, around the scenario's total, the widest at the top."""
        plt = _optional("matplotlib.pyplot")
        rows = [r for r in self if r.status == lib.TCO_OK and r.spread > 0][:top][::-1]
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 0.35 * len(rows) + 1.5))
        y = np.arange(len(rows))
        base = self.total
        ax.barh(y, [r.low_total - base for r in rows], left=base, color="#4c72b0",
                label=f"x {1 - self.share:g}")
        ax.barh(y, [r.high_total - base for r in rows], left=base, color="#dd8452",
                label=f"x {1 + self.share:g}")
        ax.set_yticks(y, [r.parameter for r in rows])
        ax.axvline(base, color="black", linewidth=0.8)
        money_axis(ax.xaxis)
        ax.set_xlabel(f"total ({self.currency})")
        ax.set_title(f"what the total hangs on ({money(base, self.currency)} as given)")
        ax.legend(fontsize=8, loc="lower right")
        ax.figure.tight_layout()
        return ax


# What tco_sensitivity swings by when given 0 (tco.h): Tornado.share says it.
_DEFAULT_SHARE = 0.1


def sensitivity(topology, workload, pricing, share=_DEFAULT_SHARE):
    """The tornado: every real and integer parameter of the three handles
    swung, one at a time, to value x (1 - share) and value x (1 + share)
    (share in (0, 1], 0 standing for 0.1 as in C and Go; clipped at the
    parameter's bounds, integers rounded; a parameter at 0 stays), ranked
    by how far the total moves. A swing the library refuses gets that row's
    status; the others are still priced."""
    check_handles(topology, workload, pricing)
    share = number(share, "share")
    cap = lib.tco_param_count()
    out, n, err = sized("tco_swing", cap), ffi.new("size_t *"), new_error()
    check(lib.tco_sensitivity(out, ffi.sizeof("tco_swing"), cap, n, share, topology._ptr, workload._ptr,
                              pricing._ptr, err), err)
    handles = {h._kind: h for h in (topology, workload, pricing)}
    rows = [Swing(r, handles[_BY_KEY[r.key].handle].get(_BY_KEY[r.key].name)) for r in out[0:min(cap, n[0])]]
    e = sized("tco_estimate")
    check(lib.tco_estimate_compute(e, topology._ptr, workload._ptr, pricing._ptr, err), err)
    return Tornado(rows, e.total, e.cost_per_effective_accelerator_hour, share or _DEFAULT_SHARE, pricing.currency)


# ---- Monte Carlo ------------------------------------------------------------

# tco_distribution by the names the header's comments give its values.
DISTRIBUTIONS = {"uniform": lib.TCO_DIST_UNIFORM, "triangular": lib.TCO_DIST_TRIANGULAR,
                 "normal": lib.TCO_DIST_NORMAL, "lognormal": lib.TCO_DIST_LOGNORMAL}
_SHAPE = {"uniform": ("low", "high"), "triangular": ("low", "mode", "high"), "normal": ("mean", "sd"),
          "lognormal": ("median", "sigma")}


@dataclass(frozen=True)
class Distribution:
    """An uncertain input's distribution (tco_uncertain): kind is one of
    DISTRIBUTIONS, a, b, c its parameters, and the draws are cut to [lo,
    hi] (None: the parameter's bound); normal and lognormal draws outside
    are drawn again. Made by uniform(), triangular(), normal() and
    lognormal()."""
    kind: str
    a: float
    b: float
    c: float = 0.0
    lo: Optional[float] = None
    hi: Optional[float] = None


def uniform(low, high, *, lo=None, hi=None):
    """Uniform between low and high."""
    return Distribution("uniform", low, high, 0.0, lo, hi)


def triangular(low, mode, high, *, lo=None, hi=None):
    """Triangular from low to high, peaking at mode."""
    return Distribution("triangular", low, mode, high, lo, hi)


def normal(mean, sd, *, lo=None, hi=None):
    """Normal, cut to [lo, hi] (default: the parameter's bounds)."""
    return Distribution("normal", mean, sd, 0.0, lo, hi)


def lognormal(median, sigma, *, lo=None, hi=None):
    """Lognormal of that median and standard deviation of the log."""
    return Distribution("lognormal", median, sigma, 0.0, lo, hi)


def _distribution(name, spec):
    """A Distribution from one, or from a tuple (kind, a, b[, c][, lo, hi])."""
    if isinstance(spec, Distribution):
        kind, args = spec.kind, None
    elif isinstance(spec, (tuple, list)) and spec and isinstance(spec[0], str):
        kind, args = spec[0], list(spec[1:])
    else:
        raise TypeError(f"{name}: give a distribution (tco.uniform(low, high)...) or a tuple "
                        f"(kind, parameters...), not {spec!r}")
    if kind not in DISTRIBUTIONS:
        raise RangeError(f"{name}: distribution {kind!r} is not one of {', '.join(DISTRIBUTIONS)}",
                         code=lib.TCO_E_RANGE, param=name)
    if args is None:
        return spec
    shape = _SHAPE[kind]
    if len(args) not in (len(shape), len(shape) + 2):
        raise TypeError(f"{name}: {kind} takes {', '.join(shape)} (then lo and hi, optionally), "
                        f"not {len(args)} values")
    values = args[:len(shape)] + [0.0] * (3 - len(shape))
    lo, hi = args[len(shape):] if len(args) > len(shape) else (None, None)
    return Distribution(kind, *values, lo, hi)


def _uncertain(ranges):
    """{name: distribution} as a tco_uncertain array, in the dict's order."""
    if not hasattr(ranges, "items"):
        raise TypeError(f"ranges must be a dict of parameter name to distribution, not {type(ranges).__name__}")
    names = list(ranges)
    out = sized("tco_uncertain", len(names))
    for i, name in enumerate(names):
        p = param(name)  # the library refuses any but a real or int parameter
        d = _distribution(name, ranges[name])
        cut = (0.0, 0.0) if d.lo is None and d.hi is None else \
            (p.min or 0.0 if d.lo is None else d.lo, p.max or 0.0 if d.hi is None else d.hi)
        out[i].key, out[i].distribution = p.key, DISTRIBUTIONS[d.kind]
        out[i].a, out[i].b, out[i].c = d.a, d.b, d.c
        out[i].lo, out[i].hi = cut
    return names, out


def _uint64(value, name):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be a whole number, not {type(value).__name__}")
    if not 0 <= int(value) < 2 ** 64:
        raise RangeError(f"{name} = {value}: allowed 0 to 2^64 - 1", code=lib.TCO_E_RANGE, param=name)
    return int(value)


def draw(ranges, samples, seed=0, first=0):
    """The inputs of Monte Carlo samples first .. first + samples - 1: an
    array of shape (samples, len(ranges)), one column per input in the
    order of ranges. Sample i of input j is a pure function of (seed, i, j),
    so chunks drawn apart equal one draw, and monte_carlo() with the same
    seed prices these very values. To price them yourself:
    tco.sweep(t, w, p, **dict(zip(ranges, values.T)))."""
    names, inputs = _uncertain(ranges)
    samples = _uint64(samples, "samples")
    values = np.zeros((samples, len(names)))
    err = new_error()
    check(lib.tco_monte_carlo_draw(ffi.from_buffer("double[]", values) if values.size else ffi.NULL, inputs,
                                   len(names), _uint64(seed, "seed"), _uint64(first, "first"), samples, err), err)
    return values


SERIES = [ffi.string(lib.tco_monte_carlo_series_name(i)).decode() for i in range(lib.tco_monte_carlo_series())]
_SUMMARY = ("mean", "sd", "min", "max", "p5", "p10", "p50", "p90", "p95")


class Summary(Result):
    """mean, sd, min, max and the percentiles p5, p10, p50, p90, p95 (numpy's
    linear method) of one result over the samples."""
    _ctype = "tco_summary"


def summarise(values):
    """The Summary of a series of values, as monte_carlo() summarises each
    of its series (numpy's linear percentiles; sd with n - 1)."""
    arr, buf = _series(values, "values")
    out, err = sized("tco_summary"), new_error()
    check(lib.tco_summarise(out, buf, len(arr), 1, err), err)
    return Summary(out)


def rank_correlation(x, y):
    """Spearman's rank correlation of x and y (ties get their mean rank; 0
    when either is all ties), as monte_carlo() correlates each input with
    the total."""
    ax, bx = _series(x, "x")
    ay, by = _series(y, "y")
    if len(ax) != len(ay):
        raise ValueError(f"x has {len(ax)} values but y {len(ay)}: give pairs")
    out, err = ffi.new("double *"), new_error()
    check(lib.tco_rank_correlation(out, bx, 1, by, 1, len(ax), err), err)
    return out[0]


class Bands:
    """The result of monte_carlo(). bands["total"] is the Summary of one
    series (tco.SERIES: every scalar estimate field, "cost.<category>" and
    "waste.<kind>"); correlations maps each input to its rank (Spearman)
    correlation with the total. summary and correlation are the same as a
    pandas DataFrame (one row per series) and Series."""

    def __init__(self, summaries, correlations, samples, seed, currency):
        self.summaries = summaries          # {series: Summary}
        self.correlations = correlations    # {input: rank correlation with the total}
        self.samples, self.seed, self.currency = samples, seed, currency

    @property
    def series(self):
        return list(self.summaries)

    @property
    def inputs(self):
        return list(self.correlations)

    def __getitem__(self, series):
        try:
            return self.summaries[series]
        except KeyError:
            raise KeyError(f"no Monte Carlo series is named {series!r}: see tco.SERIES") from None

    @property
    def summary(self):
        """A DataFrame: one row per series, columns mean, sd, min, max, p5,
        p10, p50, p90, p95."""
        pd = _optional("pandas")
        return pd.DataFrame([[getattr(s, c) for c in _SUMMARY] for s in self.summaries.values()],
                            index=pd.Index(self.series, name="series"), columns=list(_SUMMARY))

    def to_pandas(self):
        return self.summary

    @property
    def correlation(self):
        """A Series: each input's rank correlation with the total."""
        pd = _optional("pandas")
        return pd.Series(self.correlations, name="rank_correlation_with_total", dtype=float).rename_axis("input")

    def __repr__(self):
        t = self["total"]
        return (f"Bands({self.samples} samples, seed {self.seed}: total p50 {t.p50:,.2f}, "
                f"p5 {t.p5:,.2f} to p95 {t.p95:,.2f} {self.currency})")

    def plot(self, fields=None, ax=None):
        """P5 to P95 (thin) and P10 to P90 (thick) bands with the median, one
        row per series: by default the total and the cost categories that
        vary and make at least 1 % of it (all in the currency)."""
        plt = _optional("matplotlib.pyplot")
        if fields is None:
            big = 0.01 * abs(self["total"].mean)
            fields = ["total"] + [s for s in self.series if s.startswith("cost.") and self[s].max > self[s].min
                                  and abs(self[s].mean) >= big]
        fields = list(fields)[::-1]
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 0.45 * len(fields) + 1.5))
        for y, f in enumerate(fields):
            s = self[f]
            ax.hlines(y, s.p5, s.p95, color="#4c72b0", linewidth=2)
            ax.hlines(y, s.p10, s.p90, color="#4c72b0", linewidth=7)
            ax.plot([s.p50], [y], "o", color="black", markersize=4)
        ax.set_yticks(range(len(fields)), fields)
        in_money = all(f == "total" or f.startswith(("cost.", "waste.", "fixed.")) for f in fields)
        if in_money:
            money_axis(ax.xaxis)
        ax.set_xlabel(f"{self.currency}" if in_money else "value")
        ax.set_title(f"P5-P95, P10-P90 and the median of {self.samples:,} samples")
        ax.figure.tight_layout()
        return ax


def _series_places():
    """(offset in a tco_estimate, slot) of each Monte Carlo series, walking
    the field table as the library's series list does."""
    places = []
    for f in ESTIMATE_FIELDS:
        slots = 1 if f.type == lib.TCO_FIELD_DOUBLE else len(CATEGORIES) if f.type == lib.TCO_FIELD_CATEGORIES \
            else len(WASTES) if f.type == lib.TCO_FIELD_WASTES else 0
        places += [(f.offset, k) for k in range(slots)]
    if len(places) != len(SERIES):
        raise ImportError("the loaded libtco's Monte Carlo series do not follow its field table: rebuild the binding")
    return places


def _monte_carlo_shown(bar, topology, workload, pricing, names, inputs, samples, seed):
    """monte_carlo() in steps a progress bar can follow: the library's draw,
    sweep, summaries and rank correlations, which its own tco_monte_carlo
    computes (tests/api/test_montecarlo.c checks the two agree bit for bit);
    the estimates written in place, summarised where they lie."""
    from .sweep import ESTIMATE_DTYPE, price_in_place
    k, err = len(names), new_error()
    draws = np.zeros((samples, k))
    check(lib.tco_monte_carlo_draw(ffi.from_buffer("double[]", draws), inputs, k, seed, 0, samples, err), err)

    def sample(i):
        values = ", ".join(f"{name} = {draws[i, j]:.17g}" for j, name in enumerate(names))
        return f"Monte Carlo sample {i} ({values})"

    raw = price_in_place(draws, [inputs[j].key for j in range(k)], topology, workload, pricing, bar, sample)
    base, stride = ffi.cast("char *", ffi.from_buffer(raw)), ESTIMATE_DTYPE.itemsize // 8
    out = sized("tco_summary", len(SERIES))
    for i, (offset, slot) in enumerate(_series_places()):
        check(lib.tco_summarise(out + i, ffi.cast("double *", base + offset) + slot, samples, stride, err), err)
    total = ffi.cast("double *", base + ESTIMATE_DTYPE.fields["total"][1])
    corr = ffi.new("double[]", max(1, k))
    for j in range(k):
        check(lib.tco_rank_correlation(corr + j, ffi.from_buffer("double[]", draws) + j, k, total, stride, samples,
                                       err), err)
    return out, corr


def _monte_carlo_arguments(topology, workload, pricing, ranges, samples, seed):
    """monte_carlo()'s own checks, before the library's: the inputs' names
    and tco_uncertain array, samples and seed (tco.spark checks the same)."""
    check_handles(topology, workload, pricing)
    names, inputs = _uncertain(ranges)
    return names, inputs, _uint64(samples, "samples"), _uint64(seed, "seed")


def monte_carlo(topology, workload, pricing, ranges, samples=10000, seed=0, threads=0, progress=None):
    """Seeded Monte Carlo: the inputs named in ranges ({name: distribution},
    e.g. {"mfu": tco.triangular(0.3, 0.4, 0.5), "on_demand_per_accel_hour":
    tco.normal(4, 0.5)}) drawn for samples 0 .. samples - 1, each sample
    priced, and for every result series its mean, sd and percentiles, with
    each input's rank correlation with the total. threads: 0 for one per
    core. The same seed gives the same numbers on any machine and any number
    of threads. A sample that cannot be priced raises its error, naming
    the sample and its inputs' values. progress: a tqdm bar over the samples
    (None: for a long run, when tqdm is installed and this runs in a
    terminal or notebook); the run is then priced on one thread, in steps,
    to the same numbers."""
    names, inputs, samples, seed = _monte_carlo_arguments(topology, workload, pricing, ranges, samples, seed)
    n = len(SERIES)
    from .sweep import CHUNK
    bar = _progress(samples, progress, "Monte Carlo") if samples > CHUNK and names else None
    if bar:
        try:
            out, corr = _monte_carlo_shown(bar, topology, workload, pricing, names, inputs, samples, seed)
        finally:
            bar.close()
    else:
        out = sized("tco_summary", n)
        corr = ffi.new("double[]", max(1, len(names)))
        err = new_error()
        check(lib.tco_monte_carlo(out, ffi.sizeof("tco_summary"), corr, inputs, len(names), seed, samples, threads,
                                  topology._ptr, workload._ptr, pricing._ptr, err), err)
    summaries = {SERIES[i]: Summary(out[i]) for i in range(n)}
    correlations = {name: corr[j] for j, name in enumerate(names)}
    return Bands(summaries, correlations, samples, seed, pricing.currency)


__all__ = ["compare", "size", "sensitivity", "draw", "monte_carlo", "summarise", "rank_correlation", "uniform",
           "triangular", "normal", "lognormal", "Option", "Comparison", "Sizing", "Swing", "Tornado", "Distribution",
           "Summary", "Bands", "SERIES", "DISTRIBUTIONS"]
