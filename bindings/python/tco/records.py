"""Who spent what (doc/records.md, doc/model.md section 16): usage records
read from Slurm accounting or CSV, and the bill of a period split among
their teams or projects to the cent. The C library reads and attributes;
this module only moves its arrays into numpy and pandas."""
import os

import numpy as np

from ._native import ffi, lib
from .display import money, money_axis
from .display import progress as _progress
from .errors import ParameterTypeError, RangeError, UnknownParameterError, check, new_error
from .handles import check_handles
from .results import CATEGORIES, PRICE_CLASSES, _optional, enum_names, sized

JOB_STATES = enum_names(lib.tco_job_state_name)
TIERS = ("hot", "warm", "cold")
TRAFFIC = ("in_region", "cross_region", "internet")
# The columns of the CSV record format (doc/records.md), besides tag.<key>:
# the required ones, the times among them, and the names given as texts.
REQUIRED = ("start", "end", "accelerators")
COLUMNS = (*REQUIRED, "utilisation", "price_class", "state", *(f"storage_{t}_gb_hours" for t in TIERS),
           *(f"traffic_{k}_gb" for k in TRAFFIC))
TIMES = ("start", "end")
NAMED = ("price_class", "state")
_PROGRESS_STEP = 65536  # records between two calls of the request's progress (attribute.c)

# The spread rules by the library's names: "usage" (1), "even", "owner".
SPREADS = {ffi.string(lib.tco_spread_name(v)).decode(): v for v in range(lib.TCO_SPREAD_USAGE, lib.TCO_SPREAD_OWNER + 1)}


def _record_dtype():
    """tco_record as a numpy dtype: the library's offsets and stride."""
    fields = [("size", "<u8"), ("start", "<f8"), ("end", "<f8"), ("accelerators", "<f8"), ("utilisation", "<f8"),
              ("price_class", "<i4"), ("state", "<i4"), ("storage_gb_hours", ("<f8", 3)),
              ("traffic_gb", ("<f8", 3)), ("first_tag", "<u4"), ("tag_count", "<u4")]
    assert ffi.sizeof("size_t") == 8, "a 64-bit libtco"
    return np.dtype({"names": [f for f, _ in fields], "formats": [t for _, t in fields],
                     "offsets": [ffi.offsetof("tco_record", f) for f, _ in fields],
                     "itemsize": ffi.sizeof("tco_record")})


_RECORD = _record_dtype()


def _text(source):
    """The bytes of a file (a path) or the bytes given."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            return f.read()
    raise TypeError(f"expected a path or bytes, not {type(source).__name__}")


class Records:
    """Usage records as the library read them (read_csv, read_sacct,
    from_pandas). len(records); records.array (a numpy structured array
    over the library's own records, valid while this object lives);
    records.bad, the rows refused as (line, reason); records.to_pandas()."""

    def __init__(self, array, tag_pairs, tags, bad=(), keep_alive=None):
        self.array, self.tag_pairs, self._tags, self.bad = array, tag_pairs, tags, list(bad)
        self._keep_alive = keep_alive  # the library set the arrays point into; None: the tags are ours

    def _intern(self, text):
        """The id of a text, added to a tags table of our own (from_pandas)
        when no record has it: a share of the records names the keys and
        owner of the whole even when none of its records carry them."""
        found = self.find(text)
        if found is not None or self._keep_alive is not None:
            return found
        raw, tid, err = text.encode(), ffi.new("uint32_t *"), new_error()
        check(lib.tco_tags_intern(self._tags, raw, len(raw), tid, err), err, f"tag {text!r}")
        return int(tid[0])

    @classmethod
    def _read(cls, ptr):
        """The records a library reader returned (it owns them)."""
        ptr = ffi.gc(ptr, lib.tco_records_free)
        n, npairs = lib.tco_records_count(ptr), ffi.new("size_t *")
        array = (np.frombuffer(ffi.buffer(lib.tco_records_data(ptr), n * _RECORD.itemsize), dtype=_RECORD)
                 if n else np.zeros(0, dtype=_RECORD))
        pairs = lib.tco_records_tag_pairs(ptr, npairs)
        tag_pairs = (np.frombuffer(ffi.buffer(pairs, 8 * npairs[0]), dtype="<u4").reshape(-1, 2)
                     if npairs[0] else np.zeros((0, 2), dtype="<u4"))
        err, line, reason, bad = new_error(), ffi.new("uint64_t *"), ffi.new("const char **"), []
        for i in range(lib.tco_records_bad_count(ptr)):
            check(lib.tco_records_bad_at(ptr, i, line, reason, err), err)
            bad.append((int(line[0]), ffi.string(reason[0]).decode()))
        return cls(array, tag_pairs, lib.tco_records_tags(ptr), bad, keep_alive=ptr)

    def __len__(self):
        return len(self.array)

    def __repr__(self):
        return f"Records({len(self)} records, {len(self.bad)} rows refused, keys={self.keys()})"

    def text(self, tag_id):
        """The text of a tag id; None for TCO_TAG_NONE."""
        return _text_of(self._tags, tag_id)

    def find(self, text):
        """The id of a tag text, or None when no record has it."""
        raw, out = text.encode(), ffi.new("uint32_t *")
        return int(out[0]) if lib.tco_tags_find(self._tags, raw, len(raw), out, ffi.NULL) == lib.TCO_OK else None

    def tags_of(self, i):
        """Record i's tags as a dict (the first of each key)."""
        r = self.array[i]
        pairs = self.tag_pairs[int(r["first_tag"]):int(r["first_tag"]) + int(r["tag_count"])]
        out = {}
        for k, v in pairs:
            out.setdefault(self.text(k), self.text(v))
        return out

    def keys(self):
        """The tag keys the records carry, in the order first seen."""
        return sorted({self.text(k) for k in np.unique(self.tag_pairs[:, 0])}, key=self.find)

    def to_pandas(self):
        """One row a record: start and end (UTC datetimes), accelerators,
        utilisation (NaN when unknown), price_class and state (names),
        storage_<tier>_gb_hours, traffic_<kind>_gb, and tag.<key> columns
        (missing where a record has no such tag)."""
        pd = _optional("pandas")
        a = self.array
        df = pd.DataFrame({
            "start": pd.to_datetime(a["start"], unit="s", utc=True),
            "end": pd.to_datetime(a["end"], unit="s", utc=True),
            "accelerators": a["accelerators"],
            "utilisation": np.where(a["utilisation"] < 0, np.nan, a["utilisation"]),
            "price_class": pd.Categorical.from_codes(a["price_class"], PRICE_CLASSES),
            "state": pd.Categorical.from_codes(a["state"], JOB_STATES)})
        for j, tier in enumerate(TIERS):
            df[f"storage_{tier}_gb_hours"] = a["storage_gb_hours"][:, j]
        for j, kind in enumerate(TRAFFIC):
            df[f"traffic_{kind}_gb"] = a["traffic_gb"][:, j]
        owner = np.repeat(np.arange(len(a)), a["tag_count"])  # pairs are laid out record after record
        for key in self.keys():
            kid = self.find(key)
            col = np.full(len(a), None, dtype=object)
            hit = self.tag_pairs[:, 0] == kid
            col[owner[hit]] = [self.text(v) for v in self.tag_pairs[hit, 1]]
            df[f"tag.{key}"] = col
        return df


def _text_of(tags, tag_id):
    """The text of an id of a tags table; None for TCO_TAG_NONE."""
    if tag_id == lib.TCO_TAG_NONE:
        return None
    p = lib.tco_tags_text(tags, int(tag_id))
    if p == ffi.NULL:
        raise IndexError(f"tag id {tag_id} is not in the tags table")
    return ffi.string(p).decode()


def _read(reader, source, strict):
    out, err = ffi.new("tco_records **"), new_error()
    text = _text(source)
    check(reader(out, text, len(text), lib.TCO_READ_STRICT if strict else 0, err), err)
    return Records._read(out[0])


def read_csv(source, strict=False):
    """Records from a CSV file (a path) or its bytes (doc/records.md, CSV).
    A bad row is reported in .bad and skipped; with strict=True it fails
    the read, naming its line."""
    return _read(lib.tco_records_read_csv, source, strict)


def read_sacct(source, strict=False):
    """Records from `sacct --parsable2 --noheader` output (a path or its
    bytes; doc/records.md, Slurm accounting)."""
    return _read(lib.tco_records_read_sacct, source, strict)


def _codes(column, names, what):
    """Names to their enum values; an unknown name is refused by row."""
    codes = _optional("pandas").Index(names).get_indexer(column)
    bad = np.flatnonzero(codes < 0)
    if len(bad):
        raise RangeError(f"row {bad[0]}: {what} = {column.iloc[bad[0]]!r} is not one of {', '.join(names)}",
                         param=what)
    return codes


def _epoch(column):
    pd = _optional("pandas")
    if pd.api.types.is_datetime64_any_dtype(column):
        t = column.dt.tz_localize("UTC") if column.dt.tz is None else column.dt.tz_convert("UTC")
        return (t - pd.Timestamp(0, tz="UTC")).dt.total_seconds().to_numpy(dtype=float)
    if pd.api.types.is_numeric_dtype(column):
        return column.to_numpy(dtype=float)
    return _epoch(pd.to_datetime(column, utc=True, format="ISO8601"))


def from_pandas(df):
    """Records from a DataFrame with the CSV's columns (doc/records.md:
    start, end, accelerators required; utilisation, price_class, state,
    storage_<tier>_gb_hours, traffic_<kind>_gb and tag.<key> optional).
    Times are datetimes (naive ones taken as UTC), ISO texts or epoch
    seconds. The columns become the library's record array directly, and
    tco.attribute checks every record as it does a file's, naming the row."""
    pd = _optional("pandas")
    for col in df.columns:
        if col not in COLUMNS and not str(col).startswith("tag."):
            raise UnknownParameterError(f"column {col!r} is not a records column (doc/records.md, CSV)", param=col)
    for col in REQUIRED:
        if col not in df:
            raise ParameterTypeError(f"the records need a column {col!r}", param=col)
    n = len(df)
    a = np.zeros(n, dtype=_RECORD)
    a["size"] = _RECORD.itemsize
    a["start"], a["end"] = _epoch(df["start"]), _epoch(df["end"])
    a["accelerators"] = df["accelerators"].to_numpy(dtype=float)
    a["utilisation"] = df["utilisation"].fillna(-1).to_numpy(dtype=float) if "utilisation" in df else -1
    a["price_class"] = (_codes(df["price_class"].fillna("owned"), PRICE_CLASSES, "price_class")
                        if "price_class" in df else PRICE_CLASSES.index("owned"))
    a["state"] = _codes(df["state"].fillna("completed"), JOB_STATES, "state") if "state" in df else 0
    for j, tier in enumerate(TIERS):
        if f"storage_{tier}_gb_hours" in df:
            a["storage_gb_hours"][:, j] = df[f"storage_{tier}_gb_hours"].fillna(0).to_numpy(dtype=float)
    for j, kind in enumerate(TRAFFIC):
        if f"traffic_{kind}_gb" in df:
            a["traffic_gb"][:, j] = df[f"traffic_{kind}_gb"].fillna(0).to_numpy(dtype=float)
    # Tags: keys interned first (ids 0 to k - 1, as the readers do), then
    # each column's distinct values once.
    out, err = ffi.new("tco_tags **"), new_error()
    check(lib.tco_tags_new(out, err), err)
    tags = ffi.gc(out[0], lib.tco_tags_free)
    tag_cols = [c for c in df.columns if str(c).startswith("tag.")]

    def intern(text):
        raw, tid = str(text).encode(), ffi.new("uint32_t *")  # a number's value tags as its text
        check(lib.tco_tags_intern(tags, raw, len(raw), tid, err), err, f"tag {text!r}")
        return tid[0]

    keys = np.array([intern(c[4:]) for c in tag_cols], dtype="<u4")
    values = np.full((n, len(tag_cols)), -1, dtype=np.int64)
    for j, col in enumerate(tag_cols):  # an empty value is no tag, as in the CSV
        codes, uniques = pd.factorize(df[col])  # missing: code -1
        ids = np.array([intern(u) if u != "" else -1 for u in uniques], dtype=np.int64)
        values[:, j] = np.where(codes >= 0, ids[np.maximum(codes, 0)] if len(ids) else -1, -1)
    held = values >= 0
    a["tag_count"] = held.sum(axis=1)
    a["first_tag"] = np.concatenate([[0], np.cumsum(a["tag_count"])[:-1]]) if n else []
    pairs = np.stack([np.broadcast_to(keys, values.shape)[held], values[held]], axis=1).astype("<u4")
    return Records(a, pairs.reshape(-1, 2), tags)


def _seconds(t, name="period"):
    """UTC seconds of a time: epoch seconds, a datetime or an ISO text."""
    if isinstance(t, (bool, np.bool_)):
        raise ParameterTypeError(f"{name}: expected a time, not {t!r}", param=name)
    if isinstance(t, (int, float, np.integer, np.floating)):
        return float(t)
    ts = _optional("pandas").Timestamp(t)
    return (ts.tz_localize("UTC") if ts.tzinfo is None else ts).timestamp()


class Attribution:
    """The bill of a period and its split. bill: a dict of the tco_bill
    fields (money in integer cents: total, direct, idle, shared and
    category, a dict by category); groups: a DataFrame, one row a group,
    largest first, with the grouping keys' values (missing: no such tag),
    total_cents, direct_cents, idle_cents, shared_cents, <category>_cents,
    share, held_accelerator_hours, used_accelerator_hours and records.
    Money columns are exact integers: they add up to the bill's total."""

    def __init__(self, ptr, by, records, currency):
        ptr = ffi.gc(ptr, lib.tco_attribution_free)
        self._ptr, self.records = ptr, records  # for to_focus and find_waste; None when settled from parts
        self._tags = records._tags if records is not None else lib.tco_attribution_tags(ptr)
        err = new_error()
        bill = sized("tco_bill")
        check(lib.tco_attribution_bill(bill, ptr, err), err)
        self.by, self.currency = tuple(by), currency
        self.bill = {f: (dict(zip(CATEGORIES, getattr(bill, f))) if f == "category" else getattr(bill, f))
                     for f, _ in ffi.typeof("tco_bill").fields if f != "size"}
        rows, g = [], sized("tco_group")
        for i in range(lib.tco_attribution_group_count(ptr)):
            check(lib.tco_attribution_group_at(g, ptr, i, err), err)
            row = {key: _text_of(self._tags, g.value[k]) for k, key in enumerate(self.by)}
            row.update(total_cents=g.total, direct_cents=g.direct, idle_cents=g.idle, shared_cents=g.shared)
            row.update({f"{c}_cents": g.category[j] for j, c in enumerate(CATEGORIES)})
            row.update(share=g.share, held_accelerator_hours=g.held_accelerator_hours,
                       used_accelerator_hours=g.used_accelerator_hours, records=g.records)
            rows.append(row)
        self._rows = rows

    @property
    def groups(self):
        pd = _optional("pandas")
        columns = [*self.by, "total_cents", "direct_cents", "idle_cents", "shared_cents",
                   *(f"{c}_cents" for c in CATEGORIES), "share", "held_accelerator_hours",
                   "used_accelerator_hours", "records"]
        return pd.DataFrame(self._rows, columns=columns)

    to_pandas = groups.fget

    def to_focus(self, path=None, **names):
        """The attribution as FinOps FOCUS 1.2 cost and usage rows (doc/focus.md):
        a DataFrame, or written to path (CSV, or Parquet for a .parquet path:
        needs pyarrow). names: billing_account_id, billing_account_name,
        provider_name, invoice_id, region_id, region_name."""
        from .focus import to_focus
        return to_focus(self, path, **names)

    def __repr__(self):
        return (f"Attribution(by={self.by}, {len(self._rows)} groups, "
                f"total={self.bill['total'] / 100:,.2f} {self.currency})")

    def plot(self, ax=None, top=12):
        """Each group's cost by category, stacked (matplotlib); the largest
        `top` groups, the rest as one bar. Returns the axes."""
        plt = _optional("matplotlib.pyplot")
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 4))
        df = self.groups
        labels = [" / ".join("none" if v is None else str(v) for v in r) for r in df[list(self.by)].itertuples(False)]
        cents = df[[f"{c}_cents" for c in CATEGORIES]].to_numpy(dtype=float)
        if len(labels) > top:
            labels = labels[:top] + [f"{len(labels) - top} others"]
            cents = np.vstack([cents[:top], cents[top:].sum(axis=0)])
        left = np.zeros(len(labels))
        for j, c in enumerate(CATEGORIES):
            if cents[:, j].any():
                ax.barh(labels[::-1], cents[::-1, j] / 100, left=left[::-1], label=c)
                left += cents[:, j] / 100
        money_axis(ax.xaxis)
        ax.set_xlabel(f"cost ({self.currency})")
        ax.set_title(f"by {', '.join(self.by)}: {money(self.bill['total'] / 100, self.currency)} in all")
        ax.legend(fontsize=7, loc="lower right")
        ax.figure.tight_layout()
        return ax


def _request(records, by, period, idle, shared, owner, share=False):
    """The tco_attribution_request of attribute's arguments, and by as a
    tuple. share: for a share of the records (attribute_part), which
    names keys and an owner its own records may lack."""
    by = (by,) if isinstance(by, str) else tuple(by)
    if len(by) not in (1, 2):
        raise UnknownParameterError(f"by: one tag key or two, not {len(by)}", param="by")
    req = sized("tco_attribution_request")
    for k, key in enumerate(by):
        if not isinstance(key, str):
            raise ParameterTypeError(f"by: a tag key is a text, not {key!r}", param="by")
        kid = records._intern(key) if share else records.find(key)
        if kid is None or (not share and kid not in records.tag_pairs[:, 0]):
            raise UnknownParameterError(f"by: no record has a tag {key!r} (keys: {', '.join(records.keys())})",
                                        param="by")
        req.by_key[k] = kid
    req.by_count = len(by)
    for name, rule in (("idle", idle), ("shared", shared)):
        if rule not in SPREADS:
            raise UnknownParameterError(f"{name}: {rule!r} is not one of {', '.join(SPREADS)}", param=name)
    req.idle_rule, req.shared_rule = SPREADS[idle], SPREADS[shared]
    req.owner_value = lib.TCO_TAG_NONE
    if owner is not None:
        if not isinstance(owner, str):
            raise ParameterTypeError(f"owner: a tag value is a text, not {owner!r}", param="owner")
        value = records._intern(owner) if share else records.find(owner)
        if value is None or (not share and value not in records.tag_pairs[:, 1]):
            raise UnknownParameterError(f"owner: no record has the value {owner!r}", param="owner")
        req.owner_value = value
    if period is None:
        if share:
            raise ParameterTypeError("period: a share of the records needs the whole's period, (start, end)",
                                     param="period")
        period = records_span(records)
    req.period_start, req.period_end = _seconds(period[0], "period_start"), _seconds(period[1], "period_end")
    return req, by


def records_span(records):
    """The records' own span, (first start, last end) in epoch seconds: the
    period attribute takes by default ((0, 0) for no records)."""
    a = records.array
    return (float(a["start"].min()), float(a["end"].max())) if len(a) else (0.0, 0.0)


def _arrays(records):
    """The records and tag pairs as the library's pointers."""
    recs = ffi.cast("const tco_record *", ffi.from_buffer(records.array)) if len(records) else ffi.NULL
    pairs = ffi.cast("const uint32_t *", ffi.from_buffer(records.tag_pairs)) if len(records.tag_pairs) else ffi.NULL
    return recs, pairs


class Part:
    """A share of the records attributed apart (attribute_part; doc/spark.md):
    merge others into it (part.merge(other), in any order), ship it as
    bytes (bytes(part), Part.from_bytes(b)), and settle the whole
    (part.settle(topology, workload, pricing)): the Attribution that
    tco.attribute gives for all the records at once, to the cent."""

    def __init__(self, ptr):
        self._ptr = ffi.gc(ptr, lib.tco_attribution_part_free)
        keys = (lib.tco_attribution_part_key(self._ptr, k) for k in range(2))
        self.by = tuple(ffi.string(k).decode() for k in keys if k != ffi.NULL)

    @classmethod
    def from_bytes(cls, data):
        data = bytes(data)
        out, err = ffi.new("tco_attribution_part **"), new_error()
        check(lib.tco_attribution_part_load(out, data, len(data), err), err)
        return cls(out[0])

    def __bytes__(self):
        n, err = ffi.new("size_t *"), new_error()
        check(lib.tco_attribution_part_save(ffi.NULL, 0, n, self._ptr, err), err)
        buf = ffi.new("uint8_t[]", n[0])
        check(lib.tco_attribution_part_save(buf, n[0], n, self._ptr, err), err)
        return bytes(ffi.buffer(buf, n[0]))

    def merge(self, other):
        """Adds other's records to this part's; returns self."""
        if not isinstance(other, Part):
            raise TypeError(f"other: expected tco.Part, not {type(other).__name__}")
        err = new_error()
        check(lib.tco_attribution_part_merge(self._ptr, other._ptr, err), err)
        return self

    def settle(self, topology, workload, pricing):
        """The Attribution of every record merged into this part."""
        return Attribution(self._settle(topology, workload, pricing), self.by, None, pricing.currency)

    def _settle(self, topology, workload, pricing):
        """The library's attribution of the merged records (a pointer the
        Attribution made of it owns)."""
        check_handles(topology, workload, pricing)
        out, err = ffi.new("tco_attribution **"), new_error()
        check(lib.tco_attribute_parts(out, self._ptr, topology._ptr, workload._ptr, pricing._ptr, err), err)
        return out[0]

    def __repr__(self):
        return f"Part(by={self.by}, {len(bytes(self))} bytes)"


def attribute_part(records, topology, workload, pricing, by="project", period=None, idle="usage",
                   shared="usage", owner=None):
    """A share of the records attributed apart (doc/spark.md): the pass
    tco.attribute makes, without the spread. period is required (the
    whole's); the other arguments are attribute's. Records of one job_id
    must be in one share."""
    if not isinstance(records, Records):
        raise TypeError(f"records: expected tco.Records, not {type(records).__name__}")
    check_handles(topology, workload, pricing)
    req, _ = _request(records, by, period, idle, shared, owner, share=True)
    out, err = ffi.new("tco_attribution_part **"), new_error()
    recs, pairs = _arrays(records)
    check(lib.tco_attribute_part(out, recs, len(records), pairs, len(records.tag_pairs), records._tags, req,
                                 topology._ptr, workload._ptr, pricing._ptr, err), err)
    return Part(out[0])


def attribute(records, topology, workload, pricing, by="project", period=None, idle="usage",
              shared="usage", owner=None, progress=None):
    """Splits the cluster's bill over the period among the records' groups
    (doc/model.md, section 16). by: one tag key or two (a pair of keys);
    period: (start, end), end excluded (times as epoch seconds, datetimes
    or ISO texts; default: the records' own span); idle and shared: how
    idle capacity and shared services spread, "usage", "even" or "owner"
    (then owner names the by[0] value that takes them, None for the records
    without that tag). progress: a tqdm bar over the records as the library
    prices them (None: for many records, when tqdm is installed and this
    runs in a terminal or notebook)."""
    if not isinstance(records, Records):
        raise TypeError(f"records: expected tco.Records, not {type(records).__name__}")
    check_handles(topology, workload, pricing)
    req, by = _request(records, by, period, idle, shared, owner)
    out, err = ffi.new("tco_attribution **"), new_error()
    recs, pairs = _arrays(records)
    bar = _progress(len(records), progress, "attribution") if len(records) > _PROGRESS_STEP else None
    if bar:  # the library tells every 65,536 records; the callback keeps the bar in step
        told = ffi.callback("void(void *, uint64_t, uint64_t)", lambda _, done, total: bar.update(done - bar.n))
        req.progress = told
    try:
        check(lib.tco_attribute(out, recs, len(records), pairs, len(records.tag_pairs), records._tags, req,
                                topology._ptr, workload._ptr, pricing._ptr, err), err)
    finally:
        if bar:
            bar.close()
    return Attribution(out[0], by, records, pricing.currency)
