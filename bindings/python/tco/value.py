"""Value per cost (doc/model.md, "Value per cost"): the predicted loss of a
run by the parametric scaling law L(N, D) = E + A / N^alpha + B / D^beta,
the loss bought per unit of money between two runs, and the model size and
token count that minimise the loss within a budget under the full cost
model, with their estimate. Each figure is one library call; the frontier
is one call per budget."""
from dataclasses import dataclass, replace

from ._native import ffi, lib
from .errors import RangeError, check, new_error, number
from .handles import Workload, check_handles
from .results import CATEGORIES, Estimate, Result, _optional, sized

FITS = {"hoffmann_2022": lib.TCO_FIT_HOFFMANN_2022, "besiroglu_2024": lib.TCO_FIT_BESIROGLU_2024}
_FIT_NAMES = {v: k for k, v in FITS.items()}
_LIMITS = {lib.TCO_OPTIMUM_INTERIOR: None, lib.TCO_OPTIMUM_PARAMS_MIN: "params_min",
           lib.TCO_OPTIMUM_PARAMS_MAX: "params_max", lib.TCO_OPTIMUM_TOKENS_MAX: "tokens_max",
           lib.TCO_OPTIMUM_LARGEST_MODEL: "largest_model"}


@dataclass(frozen=True)
class ScalingLaw:
    """The constants of L(N, D) = e + a / N^alpha + b / D^beta, L in nats
    per token, N parameters, D training tokens. fit names the published fit
    they came from ("hoffmann_2022", "besiroglu_2024") or is "custom".
    The library checks them on every call (0 <= e <= 100, 0 <= a, b <= 1e15,
    0 < alpha, beta <= 2), naming the one out of range ("law.alpha")."""
    e: float
    a: float
    alpha: float
    b: float
    beta: float
    fit: str = "custom"

    def replace(self, **changes):
        """A copy with some constants changed: a custom law."""
        return replace(self, **{"fit": "custom", **changes})

    def _c(self):
        law = sized("tco_scaling_law")
        law.fit = FITS.get(self.fit, lib.TCO_FIT_CUSTOM)
        for k in ("e", "a", "alpha", "b", "beta"):
            setattr(law, k, number(getattr(self, k), k))
        return law


def scaling_law(fit="hoffmann_2022", **changes):
    """The constants of a published fit, as the library has them
    ("hoffmann_2022": Hoffmann et al. 2022, approach 3; "besiroglu_2024":
    Besiroglu et al. 2024, the same data refitted), any of them changed by
    keyword (then the law is "custom")."""
    if fit not in FITS:
        raise RangeError(f"fit = {fit!r} is no published fit: allowed {', '.join(map(repr, FITS))}",
                         code=lib.TCO_E_RANGE, param="fit")
    law, err = sized("tco_scaling_law"), new_error()
    check(lib.tco_scaling_law_init(law, FITS[fit], err), err)
    out = ScalingLaw(law.e, law.a, law.alpha, law.b, law.beta, fit)
    return out.replace(**changes) if changes else out


def _law(law):
    """The C law of None (Hoffmann's), a fit's name, a ScalingLaw or a dict
    of its constants."""
    if law is None:
        return ffi.NULL
    if isinstance(law, str):
        law = scaling_law(law)
    elif isinstance(law, dict):
        law = ScalingLaw(**{"fit": "custom", **law})
    elif not isinstance(law, ScalingLaw):
        raise TypeError(f"law must be None, a fit's name, a tco.ScalingLaw or a dict, not {type(law).__name__}")
    return law._c()


class Loss(Result):
    """A predicted loss (tco_loss): loss (nats per token) = irreducible +
    params_term (a / N^alpha) + data_term (b / D^beta), at params (N) and
    tokens (D)."""
    _ctype = "tco_loss"

    def __float__(self):
        return float(self.loss)


def loss(workload_or_params, tokens=None, *, law=None):
    """The predicted loss of a Workload's run (N = params_active, or
    params_total when 0; D = tokens x epochs), or of a model of N
    parameters on D tokens: loss(w) or loss(70e9, 1.4e12). law: None
    (Hoffmann et al. 2022), a fit's name, a ScalingLaw or a dict."""
    out, err = sized("tco_loss"), new_error()
    if isinstance(workload_or_params, Workload):
        if tokens is not None:
            raise TypeError("loss(workload) takes no tokens: the workload's tokens x epochs are D")
        check(lib.tco_loss_predict(out, _law(law), workload_or_params._ptr, err), err)
    else:
        if tokens is None:
            raise TypeError("loss(params, tokens) needs both, or a tco.Workload")
        check(lib.tco_loss_at(out, _law(law), number(workload_or_params, "params"), number(tokens, "tokens"), err),
              err)
    return Loss(out)


class LossGain(Result):
    """Run b against run a (tco_loss_gain): loss_a and loss_b (nats per
    token), total_a and total_b (currency, all runs), flops_a and flops_b
    (all runs), loss_reduction (loss_a - loss_b), extra_cost (total_b -
    total_a), loss_per_cost (nats per token per unit of currency) and
    loss_per_exaflop; each ratio is None when its denominator is 0 (equal
    totals, equal FLOPs). Negative: one run is cheaper and better."""
    _ctype = "tco_loss_gain"

    def __init__(self, cdata, currency):
        super().__init__(cdata)
        v = self._values
        if not v.pop("cost_ratio_defined"):
            v["loss_per_cost"] = None
        if not v.pop("flops_ratio_defined"):
            v["loss_per_exaflop"] = None
        self.currency = currency

    def __repr__(self):
        per = "undefined" if self.loss_per_cost is None else f"{self.loss_per_cost:.4g} nats per {self.currency}"
        return (f"LossGain(loss_reduction={self.loss_reduction:.6g}, extra_cost={self.extra_cost:,.2f} "
                f"{self.currency}, loss_per_cost={per})")


def _triple(run, which):
    run = tuple(run)
    if len(run) != 3:
        raise TypeError(f"run {which} must be a (topology, workload, pricing) triple, not {len(run)} items")
    check_handles(*run, where=f"run {which}: ")
    return run


def loss_per_cost(a, b, *, law=None):
    """The loss bought per unit of money going from run a to run b, each a
    (topology, workload, pricing) triple priced as tco.estimate prices it:
    (loss_a - loss_b) / (total_b - total_a). A LossGain."""
    ta, wa, pa = _triple(a, "a")
    tb, wb, pb = _triple(b, "b")
    out, err = sized("tco_loss_gain"), new_error()
    check(lib.tco_loss_per_cost(out, _law(law), ta._ptr, wa._ptr, pa._ptr, tb._ptr, wb._ptr, pb._ptr, err), err)
    return LossGain(out, pa.currency)


class Optimum(Result):
    """The compute-optimal run for a budget (tco_optimum): params (N, the
    active parameters), params_total, tokens (D, tokens x epochs),
    tokens_per_param, loss (nats per token), total (at most the budget),
    train_flops, evaluations (estimates the search priced), limit (None, or
    the limit of the search it stopped at: "params_min", "params_max",
    "tokens_max", "largest_model"), budget, and estimate: the run's
    Estimate, its cost by category."""
    _ctype = "tco_optimum"

    def __init__(self, cdata, estimate, budget, currency):
        super().__init__(cdata)
        self._values["limit"] = _LIMITS.get(self._values["limit"], self._values["limit"])
        self._values["budget"] = budget
        self.estimate = estimate
        self.currency = currency

    def to_pandas(self):
        """A one-column table: every figure, then cost.<category>."""
        pd = _optional("pandas")
        rows = dict(self._values)
        rows.update({f"cost.{c}": self.estimate.cost[c] for c in CATEGORIES})
        return pd.DataFrame({"value": list(rows.values())}, index=list(rows)).rename_axis("field")

    def __repr__(self):
        return (f"Optimum(params={self.params:.4g}, tokens={self.tokens:.4g}, "
                f"tokens_per_param={self.tokens_per_param:.3g}, loss={self.loss:.5g}, "
                f"total={self.total:,.2f} {self.currency})")


def compute_optimal(topology, workload, pricing, budget, *, law=None):
    """The model size and token count with the least predicted loss whose
    run costs at most budget (all runs, in the pricing table's currency:
    Estimate.total), the workload's run otherwise as given. An Optimum."""
    check_handles(topology, workload, pricing)
    budget = number(budget, "budget")
    out, est, err = sized("tco_optimum"), sized("tco_estimate"), new_error()
    check(lib.tco_compute_optimal(out, est, _law(law), budget, topology._ptr, workload._ptr, pricing._ptr,
                                  err), err)
    return Optimum(out, Estimate(est, pricing.currency), budget, pricing.currency)


class Frontier(list):
    """The compute-optimal runs of a range of budgets (a list of Optimum):
    to_pandas() and plot() of the loss against the cost."""

    def __init__(self, optima, currency, law):
        super().__init__(optima)
        self.currency = currency
        self.law = law

    def to_pandas(self):
        """One row per budget: budget, total, params, params_total, tokens,
        tokens_per_param, loss, train_flops, evaluations, limit, and
        cost.<category>."""
        pd = _optional("pandas")
        cols = ("budget", "total", "params", "params_total", "tokens", "tokens_per_param", "loss", "train_flops",
                "evaluations", "limit")
        rows = [{**{c: getattr(o, c) for c in cols}, **{f"cost.{c}": o.estimate.cost[c] for c in CATEGORIES}}
                for o in self]
        return pd.DataFrame(rows, columns=list(cols) + [f"cost.{c}" for c in CATEGORIES])

    def plot(self, ax=None):
        """The predicted loss against the total along the frontier (log
        cost), each point labelled with its model size and tokens per
        parameter; returns the axes."""
        plt = _optional("matplotlib.pyplot")
        if ax is None:
            _, ax = plt.subplots(figsize=(7, 4))
        x = [o.total for o in self]
        y = [o.loss for o in self]
        ax.plot(x, y, marker="o")
        ax.set_xscale("log")
        for o in self:
            ax.annotate(f"{o.params:.3g} params, {o.tokens_per_param:.0f} tok/param", (o.total, o.loss),
                        textcoords="offset points", xytext=(4, 4), fontsize=7)
        ax.set_xlabel(f"total cost ({self.currency}, log scale)")
        ax.set_ylabel("predicted loss (nats per token)")
        name = self.law if isinstance(self.law, str) else getattr(self.law, "fit", "hoffmann_2022")
        ax.set_title(f"compute-optimal frontier ({name or 'hoffmann_2022'})")
        ax.grid(True, which="both", alpha=0.3)
        ax.figure.tight_layout()
        return ax


def loss_frontier(topology, workload, pricing, budgets, *, law=None):
    """compute_optimal for each budget (an iterable of amounts, or a
    (first, last, count) range spaced evenly in log): a Frontier, with
    to_pandas() and plot() of the loss against the cost."""
    if isinstance(budgets, tuple) and len(budgets) == 3 and isinstance(budgets[2], int):
        np = _optional("numpy")
        first, last, count = budgets
        if not (first > 0 and last > 0 and count >= 1):
            raise RangeError(f"budgets = {budgets!r}: a (first, last, count) range needs first and last above 0 "
                             f"and count at least 1", code=lib.TCO_E_RANGE, param="budgets")
        budgets = np.geomspace(first, last, count)
    optima = [compute_optimal(topology, workload, pricing, b, law=law) for b in budgets]
    return Frontier(optima, pricing.currency, law if law is not None else "hoffmann_2022")
