"""How results show in a notebook and a terminal: money on human scales,
HTML tables, axes with units, and an optional progress bar."""
import html
import os
import sys


def money(v, currency=""):
    """1234567.8 -> "1.23M USD": amounts on a scale people read."""
    a = abs(v)
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if a >= scale:
            text = f"{v / scale:.3g}{suffix}"
            break
    else:
        text = f"{v:.2f}" if a < 100 else f"{v:.0f}"
    return f"{text} {currency}".strip()


def money_axis(axis):
    """Formats a matplotlib axis's ticks as money (k, M, B); the label names the currency."""
    from matplotlib.ticker import FuncFormatter
    axis.set_major_formatter(FuncFormatter(lambda v, _: money(v)))
    return axis


def html_table(rows, header=None, caption=None):
    """rows of cells as an HTML table (escaped); header and caption optional."""
    out = ["<table>"]
    if caption:
        out.append(f"<caption style='text-align:left'>{html.escape(caption)}</caption>")
    if header:
        out.append("<tr>" + "".join(f"<th>{html.escape(str(h))}</th>" for h in header) + "</tr>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td style='text-align:{'left' if i == 0 else 'right'}'>"
                                    f"{html.escape(str(c))}</td>" for i, c in enumerate(row)) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _interactive():
    """A terminal or a notebook: where a progress bar is wanted."""
    if "ipykernel" in sys.modules:
        return True
    try:
        return os.isatty(sys.stderr.fileno())
    except (AttributeError, OSError, ValueError):
        return False


def progress(total, enabled=None, desc=""):
    """A tqdm bar over total steps, or None: enabled None means on when
    tqdm is installed and the output is a terminal or a notebook."""
    if enabled is False or (enabled is None and not _interactive()):
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        if enabled:
            raise ImportError("progress=True needs tqdm: pip install tqdm") from None
        return None
    return tqdm(total=total, desc=desc, leave=False)
