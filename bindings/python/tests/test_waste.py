"""The waste finder from Python: every kind of finding in the example month,
priced as the C library prices it, the thresholds by name, and bad ones
refused with the library's errors."""
import pandas as pd
import pytest
from matplotlib.axes import Axes

import tco

PERIOD = ("2026-11-01", "2026-12-01")


@pytest.fixture(scope="module")
def month():
    from conftest import ROOT
    records = tco.read_csv(ROOT / "examples" / "month" / "month.csv")
    return records, tco.load(ROOT / "examples" / "month" / "cluster.json")


def test_findings(month):
    records, (t, w, p) = month
    waste = tco.find_waste(records, t, w, p, by="team", period=PERIOD)
    df = waste.findings
    assert set(df.kind) == set(tco.waste.KINDS) and len(df) == len(waste)
    assert df.cost.is_monotonic_decreasing and abs(df.cost.sum() - waste.total) < 1e-6 * waste.total
    # The deadline overrun, hand-worked: 32 reserved accelerators (2.5/h)
    # from 2026-11-20T18:00Z, its deadline, to midnight: 6 h x 32 x 2.5.
    overrun = df[df.kind == "overrun"].iloc[0]
    assert overrun.team == "llm" and overrun.cost == pytest.approx(480)
    assert overrun.since.isoformat() == "2026-11-20T18:00:00+00:00" and overrun.per_day == pytest.approx(1920)
    assert overrun.tags["deadline"] == "2026-11-20T18:00:00Z"
    dup = df[df.kind == "duplicate"].iloc[0]
    assert dup["name"] == "vision-train-copy" and dup.gb == 5000
    assert records.tags_of(int(dup.other))["name"] == "vision-train"
    idle = df.iloc[0]
    assert idle.kind == "idle_capacity" and pd.isna(idle.team) and pd.isna(idle.record)
    assert all(df.action.str.len() > 20)
    assert isinstance(waste.plot(), Axes)


def test_same_as_from_an_attribution(month):
    records, (t, w, p) = month
    a = tco.attribute(records, t, w, p, by="team", period=PERIOD)
    one, two = tco.find_waste(a), tco.find_waste(records, t, w, p, by="team", period=PERIOD)
    assert one.findings.drop(columns="tags").equals(two.findings.drop(columns="tags"))


def test_thresholds(month):
    records, (t, w, p) = month
    a = tco.attribute(records, t, w, p, by="team", period=PERIOD)
    assert tco.waste.THRESHOLDS["rerun_hours"] == 24  # the library's default
    kinds = set(tco.find_waste(a, rerun_hours=0, retention_days=0).findings.kind)
    assert "rerun" not in kinds and "retained" not in kinds
    # A maximum runtime of 10 hours finds the long runs too.
    assert (tco.find_waste(a, max_runtime_hours=10).findings.kind == "overrun").sum() > 1
    with pytest.raises(tco.RangeError, match="request.idle_hours"):
        tco.find_waste(a, idle_hours=-1)
    with pytest.raises(TypeError, match="unexpected threshold"):
        tco.find_waste(a, idle=1)
    with pytest.raises(tco.ParameterTypeError):
        tco.find_waste(a, idle_hours="2")
    with pytest.raises(tco.ParameterTypeError):
        tco.find_waste(a, idle_hours=True)
    with pytest.raises(TypeError):
        tco.find_waste("month.csv")
