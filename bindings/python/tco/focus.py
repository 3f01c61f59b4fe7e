"""An attribution as FinOps FOCUS 1.2 cost and usage rows (doc/focus.md).
The C library writes the CSV, rows and cents alike; this module hands it
on as text, a file, a DataFrame or Parquet."""
import io
import os

from ._native import ffi, lib
from .errors import ParameterTypeError, check, new_error
from .results import _optional, sized

NAMES = ("billing_account_id", "billing_account_name", "provider_name", "invoice_id", "region_id", "region_name")
# The columns FOCUS types as numbers and as date-times; the rest are text.
DECIMALS = ("BilledCost", "EffectiveCost", "ListCost", "ContractedCost", "ListUnitPrice", "ContractedUnitPrice",
            "PricingQuantity", "PricingCurrencyListUnitPrice", "PricingCurrencyContractedUnitPrice",
            "PricingCurrencyEffectiveCost", "ConsumedQuantity", "CommitmentDiscountQuantity")
TIMES = ("BillingPeriodStart", "BillingPeriodEnd", "ChargePeriodStart", "ChargePeriodEnd")


def focus_csv(attribution, **names):
    """The FOCUS 1.2 CSV of an attribution, as the library writes it (str)."""
    req, keep = sized("tco_focus_request"), []
    for name, value in names.items():
        if name not in NAMES:
            raise TypeError(f"unexpected name {name!r}: allowed {', '.join(NAMES)}")
        if value is not None:
            if not isinstance(value, str) or "\0" in value:
                raise ParameterTypeError(f"{name}: expected a text without NUL, not {value!r}", param=name)
            # A lone surrogate goes on as its bytes, for the library to refuse naming the field.
            keep.append(ffi.new("char[]", value.encode("utf-8", "surrogatepass")))
            setattr(req, name, keep[-1])
    err, n = new_error(), ffi.new("size_t *")
    tags = attribution._tags
    check(lib.tco_attribution_focus_csv(attribution._ptr, tags, req, ffi.NULL, 0, n, err), err)
    buf = ffi.new("char[]", n[0] + 1)
    check(lib.tco_attribution_focus_csv(attribution._ptr, tags, req, buf, n[0] + 1, n, err), err)
    return ffi.string(buf, n[0]).decode()


def to_focus(attribution, path=None, **names):
    """A DataFrame of the rows (numbers as floats, times as UTC timestamps,
    empty fields as missing), or the rows written to path: the library's
    CSV byte for byte, or Parquet for a path ending in .parquet."""
    text = focus_csv(attribution, **names)
    if path is not None and not os.fspath(path).endswith(".parquet"):
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return None
    pd = _optional("pandas")
    df = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False, na_values=[""])
    for c in DECIMALS:
        df[c] = df[c].astype("float64")
    for c in TIMES:
        df[c] = pd.to_datetime(df[c], utc=True)
    if path is None:
        return df
    _optional("pyarrow")
    df.to_parquet(path, index=False)
    return None
