import os
import pathlib

import matplotlib
import pytest

matplotlib.use("Agg")  # headless

import tco  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden"


# The illustrative rates of libtco 1.0, which hand-worked values assume:
# since 1.1 a rate left unset is the accelerator's list price.
RATES_1_0 = dict(on_demand_per_accel_hour=4, reserved_per_accel_hour=2.5, spot_per_accel_hour=2,
                 capex_per_accelerator=25000)


@pytest.fixture
def scenario():
    return tco.Topology(), tco.Workload(), tco.Pricing(**RATES_1_0)


# The built-in scenario of libtco 1.0, which hand-worked values assume: since
# 1.1 the model's shape is not given by default (layers = hidden_size = 0: no
# attention term), attention counts as causal and checkpoints are written
# asynchronously.
SCENARIO_1_0 = dict(layers=80, hidden_size=8192, seq_len=4096, attention="full", checkpoint_async=0)


@pytest.fixture
def scenario_1_0():
    return tco.Topology(), tco.Workload(**SCENARIO_1_0), tco.Pricing(**RATES_1_0)


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
