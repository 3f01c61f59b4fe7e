"""Value per cost: tco.loss, tco.loss_per_cost, tco.compute_optimal and
tco.loss_frontier, with the hand-worked values of tests/api/test_value.c.

L(N, D) = E + A / N^alpha + B / D^beta (Hoffmann et al. 2022, eq. 2). At
Chinchilla (70e9 parameters, 1.4e12 tokens) with the approach-3 constants:
1.69 + 406.4 / 70e9^0.34 + 410.7 / 1.4e12^0.28 = 1.69 + 0.083487 + 0.163158
= 1.936645 nats per token. With cost proportional to FLOPs the optimum is
N = G (C / 6)^a, G = (alpha A / (beta B))^(1 / (alpha + beta)), a = beta /
(alpha + beta) (appendix D.2): for C = 5.76e23 FLOP, 3.219e10 parameters
and 2.982e12 tokens with Hoffmann's constants, 7.225e10 and 1.329e12 with
Besiroglu et al.'s 2024 refit."""
import math

import pytest

import tco

H = dict(e=1.69, a=406.4, alpha=0.34, b=410.7, beta=0.28)
BES = dict(e=1.8172, a=482.01, alpha=0.3478, b=2085.43, beta=0.3658)


def hand_loss(c, n, d):
    return c["e"] + c["a"] / n ** c["alpha"] + c["b"] / d ** c["beta"]


def closed_form(c, flops):
    g = (c["alpha"] * c["a"] / (c["beta"] * c["b"])) ** (1 / (c["alpha"] + c["beta"]))
    n = g * (flops / 6) ** (c["beta"] / (c["alpha"] + c["beta"]))
    return n, flops / 6 / n


def test_published_fits():
    h = tco.scaling_law()
    assert (h.e, h.a, h.alpha, h.b, h.beta, h.fit) == (1.69, 406.4, 0.34, 410.7, 0.28, "hoffmann_2022")
    b = tco.scaling_law("besiroglu_2024")
    assert (b.e, b.a, b.alpha, b.b, b.beta) == (1.8172, 482.01, 0.3478, 2085.43, 0.3658)
    assert tco.scaling_law(e=1.5).fit == "custom" and tco.scaling_law(e=1.5).a == 406.4
    with pytest.raises(tco.RangeError) as info:
        tco.scaling_law("kaplan_2020")
    assert info.value.param == "fit"


def test_loss_hand_worked():
    l = tco.loss(70e9, 1.4e12)
    assert l.loss == pytest.approx(1.936645, abs=1e-6)
    assert l.loss == pytest.approx(hand_loss(H, 70e9, 1.4e12), rel=1e-13)
    assert l.params_term == pytest.approx(0.083487, abs=1e-6) and l.data_term == pytest.approx(0.163158, abs=1e-6)
    assert float(l) == l.loss and l.irreducible == 1.69
    assert tco.loss(70e9, 1.4e12, law="besiroglu_2024").loss == pytest.approx(hand_loss(BES, 70e9, 1.4e12), rel=1e-13)
    assert tco.loss(1e4, 1e6, law=dict(e=2, a=100, alpha=0.5, b=1000, beta=1)).loss == pytest.approx(3.001, rel=1e-15)
    # a workload: N the active parameters, D every token of every epoch
    w = tco.Workload(params_total=100e9, params_active=10e9, tokens=1e12, epochs=2)
    l = tco.loss(w)
    assert (l.params, l.tokens) == (10e9, 2e12)
    assert l.loss == pytest.approx(hand_loss(H, 10e9, 2e12), rel=1e-13)
    df = l.to_pandas()
    assert df.loc["loss", "value"] == l.loss


@pytest.mark.parametrize("change, code, name", [
    (dict(e=-0.01), tco.RangeError, "law.e"),
    (dict(a=-406.4), tco.RangeError, "law.a"),
    (dict(b=-1), tco.RangeError, "law.b"),
    (dict(alpha=0), tco.RangeError, "law.alpha"),
    (dict(beta=-0.28), tco.RangeError, "law.beta"),
    (dict(alpha=34), tco.RangeError, "law.alpha"),
    (dict(b=math.nan), tco.NotFiniteError, "law.b"),
    (dict(e=math.inf), tco.NotFiniteError, "law.e"),
])
def test_bad_constants(change, code, name):
    law = tco.scaling_law(**change)
    with pytest.raises(code) as info:
        tco.loss(70e9, 1.4e12, law=law)
    assert info.value.param == name and name in str(info.value)
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    with pytest.raises(code) as info:
        tco.compute_optimal(t, w, p, 1e6, law=law)
    assert info.value.param == name


def test_bad_inputs():
    with pytest.raises(tco.RangeError) as info:
        tco.loss(0, 1e12)
    assert info.value.param == "params"
    with pytest.raises(tco.NotFiniteError) as info:
        tco.loss(70e9, math.nan)
    assert info.value.param == "tokens"
    with pytest.raises(TypeError):
        tco.loss(70e9)
    with pytest.raises(TypeError):
        tco.loss(70e9, 1e12, law=3)
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    for budget, code in ((0, tco.RangeError), (-1, tco.RangeError), (math.nan, tco.NotFiniteError),
                         (math.inf, tco.NotFiniteError)):
        with pytest.raises(code) as info:
            tco.compute_optimal(t, w, p, budget)
        assert info.value.param == "budget"
    least = tco.estimate(t, w.replace(params_total=1e3, tokens=1), p).total
    with pytest.raises(tco.InconsistentError, match=f"allowed at least {least:g}") as info:
        tco.compute_optimal(t, w, p, least / 2)
    assert info.value.param == "budget"
    with pytest.raises(tco.InconsistentError) as info:
        tco.compute_optimal(t, w.replace(total_flops=1e24), p, 1e6)
    assert info.value.param == "total_flops"
    with pytest.raises(TypeError, match="tco.Pricing"):
        tco.compute_optimal(t, w, t, 1e6)


def test_loss_per_cost_hand_worked():
    t, p = tco.Topology(), tco.Pricing()
    a, b = (t, tco.Workload(tokens=1e12), p), (t, tco.Workload(tokens=2e12), p)
    g = tco.loss_per_cost(a, b)
    reduction = 410.7 * (1e12 ** -0.28 - 2e12 ** -0.28)  # 0.0316261
    assert g.loss_reduction == pytest.approx(reduction, rel=1e-12)
    assert g.total_a == tco.estimate(*a).total and g.total_b == tco.estimate(*b).total
    assert g.loss_per_cost == pytest.approx(reduction / (g.total_b - g.total_a), rel=1e-12)
    assert g.loss_per_exaflop == pytest.approx(reduction / (6 * 70e9 * 1e12 / 1e18), rel=1e-12)
    same = tco.loss_per_cost(a, a)
    assert same.loss_per_cost is None and same.loss_per_exaflop is None and same.loss_reduction == 0
    eur = tco.Pricing(currency="EUR", on_demand_per_accel_hour=3)
    with pytest.raises(tco.InconsistentError) as info:
        tco.loss_per_cost(a, (t, b[1], eur))
    assert info.value.param == "currency"
    with pytest.raises(tco.InconsistentError, match="^run b: "):
        tco.loss_per_cost(a, (t, tco.Workload(tensor_parallel=3), p))
    with pytest.raises(TypeError, match="run a"):
        tco.loss_per_cost((t, p), b)


@pytest.fixture
def flops_only():
    """The total is the compute alone: FLOPs x rate / (peak x mfu x 3600)."""
    w = tco.Workload(count_failures=0, count_checkpoints=0, data_stall_share=0, layers=0, database_instances=0,
                     database_gb=0, log_bytes_per_accel_hour=0, metrics_per_accelerator=0)
    p = tco.Pricing(platform_per_node_month=0, security_per_node_month=0, security_fixed_per_month=0,
                    staff_per_fte_year=0, min_fte=0, storage_hot_per_gb_month=0, storage_warm_per_gb_month=0,
                    storage_cold_per_gb_month=0, storage_hot_per_gbps_month=0)
    return tco.Topology(), w, p


@pytest.mark.parametrize("fit, c", [("hoffmann_2022", H), ("besiroglu_2024", BES)])
def test_chinchilla_budget(flops_only, fit, c):
    t, w, p = flops_only
    e = tco.estimate(t, w.replace(tokens=1.4e12), p)
    per_flop = e.total / e.train_flops
    assert tco.estimate(t, w.replace(params_total=3e10, tokens=3e12), p).total / (6 * 3e10 * 3e12) == \
        pytest.approx(per_flop, rel=1e-12)
    o = tco.compute_optimal(t, w, p, 5.76e23 * per_flop, law=fit)
    n, d = closed_form(c, 5.76e23)
    assert o.params == pytest.approx(n, rel=1e-4) and o.tokens == pytest.approx(d, rel=1e-4)
    assert o.tokens_per_param == pytest.approx(d / n, rel=2e-4)
    assert o.loss == pytest.approx(hand_loss(c, n, d), rel=1e-9)
    assert o.limit is None and o.estimate.total == o.total
    # approach 3: 3.2e10 and 93 per parameter; the refit: 7.2e10 and 18
    assert (round(n / 1e9, 1), round(d / n)) == ((32.2, 93) if fit == "hoffmann_2022" else (72.2, 18))


def test_compute_optimal_is_the_least_loss_within_the_budget():
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    o = tco.compute_optimal(t, w, p, 2e6)
    again = tco.estimate(t, w.replace(params_total=o.params_total, tokens=o.tokens), p)
    assert again.total == o.total <= 2e6 and again.cost == o.estimate.cost
    for k in (0.8, 0.9, 0.95, 1.05, 1.1, 1.25):  # other sizes on the budget's edge are worse
        n = o.params * k
        lo, hi = 1.0, 1e17
        while hi - lo > 1e-9 * hi:
            m = (lo + hi) / 2
            lo, hi = (m, hi) if tco.estimate(t, w.replace(params_total=n, tokens=m), p).total <= 2e6 else (lo, m)
        assert tco.loss(n, lo).loss >= o.loss - 1e-12
    df = o.to_pandas()
    assert df.loc["cost.compute", "value"] == o.estimate.cost["compute"] and df.loc["budget", "value"] == 2e6


def test_frontier(tmp_path):
    t, w, p = tco.Topology(), tco.Workload(), tco.Pricing()
    f = tco.loss_frontier(t, w, p, (1e4, 1e9, 6))
    df = f.to_pandas()
    assert list(df["budget"]) == pytest.approx([1e4, 1e5, 1e6, 1e7, 1e8, 1e9], rel=1e-12)
    assert (df["total"] <= df["budget"]).all()
    assert df["loss"].is_monotonic_decreasing and df["params"].is_monotonic_increasing
    assert "cost.compute" in df.columns
    assert len(tco.loss_frontier(t, w, p, [1e5, 1e6])) == 2
    ax = f.plot()
    assert ax.get_xscale() == "log" and len(ax.lines) == 1
    ax.figure.savefig(tmp_path / "frontier.png")
    with pytest.raises(tco.RangeError):
        tco.loss_frontier(t, w, p, (0, 1e9, 3))
