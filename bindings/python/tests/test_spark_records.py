"""tco.spark.attribute and tco.spark.find_waste on a real local Spark: the
bill, every group, the FOCUS rows and the findings equal to the
single-machine ones (money to the cent, every other number bit for bit),
for several partitionings and skewed tags, and bad input refused before
any work starts. Also the parts themselves (tco.attribute_part), merged in
any order, in one process."""
import numpy as np
import pandas as pd
import pytest

import tco
from tco.focus import focus_csv

pytest.importorskip("tco.spark")

PARTITIONS = [1, 3, 17]
T0 = pd.Timestamp("2026-03-01", tz="UTC")


def records_frame(n=1500, seed=7):
    """Records with skewed tags (one team holds most; some have none), jobs
    that overlap, reruns, copies and storage left behind."""
    rng = np.random.default_rng(seed)
    # times to the microsecond: what Spark's timestamps hold
    start = (T0 + pd.to_timedelta(rng.uniform(0, 28 * 86400, n), unit="s")).floor("us")
    hours = np.where(rng.random(n) < 0.05, 0, rng.exponential(20, n))
    project = rng.integers(0, 12, n)
    stored = rng.random(n) < 0.3
    team = np.where(rng.random(n) < 0.7, "vision", rng.choice(["nlp", "speech", "rl", "ops"], n)).astype(object)
    team[rng.random(n) < 0.06] = None
    return pd.DataFrame({
        "start": start, "end": (start + pd.to_timedelta(hours * 3600, unit="s")).floor("us"),
        "accelerators": rng.integers(1, 33, n).astype(float),
        "utilisation": np.where(rng.random(n) < 0.3, np.nan, rng.random(n)),
        "price_class": rng.choice(["on_demand", "reserved", "owned"], n),
        "state": rng.choice(["completed", "failed", "cancelled", "running"], n, p=[0.6, 0.25, 0.1, 0.05]),
        "storage_hot_gb_hours": np.where(stored, rng.uniform(0, 4e5, n), 0.0),
        "traffic_internet_gb": rng.uniform(0, 50, n),
        "tag.team": team,
        "tag.project": [f"p{p}" for p in project],
        "tag.job_id": [f"j{p}-{k}" for p, k in zip(project, rng.integers(0, 200, n))],
        "tag.job_name": [f"train-{p}-{k}" for p, k in zip(project, rng.integers(0, 8, n))],
        "tag.user": rng.choice(["ann", "bob", "cy"], n),
        "tag.kind": np.where(stored, rng.choice(["checkpoint", "dataset"], n), None),
        "tag.name": np.where(stored, [f"ckpt-{k}" for k in rng.integers(0, 30, n)], None),
        "tag.fingerprint": np.where(stored & (rng.random(n) < 0.5), [f"fp{k}" for k in rng.integers(0, 20, n)],
                                    None)})


@pytest.fixture(scope="module")
def frame():
    return records_frame()


@pytest.fixture(scope="module")
def handles():
    return tco.Topology(accelerators=512, owned_share=0.4, reserved_share=0.3), tco.Workload(), \
        tco.Pricing(on_demand_per_accel_hour=4, reserved_per_accel_hour=2.5, spot_per_accel_hour=2,
                    capex_per_accelerator=25000)


PERIOD = ("2026-03-03T00:00:00Z", "2026-03-27T00:00:00Z")


def same_attribution(got, want):
    assert got.bill == want.bill
    pd.testing.assert_frame_equal(got.groups, want.groups, check_exact=True)
    assert focus_csv(got) == focus_csv(want)


# ---- parts, one process -----------------------------------------------------

def test_parts_merge_to_the_whole(frame, handles):
    whole = tco.attribute(tco.from_pandas(frame), *handles, by=("team", "project"), period=PERIOD)
    rng = np.random.default_rng(1)
    jobs = frame["tag.job_id"].to_numpy()
    share = {j: rng.integers(0, 4) for j in set(jobs)}  # a job's records in one share
    parts = [tco.attribute_part(tco.from_pandas(frame[[share[j] == k for j in jobs]].sample(frac=1, random_state=k)),
                                *handles, by=("team", "project"), period=PERIOD) for k in range(4)]
    merged = tco.Part.from_bytes(bytes(parts[2]))
    for p in (parts[0], parts[3], parts[1]):
        merged.merge(tco.Part.from_bytes(bytes(p)))
    assert merged.by == ("team", "project")
    same_attribution(merged.settle(*handles), whole)


def test_part_refusals(frame, handles):
    records = tco.from_pandas(frame)
    with pytest.raises(tco.ParameterTypeError, match="period"):
        tco.attribute_part(records, *handles)
    a = tco.attribute_part(records, *handles, period=PERIOD)
    with pytest.raises(tco.InconsistentError, match="other keys"):
        a.merge(tco.attribute_part(records, *handles, by="team", period=PERIOD))
    with pytest.raises(tco.InconsistentError, match="other inputs"):
        a.settle(tco.Topology(accelerators=256), handles[1], handles[2])
    with pytest.raises(tco.Error, match="not a part"):
        tco.Part.from_bytes(b"not a part at all")
    data = bytes(a)
    with pytest.raises(tco.Error, match="end before"):
        tco.Part.from_bytes(data[:-3])


# ---- on Spark ---------------------------------------------------------------

@pytest.mark.parametrize("partitions", PARTITIONS)
def test_attribute_is_the_single_machine_bill(spark, frame, handles, partitions):
    want = tco.attribute(tco.from_pandas(frame), *handles, by="team", period=PERIOD, idle="even")
    got = tco.spark.attribute(spark.createDataFrame(frame), *handles, by="team", period=PERIOD, idle="even",
                              partitions=partitions)
    same_attribution(got, want)
    focus = got.focus_frame().toPandas()
    assert list(focus.columns) == list(want.to_focus().columns)
    assert round(focus["BilledCost"].sum() * 100) == want.bill["total"]
    groups = got.groups_frame().toPandas()
    assert groups["total_cents"].sum() == want.bill["total"]


def test_attribute_defaults_pairs_and_owner(spark, frame, handles):
    df = spark.createDataFrame(frame).repartition(5)  # the order a shuffle leaves is the records' order
    rows = df.toPandas()
    for kw in (dict(), dict(by=("team", "project"), shared="owner", owner="ops")):
        want = tco.attribute(tco.from_pandas(rows), *handles, **kw)
        same_attribution(tco.spark.attribute(df, *handles, partitions=3, **kw), want)


@pytest.mark.parametrize("partitions", [1, 17])
def test_find_waste_is_the_single_machine_waste(spark, frame, handles, partitions):
    want = tco.find_waste(tco.from_pandas(frame), *handles, period=PERIOD, retention_days=7)
    got = tco.spark.find_waste(spark.createDataFrame(frame), *handles, period=PERIOD, retention_days=7,
                               partitions=partitions).toPandas()
    w = want.findings.drop(columns=["tags"])
    assert len(got) == len(w) > 50
    for c in ("kind", "project", "job_id", "name", "action"):
        assert list(got[c]) == list(w[c]), c
    for c in ("record", "other"):
        assert list(got[c].astype("Int64")) == list(w[c]), c
    for c in ("cost", "per_day", "accelerator_hours", "gb"):
        assert got[c].to_numpy().tobytes() == w[c].to_numpy().tobytes(), c
    for c in ("since", "until"):  # Spark's timestamps hold microseconds
        t = got[c].dt.tz_localize("UTC") if got[c].dt.tz is None else got[c]
        assert list(t.dt.round("us")) == list(w[c].dt.round("us")), c


def test_bad_input(spark, frame, handles):
    df = spark.createDataFrame(frame)
    with pytest.raises(tco.UnknownParameterError, match="'colour'") as e:
        tco.spark.attribute(df.withColumnRenamed("state", "colour"), *handles)
    assert e.value.param == "colour"
    with pytest.raises(tco.ParameterTypeError, match="'end'"):
        tco.spark.attribute(df.drop("end"), *handles)
    with pytest.raises(tco.ParameterTypeError, match="'accelerators' is string"):
        tco.spark.attribute(df.withColumn("accelerators", df["accelerators"].cast("string")), *handles)
    with pytest.raises(tco.UnknownParameterError, match="tag.nope"):
        tco.spark.attribute(df, *handles, by="nope")
    # a record's error, raised on an executor, comes back as the library's
    bad = frame.copy()
    bad.loc[7, "accelerators"] = -1
    with pytest.raises(tco.RangeError, match="accelerators"):
        tco.spark.attribute(spark.createDataFrame(bad), *handles, partitions=3)
    # no records at all: the single-machine answer, the same error
    with pytest.raises(tco.Error) as single:
        tco.attribute(tco.from_pandas(frame.iloc[:0]), *handles, period=PERIOD)
    with pytest.raises(type(single.value), match=str(single.value)[:20]):
        tco.spark.attribute(df.limit(0), *handles, period=PERIOD)
    # empty partitions (5 records in 17) change nothing; nor does the order
    # a shuffle leaves: the bill does not depend on the records' order
    few = frame.iloc[[3, 9, 27, 81, 243]]
    want = tco.attribute(tco.from_pandas(few[::-1]), *handles)
    same_attribution(tco.spark.attribute(spark.createDataFrame(few).repartition(2), *handles, partitions=17), want)
