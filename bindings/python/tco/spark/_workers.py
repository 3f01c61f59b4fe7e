"""What the Spark functions share: the check that the workers can import
tco, and scenarios shipped to them as bytes (cffi handles do not pickle)."""
import sys

from ..errors import Error
from ..files import from_cbor, to_cbor

# (application, worker Python) -> the version the workers import: a context
# keeps its workers' Python, so one tiny job per context suffices. Failures
# are not kept: shipping the library (sc.addPyFile...) and asking again works.
_READY = {}

SHIP = ("ship it to every executor: a wheel with libtco inside (built with TCO_LIBTCO=bundled) installed on "
        "every node's Python, or into a packed environment given to spark.archives (--archives; --py-files "
        "cannot carry it: Python loads no compiled extension from a zip); or install libtco and this binding "
        "on every node (see doc/spark.md, \"Shipping the library\")")


def _probe(_):
    """Runs on a worker: tco's version, or why it cannot be imported. A
    nested import: this module's own import would need tco already."""
    try:
        import tco
    except Exception as e:  # noqa: BLE001 - ImportError, or OSError from a libtco.so that is not found
        return [(None, f"{type(e).__name__}: {e}", sys.executable)]
    return [(tco.__version__, None, sys.executable)]


def require_library(spark):
    """Raises tco.Error, saying how to ship the library, unless the Python
    workers of this SparkSession (or SparkContext) import the same tco
    version as the driver. Runs one tiny job per context and worker Python;
    returns the workers' tco version."""
    from .. import __version__
    sc = getattr(spark, "sparkContext", spark)
    key = (sc.applicationId, sc.pythonExec)
    if key in _READY:
        return _READY[key]
    # cloudpickle sends a function of an importable module by name, which
    # a worker without tco could not unpickle: _probe goes by value.
    probe = _by_value(_probe)
    try:
        version, why, where = sc.parallelize([0], 1).mapPartitions(probe).collect()[0]
    except Exception as e:  # noqa: BLE001 - the job itself failed (a worker Python that does not start...)
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise Error(f"the Spark workers could not run a job that imports tco ({first}): {SHIP}") from e
    if version is None:
        raise Error(f"the Spark workers' Python ({where}) cannot import tco ({why}): {SHIP}")
    if version != __version__:
        raise Error(f"the Spark workers import libtco {version}, the driver {__version__}: the same version "
                    f"gives the same numbers; {SHIP}")
    _READY[key] = version
    return version


def _by_value(fn):
    """A copy of fn that cloudpickle pickles by value (it is not found by
    its module and name), with the same code and globals."""
    import types
    copy = types.FunctionType(fn.__code__, {"sys": sys, "__builtins__": __builtins__}, fn.__name__)
    copy.__qualname__ = f"<shipped>.{fn.__name__}"
    return copy


def scenario_bytes(topology, workload, pricing):
    """The scenario as its canonical CBOR bytes, to ship to the workers."""
    return to_cbor(topology, workload, pricing)


def scenario_from_bytes(b):
    """(Topology, Workload, Pricing) rebuilt on a worker from scenario_bytes()."""
    return from_cbor(bytes(b))
