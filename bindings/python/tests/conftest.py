import os
import pathlib

import matplotlib
import pytest

matplotlib.use("Agg")  # headless

import tco  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden"


@pytest.fixture
def scenario():
    return tco.Topology(), tco.Workload(), tco.Pricing()


@pytest.fixture
def golden():
    return GOLDEN


@pytest.fixture
def root():
    return ROOT


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt
    plt.close("all")


os.environ.setdefault("MPLBACKEND", "Agg")
