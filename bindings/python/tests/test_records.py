"""Usage records and attribution from Python: the records are the library's
own (read through the structured array), the DataFrames round-trip, the
split adds up to the bill to the cent, and bad input raises the library's
typed errors."""
import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes

import tco
from conftest import RATES_1_0

# The CSV example of doc/records.md, one refused row and an untagged record.
CSV = b"""start,end,accelerators,utilisation,price_class,state,storage_hot_gb_hours,tag.project,tag.user
2026-11-01T00:00:00Z,2026-11-01T02:00:00Z,8,0.62,on_demand,completed,1200,llama,alice
2026-11-01T01:30:00Z,2026-11-01T03:00:00Z,16,,spot,failed,,"vision, eval",bob
2026-11-01T01:30:00Z,2026-11-01T03:00:00Z,banana,,spot,failed,,x,bob
2026-11-01T02:00:00Z,2026-11-01T04:00:00Z,4,,owned,completed,,,carol
"""
# sacct --parsable2 --noheader output: a job, its batch step (skipped), a running job.
SACCT = b"""100|pretrain|llama|alice|gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T02:00:00|7200|billing=64,cpu=64,gres/gpu=8,mem=500G,node=1
100.batch|batch|llama|alice||COMPLETED|2026-11-01T00:00:00|2026-11-01T02:00:00|7200|cpu=64,gres/gpu=8,mem=500G,node=1
101|eval|vision|bob|gpu|RUNNING|2026-11-01T01:00:00|Unknown|3600|billing=16,cpu=16,gres/gpu=2,node=1
"""
PERIOD = ("2026-11-01", "2026-11-02")


@pytest.fixture
def records():
    return tco.read_csv(CSV)


@pytest.fixture
def cluster():
    return tco.Topology(accelerators=64), tco.Workload(), tco.Pricing(**RATES_1_0)


def test_csv_records(records, tmp_path):
    assert len(records) == 3 and records.bad == [(4, 'accelerators = "banana" is not a number')]
    a = records.array
    assert a["accelerators"].tolist() == [8, 16, 4]
    assert a["end"][0] - a["start"][0] == 7200 and a["utilisation"].tolist() == [0.62, -1, -1]
    df = records.to_pandas()
    assert df["start"][0] == pd.Timestamp("2026-11-01T00:00:00Z")
    assert df["price_class"].tolist() == ["on_demand", "spot", "owned"]
    assert df["state"].tolist() == ["completed", "failed", "completed"]
    assert df["tag.project"].tolist()[:2] == ["llama", "vision, eval"] and pd.isna(df["tag.project"][2])
    assert np.isnan(df["utilisation"][1]) and df["storage_hot_gb_hours"][0] == 1200
    path = tmp_path / "usage.csv"
    path.write_bytes(CSV)
    assert (tco.read_csv(path).array == a).all()


def test_strict_names_the_line():
    with pytest.raises(tco.ParameterTypeError, match="line 4"):
        tco.read_csv(CSV, strict=True)


def test_sacct_records():
    r = tco.read_sacct(SACCT)
    assert len(r) == 2 and r.bad == []
    df = r.to_pandas()
    assert df["accelerators"].tolist() == [8, 2] and df["state"].tolist() == ["completed", "running"]
    assert df["tag.project"].tolist() == ["llama", "vision"] and df["tag.job_id"].tolist() == ["100", "101"]
    assert (df["end"][1] - df["start"][1]).total_seconds() == 3600  # End Unknown: Start + ElapsedRaw


def test_pandas_round_trip(records):
    again = tco.from_pandas(records.to_pandas())
    assert (again.array == records.array).all()
    assert again.to_pandas().equals(records.to_pandas())


def test_attribution_adds_up_to_the_cent(records, cluster):
    a = tco.attribute(records, *cluster, by="project", period=PERIOD)
    g, bill = a.groups, a.bill
    assert g["total_cents"].dtype == np.int64 and g["total_cents"].sum() == bill["total"]
    assert sum(bill["category"].values()) == bill["total"] == bill["direct"] + bill["idle"] + bill["shared"]
    cats = g[[f"{c}_cents" for c in tco.CATEGORIES]].sum(axis=1)
    assert (cats == g["total_cents"]).all()
    assert (g["direct_cents"] + g["idle_cents"] + g["shared_cents"] == g["total_cents"]).all()
    # 64 accelerators over 24 hours, 48 accelerator-hours held (16 + 24 + 8).
    assert bill["capacity_accelerator_hours"] == 64 * 24 and bill["held_accelerator_hours"] == 48
    assert g["records"].sum() == 3 and g["held_accelerator_hours"].tolist() == [16, 24, 8]
    assert g["total_cents"].is_monotonic_decreasing and g["project"].tolist()[:2] == ["llama", "vision, eval"]
    assert isinstance(a.plot(), Axes)


def test_pairs_and_owner(records, cluster):
    by_pair = tco.attribute(records, *cluster, by=("project", "user"), period=PERIOD, idle="owner", owner="llama")
    g = by_pair.groups
    assert list(g.columns[:2]) == ["project", "user"] and g["total_cents"].sum() == by_pair.bill["total"]
    assert g.loc[g["user"] == "alice", "idle_cents"].item() == by_pair.bill["idle"]  # llama takes all idle
    even = tco.attribute(records, *cluster, by="user", period=PERIOD, idle="even", shared="even").groups
    assert even["idle_cents"].max() - even["idle_cents"].min() <= 1  # even, to the cent


def test_bad_requests(records, cluster):
    with pytest.raises(tco.UnknownParameterError, match="team"):
        tco.attribute(records, *cluster, by="team", period=PERIOD)
    with pytest.raises(tco.UnknownParameterError, match="one tag key or two"):
        tco.attribute(records, *cluster, by=("project", "user", "project"), period=PERIOD)
    with pytest.raises(tco.UnknownParameterError, match="usage, even, owner"):
        tco.attribute(records, *cluster, idle="fair", period=PERIOD)
    with pytest.raises(tco.UnknownParameterError, match="owner"):
        tco.attribute(records, *cluster, idle="owner", owner="nobody", period=PERIOD)
    with pytest.raises(tco.Error, match="period"):
        tco.attribute(records, *cluster, period=("2026-11-02", "2026-11-01"))
    with pytest.raises(TypeError):
        tco.attribute(CSV, *cluster)
    with pytest.raises(TypeError):
        tco.read_csv(12)


def test_from_pandas_attributes_as_the_file(records, cluster):
    df = records.to_pandas()
    df["start"] = df["start"].dt.tz_localize(None)  # naive datetimes are UTC
    df["end"] = df["end"].astype(str)  # ISO texts as well
    mine = tco.attribute(tco.from_pandas(df), *cluster, by="project", period=PERIOD)
    theirs = tco.attribute(records, *cluster, by="project", period=PERIOD)
    assert mine.bill == theirs.bill and mine.groups.equals(theirs.groups)


def test_from_pandas_refuses_by_name(records, cluster):
    df = records.to_pandas()
    with pytest.raises(tco.RangeError, match="row 1: price_class = 'reservd'"):
        tco.from_pandas(df.assign(price_class=["spot", "reservd", "owned"]))
    with pytest.raises(tco.UnknownParameterError, match="'team'"):
        tco.from_pandas(df.assign(team="x"))
    with pytest.raises(tco.ParameterTypeError, match="'accelerators'"):
        tco.from_pandas(df.drop(columns="accelerators"))
    backwards = tco.from_pandas(df.assign(end=df["start"] - pd.Timedelta(hours=1)))
    with pytest.raises(tco.RangeError, match=r"records\[0\].end"):  # checked as a file's records are
        tco.attribute(backwards, *cluster, period=PERIOD)
