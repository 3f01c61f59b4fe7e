"""Notebook comfort: results, sweeps and splits show themselves (a readable
repr, an HTML table, tab completion), grid sweeps come out by dimension
(xarray, or a pandas MultiIndex), long sweeps show a progress bar when
asked, and charts put money on human scales with no empty categories."""
import numpy as np
import pytest
from matplotlib.axes import Axes

import tco
from tco.display import money


def test_money_on_human_scales():
    assert money(4251041.06, "USD") == "4.25M USD"
    assert money(12500) == "12.5k" and money(-3.2e9, "EUR") == "-3.2B EUR" and money(7.2) == "7.20"


def test_estimate_shows_itself(scenario):
    e = tco.estimate(*scenario)
    page = e._repr_html_()
    assert "<table>" in page and "compute" in page and "per million tokens" in page
    assert "power" not in page  # rented: no power cost, no empty row
    assert {"wall_hours", "cost", "goodput", "plot"} <= set(dir(e))
    ax = e.plot()
    assert isinstance(ax, Axes) and "power" not in [t.get_text() for t in ax.get_yticklabels()]
    labels = [ax.xaxis.get_major_formatter()(v, 0) for v in (0, 1.5e6)]
    assert labels == ["0.00", "1.5M"] and "USD" in ax.get_xlabel() and ax.get_title()


def test_sweep_repr_columns_and_grid(scenario):
    t, w, p = scenario
    s = tco.sweep(t, w, p, mfu=np.linspace(0.3, 0.6, 4))
    assert repr(s).startswith("Sweep(4 variations of mfu; total ") and "<table>" in s._repr_html_()
    df = s.to_pandas()
    # every category column is the category's own (fixed does not overwrite cost)
    assert np.array_equal(df["cost_compute"], s.cost("compute"))
    assert np.array_equal(df["fixed_compute"], s["fixed"][:, 0]) and not np.array_equal(df["fixed_compute"],
                                                                                        df["cost_compute"])
    g = tco.sweep(t, w, p, mfu=[0.3, 0.4, 0.5], accelerators=[512, 1024], grid=True)
    assert len(g) == 6 and "3 mfu x 2 accelerators" in repr(g)
    one = tco.estimate(t.replace(accelerators=512), w.replace(mfu=0.4), p)
    mi = g.to_pandas()
    assert list(mi.index.names) == ["mfu", "accelerators"] and mi.loc[(0.4, 512.0), "total"] == one.total
    ds = g.to_xarray()
    assert ds["total"].dims == ("mfu", "accelerators") and ds["total"].sel(mfu=0.4, accelerators=512) == one.total
    assert ds["total"].attrs["units"] == p.currency and ds["wall_hours"].attrs["units"] == "h"
    with pytest.raises(ValueError, match="grid sweep"):
        s.to_xarray()
    assert isinstance(g.plot(), Axes)


def test_progress_bar_changes_nothing(scenario, capsys):
    t, w, p = scenario
    x = np.linspace(0.3, 0.6, 70_000)  # more than one call's chunk
    quiet = tco.sweep(t, w, p, mfu=x, progress=False)
    shown = tco.sweep(t, w, p, mfu=x, progress=True)
    assert np.array_equal(quiet.total, shown.total)
    assert "sweep" in capsys.readouterr().err  # tqdm draws on standard error


def test_monte_carlo_with_a_bar_gives_the_same_numbers(scenario):
    # Shown, the run goes through the library's draw, sweep and summaries
    # in steps; those are what tco_monte_carlo computes, to the bit.
    ranges = {"mfu": tco.triangular(0.3, 0.4, 0.55), "on_demand_per_accel_hour": tco.normal(4, 0.5, lo=3, hi=5)}
    quiet = tco.monte_carlo(*scenario, ranges, samples=70_000, seed=7, progress=False)
    shown = tco.monte_carlo(*scenario, ranges, samples=70_000, seed=7, progress=True)
    assert quiet.summary.equals(shown.summary) and quiet.correlations == shown.correlations
    with pytest.raises(tco.InconsistentError, match="Monte Carlo sample"):
        tco.monte_carlo(*scenario, {"reserved_per_accel_hour": tco.uniform(2, 6)}, samples=70_000, progress=True)


def test_attribution_with_a_bar(capsys):
    from conftest import RATES_1_0
    n = 150_000
    import pandas as pd
    df = pd.DataFrame({"start": np.arange(n, dtype=float), "end": np.arange(n, dtype=float) + 3600,
                       "accelerators": np.ones(n), "tag.project": np.where(np.arange(n) % 3, "llama", "vision")})
    records = tco.from_pandas(df)
    t, w, p = tco.Topology(accelerators=64), tco.Workload(), tco.Pricing(**RATES_1_0)
    quiet = tco.attribute(records, t, w, p, progress=False)
    shown = tco.attribute(records, t, w, p, progress=True)
    assert quiet.bill == shown.bill and "attribution" in capsys.readouterr().err


def test_handles_complete_their_parameters(scenario):
    t, w, p = scenario
    assert {"accelerators", "pue"} <= set(dir(t)) and "mfu" in dir(w) and "on_demand_per_accel_hour" in dir(p)
    assert "mfu" not in dir(t)


def test_split_shows_itself(scenario):
    d = np.r_[np.full(30, 100.0), np.full(30, 300.0)]
    s = tco.capacity_split(d, 1.0, *scenario)
    assert "baseline" in s._repr_html_() and "baseline" in dir(s)
