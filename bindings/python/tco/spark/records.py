"""Attribution and waste of usage records on Spark (doc/spark.md): a Spark
DataFrame with the columns of the CSV record format (those of
tco.from_pandas) priced partition by partition by the C library, one call
a partition, and combined so that the result is the single-machine one to
the cent.

Each partition becomes a tco.Part (its groups' exact sums, by text); the
parts are merged as a tree on the executors and settled once on the
driver, so idle capacity and the shared services are spread, and cents
rounded, over the whole. The waste finder runs where the records it
relates (a project's, a job name's, a dataset's copies) sit together."""
from functools import partial

import numpy as np

from ..errors import Error, ParameterTypeError, UnknownParameterError
from ..records import COLUMNS, NAMED, REQUIRED, SPREADS, TIMES, Attribution, Part, attribute_part, from_pandas
from ..records import attribute as single_attribute
from ..waste import ACTIONS, THRESHOLDS, find_waste as _find_waste, find_waste_part
from ._workers import require_library, scenario_bytes, scenario_from_bytes

__all__ = ["attribute", "find_waste", "SparkAttribution"]

_NUMBERS = tuple(c for c in COLUMNS if c not in TIMES and c not in NAMED)
_ROW = "__tco_row"          # the records' order, kept through the shuffles
_COMPONENT = "__tco_share"  # the share a record's waste is found in
# The tags the waste finder relates records by (doc/records.md): records
# sharing one of them are found in one share.
_RELATING = ("project", "job_name", "fingerprint", "name")


def _safe(name):
    """A column's name inside the shuffles: Spark reads a dot as a field of
    a struct (tag.team), and mapInPandas resolves every column by name."""
    return "__tag__" + name[4:] if name.startswith("tag.") else name


def _plain(name):
    return "tag." + name[7:] if name.startswith("__tag__") else name


def _check_columns(df):
    """The DataFrame's columns and types, checked before any work: the
    error names the column."""
    from pyspark.sql import types as T
    fields = {f.name: f.dataType for f in df.schema.fields}
    for col in fields:
        if col not in COLUMNS and not col.startswith("tag."):
            raise UnknownParameterError(f"column {col!r} is not a records column (doc/records.md, CSV)", param=col)
    for col in REQUIRED:
        if col not in fields:
            raise ParameterTypeError(f"the records need a column {col!r}", param=col)
    times = (T.TimestampType, T.TimestampNTZType, T.StringType, T.NumericType, T.DateType)
    for col, kind in fields.items():
        if col in TIMES:
            ok = isinstance(kind, times)
            want = "a timestamp, an ISO text or epoch seconds"
        elif col in _NUMBERS:
            ok, want = isinstance(kind, T.NumericType), "a number"
        else:
            ok = isinstance(kind, (T.StringType, T.NumericType, T.BooleanType))
            want = "a text"
        if not ok:
            raise ParameterTypeError(f"column {col!r} is {kind.simpleString()}: expected {want}", param=col)


def _records(frames, columns):
    """One partition's record batches as tco.Records, in the records' order,
    and that order (the _ROW values); None for an empty partition."""
    import pandas as pd
    frames = [f for f in frames if len(f)]
    if not frames:
        return None, None
    pdf = pd.concat(frames, ignore_index=True).sort_values(_ROW, kind="stable", ignore_index=True)
    pdf = pdf.rename(columns=_plain)
    return from_pandas(pdf[[c for c in columns if c in pdf]]), pdf[_ROW].to_numpy()


def _failed(e):
    """A record's error, raised on an executor, as a row the driver raises
    again with its own type and message."""
    return {"part": None, "error": f"{type(e).__name__}\0{getattr(e, 'param', None) or ''}\0{e}"}


def _raise(text):
    from .. import errors
    name, param, message = text.split("\0", 2)
    cls = getattr(errors, name, Error)
    raise cls(f"in a partition of the records: {message}", param=param or None)


def _part_of(scenario, columns, args, frames):
    """mapInPandas: a partition's part, as its bytes (or its error)."""
    import pandas as pd
    t, w, p = scenario_from_bytes(scenario)
    try:
        records, _ = _records(frames, columns)
        if records is None:
            return
        part = bytes(attribute_part(records, t, w, p, **args))
        yield pd.DataFrame({"part": [part], "error": [None]})
    except Error as e:
        yield pd.DataFrame([_failed(e)])


def _merge(a, b):
    """Two parts' bytes merged (treeAggregate, on the executors; None: no
    part yet); an error passes on."""
    if a["error"] or b["error"] or b["part"] is None:
        return a if a["error"] or not b["error"] else b
    if a["part"] is None:
        return b
    return {"part": bytes(Part.from_bytes(a["part"]).merge(Part.from_bytes(b["part"]))), "error": None}


def _span(columns, frames):
    """mapInPandas: a partition's first start and last end, as from_pandas
    reads them (the default period is the records' own span)."""
    import pandas as pd
    records, _ = _records(frames, columns)
    if records is not None:
        a = records.array
        yield pd.DataFrame({"lo": [float(a["start"].min())], "hi": [float(a["end"].max())]})


def _indexed(df, contiguous=False):
    """df with its tag columns named _safe and the records' order as a
    column, numbered in the JVM: Spark's monotonically increasing ids
    (the partition in the upper bits), or, contiguous, 0 to n - 1 (row i
    of df is record i of the single-machine run: the partitions' counts,
    then each row's offset in its partition added to theirs before it)."""
    from pyspark.sql import functions as F
    renamed = df.select(*(F.col(f"`{c}`").alias(_safe(c)) for c in df.columns))
    mid = F.monotonically_increasing_id()
    if not contiguous:
        return renamed.withColumn(_ROW, mid)
    numbered = renamed.withColumn("__tco_mid", mid).withColumn("__tco_p", F.shiftright("__tco_mid", 33))
    counts = sorted((r[0], r[1]) for r in numbered.groupBy("__tco_p").count().collect())
    starts, at = [], 0
    for p, n in counts:
        starts.append((p, at))
        at += n
    offsets = df.sparkSession.createDataFrame(starts or [(0, 0)], "__tco_p long, __tco_start long")
    within = F.col("__tco_mid").bitwiseAND(F.lit((1 << 33) - 1))
    return (numbered.join(F.broadcast(offsets), "__tco_p")
            .withColumn(_ROW, F.col("__tco_start") + within).drop("__tco_p", "__tco_mid", "__tco_start"))


class SparkAttribution(Attribution):
    """tco.Attribution of records on Spark: the same bill, groups, plot and
    FOCUS rows, to the cent, and as Spark DataFrames (groups_frame(),
    focus_frame(**names))."""

    def __init__(self, part, topology, workload, pricing, spark):
        super().__init__(part._settle(topology, workload, pricing), part.by, None, pricing.currency)
        self._spark = spark

    def groups_frame(self):
        """The groups as a Spark DataFrame (money in integer cents)."""
        return self._spark.createDataFrame(self.groups)

    def focus_frame(self, **names):
        """The FOCUS 1.2 rows as a Spark DataFrame: the columns of the CSV
        export (names: as Attribution.to_focus)."""
        return self._spark.createDataFrame(self.to_focus(**names))


def _prepare(df, topology, workload, pricing, partitions):
    from ..handles import check_handles
    check_handles(topology, workload, pricing)
    try:
        from pyspark.sql import DataFrame
    except ImportError as e:
        raise Error("tco.spark needs pyspark (pip install libtco[spark])") from e
    if not isinstance(df, DataFrame):
        raise TypeError(f"df: expected a Spark DataFrame, not {type(df).__name__}")
    _check_columns(df)
    if partitions is not None and (isinstance(partitions, bool) or not isinstance(partitions, (int, np.integer))
                                   or partitions < 1):
        raise ParameterTypeError(f"partitions: a whole number from 1, not {partitions!r}", param="partitions")
    require_library(df.sparkSession)
    return partitions or df.sparkSession.sparkContext.defaultParallelism


def _attribute(df, topology, workload, pricing, by, period, idle, shared, owner, parts):
    """The merged Part of an indexed DataFrame."""
    from pyspark.sql import functions as F
    by_ = (by,) if isinstance(by, str) else tuple(by)
    for key in by_:
        if not isinstance(key, str) or _safe(f"tag.{key}") not in df.columns:
            raise UnknownParameterError(f"by: no column 'tag.{key}' in the records", param="by")
    for name, rule in (("idle", idle), ("shared", shared)):
        if rule not in SPREADS:
            raise UnknownParameterError(f"{name}: {rule!r} is not one of {', '.join(SPREADS)}", param=name)
    columns = [_plain(c) for c in df.columns if c != _ROW]
    if period is None:  # the records' own span, read as tco.attribute reads it
        spans = df.mapInPandas(partial(_span, columns), "lo double, hi double").agg(F.min("lo"), F.max("hi")).first()
        period = (spans[0], spans[1]) if spans[0] is not None else (0.0, 0.0)
    # The records of one job in one partition (their overlaps are found
    # within a part); the others where they hash.
    job = F.col(_safe("tag.job_id")) if _safe("tag.job_id") in df.columns else F.lit(None)
    spread = df.repartition(parts, F.coalesce(F.xxhash64(job), F.xxhash64(F.col(_ROW))))
    args = dict(by=by_, period=period, idle=idle, shared=shared, owner=owner)
    scenario = scenario_bytes(topology, workload, pricing)
    rows = spread.mapInPandas(partial(_part_of, scenario, columns, args), "part binary, error string")
    none = {"part": None, "error": None}
    merged = rows.rdd.map(lambda r: {"part": r["part"], "error": r["error"]}).treeAggregate(none, _merge, _merge)
    if merged["part"] is None and not merged["error"]:  # no records: the single-machine call's answer
        import pandas as pd
        records = from_pandas(pd.DataFrame({c: [] for c in columns}))
        single_attribute(records, topology, workload, pricing, **args)
        return attribute_part(records, topology, workload, pricing, **args)
    if merged["error"]:
        _raise(merged["error"])
    return Part.from_bytes(merged["part"])


def attribute(df, topology, workload, pricing, by="project", period=None, idle="usage", shared="usage",
              owner=None, *, partitions=None):
    """tco.attribute over a Spark DataFrame of usage records (the columns
    of tco.from_pandas; doc/spark.md): each partition priced by the C
    library in one call, the parts merged exactly, the bill spread and
    rounded once. Rows are records in the DataFrame's order, as
    tco.from_pandas would take them. Returns a SparkAttribution, equal to
    tco.attribute's result to the cent. partitions: how many to price in
    (default: the cluster's parallelism)."""
    parts = _prepare(df, topology, workload, pricing, partitions)
    part = _attribute(_indexed(df), topology, workload, pricing, by, period, idle, shared, owner, parts)
    return SparkAttribution(part, topology, workload, pricing, df.sparkSession)


# ---- the waste --------------------------------------------------------------

def _relating(f):
    """Each record's relating tags as texts (None: no such tag), as
    tco.from_pandas reads them."""
    cols = [f[_safe(f"tag.{k}")].astype(object) if _safe(f"tag.{k}") in f else None for k in _RELATING]
    return [tuple(None if v is None or v != v or v == "" else str(v) for v in row)
            for row in zip(*[c if c is not None else [None] * len(f) for c in cols])]


def _keys_of(frames):
    """mapInPandas: the distinct relating tags of a partition's records."""
    import pandas as pd
    for f in frames:
        yield pd.DataFrame(list(set(_relating(f))), columns=list(_RELATING))


def _components(tuples):
    """Union-find over the relating tags: each distinct tuple's share, so
    that records sharing any one tag value are found in one share."""
    parent = {}

    def root(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for row in tuples:
        nodes = [(k, v) for k, v in zip(_RELATING, row) if v is not None]
        for a, b in zip(nodes, nodes[1:]):
            parent[root(a)] = root(b)
    ids = {}
    return {row: ids.setdefault(root(next((k, v) for k, v in zip(_RELATING, row) if v is not None)), len(ids))
            for row in tuples if any(v is not None for v in row)}


def _share_of(shares, frames):
    """mapInPandas: each record with its share; a record that relates to
    none goes where its place in the order hashes."""
    for f in frames:
        out = f.copy()
        out[_COMPONENT] = [shares.get(k, -1 - row % 4096) for k, row in zip(_relating(f), f[_ROW])]
        yield out


_FINDING = ("kind string, record long, other long, group string, since double, until double, cost double, "
            "per_day double, accelerator_hours double, gb double, job_id string, name string")


def _waste_of(scenario, whole, columns, thresholds, frames):
    """mapInPandas: a share's findings, their records by the records' order."""
    import pandas as pd
    t, w, p = scenario_from_bytes(scenario)
    records, order = _records(frames, columns)
    if records is None:
        return
    settled = Part.from_bytes(whole).settle(t, w, p)
    rows = find_waste_part(records, settled, t, w, p, **thresholds)._rows
    by = settled.by[0]
    yield pd.DataFrame({
        "kind": [r["kind"] for r in rows],
        "record": [int(order[r["record"]]) for r in rows],
        "other": pd.array([int(order[r["other"]]) if r["other"] is not None else None for r in rows], "Int64"),
        "group": [None if r[by] is None else str(r[by]) for r in rows],
        **{c: [float(r[c]) for r in rows] for c in ("since", "until", "cost", "per_day", "accelerator_hours", "gb")},
        "job_id": [r["job_id"] for r in rows], "name": [r["name"] for r in rows]})


def find_waste(df, topology, workload, pricing, *, by="project", period=None, idle="usage", shared="usage",
               owner=None, partitions=None, **thresholds):
    """tco.find_waste over a Spark DataFrame of usage records (doc/spark.md):
    the findings tco.find_waste gives for the same records in the same
    order, as a Spark DataFrame with its columns (kind, the group's value
    of by, record and other as indices in the DataFrame's order, job_id,
    name, since, until, cost, per_day, accelerator_hours, gb, action),
    largest first. Records the finder relates (one project, job name,
    fingerprint or name) are looked at on one executor; thresholds as
    tco.find_waste's."""
    import pandas as pd
    from pyspark.sql import functions as F
    for name in thresholds:
        if name not in THRESHOLDS:
            raise TypeError(f"unexpected threshold {name!r}: allowed {', '.join(THRESHOLDS)}")
    parts = _prepare(df, topology, workload, pricing, partitions)
    indexed = _indexed(df, contiguous=True)
    part = _attribute(indexed, topology, workload, pricing, by, period, idle, shared, owner, parts)
    whole = part.settle(topology, workload, pricing)
    idle_found = _find_waste(whole, **thresholds).findings  # the cluster's idle capacity: the whole's own

    tuples = [tuple(r) for r in indexed.mapInPandas(
        _keys_of, ", ".join(f"{k} string" for k in _RELATING)).distinct().collect()]
    from pyspark.sql import types as T
    schema = T.StructType([*indexed.schema.fields, T.StructField(_COMPONENT, T.LongType(), False)])
    placed = indexed.mapInPandas(partial(_share_of, _components(tuples)), schema).repartition(parts, _COMPONENT)
    scenario = scenario_bytes(topology, workload, pricing)
    found = placed.mapInPandas(partial(_waste_of, scenario, bytes(part), list(df.columns), thresholds), _FINDING)

    spark = df.sparkSession
    if len(idle_found):
        r = idle_found.iloc[0]
        found = found.unionByName(spark.createDataFrame(pd.DataFrame({
            "kind": [r["kind"]], "record": pd.array([None], "Int64"), "other": pd.array([None], "Int64"),
            "group": [None], "since": [r["since"].timestamp()], "until": [r["until"].timestamp()],
            "cost": [float(r["cost"])], "per_day": [float(r["per_day"])],
            "accelerator_hours": [float(r["accelerator_hours"])], "gb": [float(r["gb"])],
            "job_id": [None], "name": [None]}), _FINDING))
    actions = spark.createDataFrame(pd.DataFrame({"kind": list(ACTIONS), "action": list(ACTIONS.values())}))
    key = whole.by[0]
    return (found.join(F.broadcast(actions), "kind", "left")
            .withColumn("since", F.timestamp_seconds("since")).withColumn("until", F.timestamp_seconds("until"))
            .withColumnRenamed("group", key)
            # the single-machine order: cost, then record (idle capacity, no record, after), then kind
            .orderBy(F.col("cost").desc(), F.col("record").asc_nulls_last(), F.col("kind"))
            .select("kind", key, "record", "job_id", "name", "other", "since", "until", "cost", "per_day",
                    "accelerator_hours", "gb", "action"))
