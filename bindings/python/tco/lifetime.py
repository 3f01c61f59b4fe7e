"""A cluster over its life (doc/model.md, section 18): the years of a
cluster owned, reserved or rented, each category split into fixed and
variable, the unused capacity and commitment, the cash and its net present
value. The C library computes; this module lays the years out as a
DataFrame."""
import numpy as np

from ._native import ffi, lib
from .errors import ParameterTypeError, check, new_error
from .handles import check_handles
from .display import money, money_axis
from .results import CATEGORIES, _optional, sized

_DEFAULTS = sized("tco_lifetime_request")
lib.tco_lifetime_request_init(_DEFAULTS)
# What a year says besides its categories, in the struct's order.
_YEAR_FIELDS = ("utilisation", "capacity_accelerator_hours", "used_accelerator_hours", "effective_accelerator_hours",
                "total", "fixed_total", "unused_owned", "unused_commitment", "unused_commitment_hours", "capex",
                "running", "salvage", "present_value")
_LIFE_FIELDS = ("years", "total", "fixed_total", "capacity_accelerator_hours", "used_accelerator_hours",
                "effective_accelerator_hours", "unused_owned", "unused_commitment", "unused_commitment_hours",
                "capex", "running", "salvage", "npv", "cost_per_effective_accelerator_hour",
                "levelised_cost_per_effective_accelerator_hour")


class Lifetime:
    """The life of a cluster. Attributes: the whole life's figures (total,
    fixed_total, npv, capex, running, salvage, unused_owned,
    unused_commitment, cost_per_effective_accelerator_hour,
    levelised_cost_per_effective_accelerator_hour, hours...), cost and
    fixed (dicts by category over the life), and by_year: a DataFrame, one
    row a year, with the same figures, <category> and <category>_fixed."""

    def __init__(self, life, years, currency):
        self.currency = currency
        for f in _LIFE_FIELDS:
            setattr(self, f, getattr(life, f))
        self.variable_total = self.total - self.fixed_total
        self.cost = {c: life.cost[i] for i, c in enumerate(CATEGORIES)}
        self.fixed = {c: life.fixed[i] for i, c in enumerate(CATEGORIES)}
        self._years = [{"year": y.year, "refreshed": bool(y.refreshed), **{f: getattr(y, f) for f in _YEAR_FIELDS},
                        **{c: y.cost[i] for i, c in enumerate(CATEGORIES)},
                        **{f"{c}_fixed": y.fixed[i] for i, c in enumerate(CATEGORIES)}}
                       for y in years]

    @property
    def by_year(self):
        pd = _optional("pandas")
        df = pd.DataFrame(self._years).set_index("year")
        df.insert(df.columns.get_loc("fixed_total") + 1, "variable_total", df["total"] - df["fixed_total"])
        return df

    to_pandas = by_year.fget

    def __repr__(self):
        return (f"Lifetime({self.years} years, total={self.total:,.0f} {self.currency}, "
                f"npv={self.npv:,.0f}, {self.cost_per_effective_accelerator_hour:.4f} per effective "
                f"accelerator-hour)")

    def plot(self, ax=None):
        """Each year's cost by category, stacked, the fixed part of the
        whole bill marked (matplotlib); returns the axes."""
        plt = _optional("matplotlib.pyplot")
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 4))
        df = self.by_year
        bottom = np.zeros(len(df))
        for c in CATEGORIES:
            if df[c].abs().sum() > 0:
                ax.bar(df.index, df[c], bottom=bottom, label=c)
                bottom += df[c].to_numpy()
        ax.plot(df.index, df["fixed_total"], "k--", label="fixed")
        ax.set_xlabel("year")
        money_axis(ax.yaxis)
        ax.set_ylabel(f"cost a year ({self.currency})")
        ax.set_title(f"{self.years} years: {money(self.total, self.currency)}, NPV {money(self.npv, self.currency)}")
        ax.legend(fontsize=7)
        ax.figure.tight_layout()
        return ax


def lifetime(topology, workload, pricing, years=None, utilisation=None, refresh_year=None, discount_rate=None,
             utilisation_by_year=None):
    """Prices the cluster over its life (doc/model.md, section 18). years
    (default 5), utilisation (0 to 1, default 0.7) or utilisation_by_year
    (one share a year), refresh_year (the owned IT bought again after that
    many years; default none), discount_rate (default: the pricing table's
    cost_of_capital)."""
    check_handles(topology, workload, pricing)
    req = sized("tco_lifetime_request")
    lib.tco_lifetime_request_init(req)
    req.discount_rate = pricing.cost_of_capital
    for name, value in (("years", years), ("refresh_year", refresh_year)):
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise ParameterTypeError(f"{name}: expected a whole number, not {value!r}", param=name)
            if not -2**31 <= value < 2**31:
                raise ParameterTypeError(f"{name}: {value} is out of range for a whole number", param=name)
            setattr(req, name, int(value))
    for name, value in (("utilisation", utilisation), ("discount_rate", discount_rate)):
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
                raise ParameterTypeError(f"{name}: expected a number, not {value!r}", param=name)
            setattr(req, name, float(value))
    keep = None
    if utilisation_by_year is not None:
        shares = np.ascontiguousarray(utilisation_by_year, dtype="<f8")
        if shares.ndim != 1 or len(shares) != req.years:
            raise ParameterTypeError(f"utilisation_by_year: expected {req.years} shares, one a year, "
                                     f"not {shares.shape}", param="utilisation_by_year")
        keep = ffi.from_buffer("double[]", shares)
        req.utilisation_by_year = keep
    n = req.years if 1 <= req.years <= 50 else 0  # else the library names request.years, and no rows are made
    out, rows, err = sized("tco_lifetime"), sized("tco_lifetime_year", max(n, 1)), new_error()
    check(lib.tco_lifetime_compute(out, rows if n else ffi.NULL, ffi.sizeof("tco_lifetime_year"), n, req,
                                   topology._ptr, workload._ptr, pricing._ptr, err), err)
    return Lifetime(out, [rows[i] for i in range(n)], pricing.currency)
