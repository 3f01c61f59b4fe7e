import os
import pathlib

import matplotlib
import pytest

matplotlib.use("Agg")  # headless

import tco  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden"


def pytest_configure(config):
    # pyspark 4.3 warns, on every conversion, that pandas 3 is not yet fully
    # supported (and about pandas' deprecations it calls): its warnings, not
    # ours, which would bury any of ours.
    config.addinivalue_line("filterwarnings", r"ignore:::pyspark(\..*)?")


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


@pytest.fixture(scope="session")
def spark():
    """One local Spark (local[2]) for the whole run: a JVM takes seconds to
    start. Its Python workers run this interpreter, which imports the same
    tco. Skipped, saying why, without Java or pyspark."""
    import shutil
    import sys
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install libtco[spark])")
    if not shutil.which("java") and not os.environ.get("JAVA_HOME"):
        pytest.skip("no Java (Spark needs Java 17 or later): install a JDK or set JAVA_HOME")
    os.environ["PYSPARK_PYTHON"] = os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession
    session = (SparkSession.builder.master("local[2]").appName("libtco tests")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
