"""libtco on Apache Spark (the optional extra libtco[spark]): sweeps and Monte
Carlo split across a cluster, to the same numbers as on one machine, bit for
bit; attribution and waste of job records by partition. Each function takes
the SparkSession first, then the single-machine function's arguments:

    tco.spark.monte_carlo(spark, t, w, p, {"mfu": tco.triangular(0.3, 0.4, 0.5)}, samples=10**7)

The executors' Python must import tco (doc/spark.md, "Shipping the library")."""
from .decide import monte_carlo, sweep
from .records import *  # noqa: F401,F403 - attribute, find_waste
from ._workers import require_library, scenario_bytes, scenario_from_bytes
