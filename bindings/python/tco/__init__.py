"""libtco for Python: what AI training really costs.

    import tco
    e = tco.estimate(tco.Topology(accelerators=2048), tco.Workload(), tco.Pricing())
    e.total, e.cost["compute"], e.to_pandas(), e.plot()

Every input is a parameter of the library's table (tco.params()); every
formula is in doc/model.md of the libtco repository.
"""
from ._native import ffi, lib
from .errors import (Error, FrozenError, InconsistentError, NotFiniteError, NotFrozenError,
                     ParameterTypeError, RangeError, SizeError, UnknownParameterError, WrongHandleError)
from .handles import Pricing, Topology, Workload
from .params import Param, param, params
from .results import CATEGORIES, ESTIMATE_FLAGS, WASTES, Estimate, Result, estimate
from .sweep import Sweep, sweep
from .files import from_cbor, from_json, load, save, scenario_fingerprint, to_cbor, to_json
from .placement import JOB_DTYPE, Pools, Price, jobs_array, price_placement, price_placements
from .capacity import (bandwidth, budget, capacity_for_unmet, capacity_split, demand_stats, lifecycle,
                       logging_compare, percentiles, time_above)
from .decide import (DISTRIBUTIONS, SERIES, Bands, Comparison, Distribution, Option, Sizing, Summary, Swing, Tornado,
                     compare, draw, lognormal, monte_carlo, normal, rank_correlation, sensitivity, size, summarise,
                     triangular, uniform)
from .records import Attribution, Part, Records, attribute, attribute_part, from_pandas, read_csv, read_sacct
from .waste import Waste, find_waste, find_waste_part
from .lifetime import Lifetime, lifetime
from .serving import Serving, serve
from .programme import KINDS as STAGE_KINDS, Programme, Stage, programme
from .catalogue import accelerators, rate
from .savings import KINDS as SAVINGS, Tradeoff, Tradeoffs, tradeoff, tradeoffs
from .pipeline import Pipeline, data_pipeline
from .value import (FITS, Frontier, Loss, LossGain, Optimum, ScalingLaw, compute_optimal, loss, loss_frontier,
                    loss_per_cost, scaling_law)

__version__ = ffi.string(lib.tco_version_string()).decode()
if __version__.split(".")[0] != ffi.string(lib.tco_version_header()).decode().split(".")[0]:
    raise ImportError(f"libtco {__version__} is loaded, but this binding was built for "
                      f"{ffi.string(lib.tco_version_header()).decode()}: rebuild it")
