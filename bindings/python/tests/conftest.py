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


# The built-in scenario of libtco 1.0, which hand-worked values assume: since
# 1.1 the model's shape is not given by default (layers = hidden_size = 0: no
# attention term), attention counts as causal and checkpoints are written
# asynchronously.
SCENARIO_1_0 = dict(layers=80, hidden_size=8192, seq_len=4096, attention="full", checkpoint_async=0)


@pytest.fixture
def scenario_1_0():
    return tco.Topology(), tco.Workload(**SCENARIO_1_0), tco.Pricing()


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
