"""A cluster over its life from Python: the years as the C library prices
them (hand-worked: a reserved term paid in full, half of it unused), the
defaults the library's, a plot, and bad input refused naming the field."""
import pytest
from matplotlib.axes import Axes

import tco
from conftest import RATES_1_0

H = 8766  # the library's year, in hours
# A run that fits on 8 accelerators: its goodput makes used hours effective.
SMALL = dict(params_total=7e9, params_active=7e9, job_accelerators=8, tensor_parallel=8, pipeline_parallel=1)


@pytest.fixture
def reserved():
    return tco.Topology(accelerators=8, reserved_share=1), tco.Workload(**SMALL), tco.Pricing(**RATES_1_0)


def test_reserved_term(reserved):
    t, w, p = reserved
    life = tco.lifetime(t, w, p, years=3, utilisation=0.5, discount_rate=0.1)
    df = life.by_year
    # 8 x 8,766 h x 2.50 = 175,320 a year, all fixed; half unused.
    assert list(df.index) == [1, 2, 3]
    assert df["compute_fixed"].tolist() == pytest.approx([175320] * 3)
    assert df["unused_commitment"].tolist() == pytest.approx([87660] * 3)
    assert (df["variable_total"] == df["total"] - df["fixed_total"]).all()
    # Nothing bought: the cash is the running costs, paid at each year's end.
    assert life.npv == pytest.approx(sum(df["running"] / 1.1 ** df.index))
    assert df["capex"].sum() == 0 and (df["running"] == df["total"]).all()
    assert life.total == pytest.approx(df["total"].sum()) and life.cost["compute"] == pytest.approx(3 * 175320)
    assert isinstance(life.plot(), Axes)


def test_defaults_and_discount(reserved):
    t, w, p = reserved
    life = tco.lifetime(t, w, p)
    assert life.years == 5 and life.by_year["utilisation"].tolist() == [0.7] * 5
    # The discount rate defaults to the pricing table's cost of capital.
    p2 = tco.Pricing(cost_of_capital=0.2)
    assert tco.lifetime(t, w, p2).npv == pytest.approx(tco.lifetime(t, w, p2, discount_rate=0.2).npv)
    by_year = tco.lifetime(t, w, p, years=2, utilisation_by_year=[0.25, 1.0]).by_year
    assert by_year["used_accelerator_hours"].tolist() == pytest.approx([2 * H, 8 * H])


def test_owned_against_reserved():
    w = tco.Workload(**SMALL)
    owned = tco.lifetime(tco.Topology(accelerators=8, owned_share=1), w,
                         tco.Pricing(facility_capex_per_kw=7000, facility_life_years=15), refresh_year=4)
    df = owned.by_year
    assert df["refreshed"].tolist() == [False] * 4 + [True]
    assert df["capex"].iloc[0] > 0 and df["capex"].iloc[4] > 0 and df["salvage"].iloc[4] > 0
    assert owned.unused_owned == pytest.approx(0.3 * (owned.fixed["compute"] + owned.fixed["power"] +
                                                      owned.fixed["cooling"] + owned.fixed["network"]))


def test_bad_input(reserved):
    t, w, p = reserved
    with pytest.raises(tco.RangeError, match="request.refresh_year"):
        tco.lifetime(t, w, p, years=5, refresh_year=5)
    with pytest.raises(tco.RangeError, match="request.utilisation"):
        tco.lifetime(t, w, p, utilisation=1.5)
    with pytest.raises(tco.RangeError, match="request.discount_rate"):
        tco.lifetime(t, w, p, discount_rate=-1)
    with pytest.raises(tco.RangeError, match=r"utilisation_by_year\[1\]"):
        tco.lifetime(t, w, p, years=2, utilisation_by_year=[0.5, 2])
    with pytest.raises(tco.ParameterTypeError):
        tco.lifetime(t, w, p, years=2, utilisation_by_year=[0.5])
    with pytest.raises(tco.ParameterTypeError):
        tco.lifetime(t, w, p, years=2.5)
    with pytest.raises(tco.RangeError, match="request.years"):
        tco.lifetime(t, w, p, years=0)
    with pytest.raises(tco.InconsistentError, match="facility_life_years"):
        tco.Pricing(facility_life_years=2).freeze()
