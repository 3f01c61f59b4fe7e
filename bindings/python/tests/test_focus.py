"""The FOCUS export checked by the FinOps Foundation's own validator
(focus-validator 2.2.1, through scripts/focus.sh) and read back by DuckDB,
which re-sums it per team to the same cents as the attribution. The
example month (examples/month) is the data: five teams, every kind of
charge, reserved time used and unused."""
import json
import subprocess

import duckdb
import pandas as pd
import pytest

import tco

PERIOD = ("2026-11-01", "2026-12-01")


@pytest.fixture(scope="module")
def month():
    from conftest import ROOT
    records = tco.read_csv(ROOT / "examples" / "month" / "month.csv")
    return records, tco.load(ROOT / "examples" / "month" / "cluster.json")


def attribution(month, by="team", **kw):
    records, (t, w, p) = month
    return tco.attribute(records, t, w, p, by=by, period=PERIOD, **kw)


def validate(root, *paths):
    """scripts/focus.sh: the validator, every applicable rule; fails on any."""
    p = subprocess.run(["bash", str(root / "scripts" / "focus.sh"), *map(str, paths)], capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.count("focus.sh: OK") == len(paths)


def test_validator_passes_csv_and_parquet(month, root, tmp_path):
    a = attribution(month)
    a.to_focus(tmp_path / "team.csv")
    a.to_focus(tmp_path / "team.parquet")
    # Pairs with a group of no team (the records without a kind), a region
    # and names of one's own; idle and shared spread evenly.
    b = attribution(month, by=("kind", "team"), idle="even", shared="even")
    b.to_focus(tmp_path / "pairs.csv", billing_account_id="gpu-cluster-1", billing_account_name="GPU cluster",
               provider_name="Research platform", region_id="eu-west-1")
    validate(root, tmp_path / "team.csv", tmp_path / "team.parquet", tmp_path / "pairs.csv")


def test_duckdb_resums_to_the_cent(month, tmp_path):
    a = attribution(month)
    a.to_focus(tmp_path / "focus.csv")
    a.to_focus(tmp_path / "focus.parquet")
    groups = a.groups.set_index("team")["total_cents"].to_dict()
    for source in ("read_csv_auto('{}')", "read_parquet('{}')"):
        path = tmp_path / ("focus.csv" if source.startswith("read_csv") else "focus.parquet")
        rows = duckdb.sql(f"""
            SELECT json_extract_string(Tags, '$.team') AS team,
                   CAST(round(sum(CAST(BilledCost AS DECIMAL(18, 2))) * 100) AS BIGINT) AS cents
            FROM {source.format(path)} GROUP BY team""").fetchall()
        assert dict(rows) == groups
        assert sum(cents for _, cents in rows) == a.bill["total"]


def test_rows(month):
    a = attribution(month)
    df = a.to_focus()
    assert list(df.columns[:3]) == ["BillingAccountId", "BillingAccountName", "BillingAccountType"]
    assert (df.BillingCurrency == "USD").all() and (df.ChargeCategory == "Usage").all()
    assert df.BillingPeriodStart.iloc[0] == pd.Timestamp("2026-11-01", tz="UTC")
    # Each team's categories are its rows, to the cent.
    cents = (df.BilledCost * 100).round().astype("int64")
    for _, g in a.groups.iterrows():
        mine = df.SubAccountId == g.team
        for c in tco.CATEGORIES:
            assert cents[mine & (df.ServiceName == c)].sum() == g[f"{c}_cents"]
    # Reserved time: the commitment used; the reserved part of idle
    # capacity: unused, with no consumed quantity, listed at on demand.
    used = df[df.CommitmentDiscountStatus == "Used"]
    unused = df[df.CommitmentDiscountStatus == "Unused"]
    assert len(used) and len(unused) and (used.PricingCategory == "Committed").all()
    assert unused.ConsumedQuantity.isna().all() and (unused.ResourceId == "libtco/reserved").all()
    assert (unused.ListUnitPrice == 4.0).all() and (unused.ContractedUnitPrice == 2.5).all()
    assert all(json.loads(t) == {"team": s} for t, s in zip(df.Tags, df.SubAccountId))


def test_bad_names(month):
    a = attribution(month)
    with pytest.raises(tco.RangeError, match="request.provider_name"):
        a.to_focus(provider_name="two\nlines")
    with pytest.raises(TypeError, match="billing_account"):
        a.to_focus(billing_acount_id="x")
    with pytest.raises(tco.ParameterTypeError):
        a.to_focus(invoice_id="a\0b")
