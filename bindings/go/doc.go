// Package tco is the Go binding of libtco, the C library that prices AI
// training: what a training run or a whole cluster costs, category by
// category, how much of it is waste, how much capacity should be fixed and
// how much elastic, and what a scheduler should pay for one placement of a
// job against another.
//
// # Building
//
// The package finds libtco with pkg-config (#cgo pkg-config: libtco). With
// libtco installed, nothing needs setting. Against a libtco build tree
// that is not installed, point pkg-config at the tree's uninstalled .pc
// file and the dynamic linker at its library:
//
//	PKG_CONFIG_PATH=<build>/meson-uninstalled LD_LIBRARY_PATH=<build>/lib go test ./...
//
// The build stops if the tco.h found is not of major version 1
// (HeaderMajor); at run time every constructor fails with an error matching
// ErrVersion if the loaded library is of another major version or older
// than that header (CheckVersion, Version).
//
// # Handles
//
// A scenario is three handles: a cluster Topology, a Workload profile and a
// Pricing table. Each is made from the library's built-in defaults and a
// list of options naming the library's parameters, and is frozen on
// construction:
//
//	cluster, err := tco.NewTopology(tco.Set("accelerators", 2048), tco.SetText("accelerator_model", "B200"))
//
// Parameter names, units, bounds and descriptions come from the library's
// own table at run time (Params, ParamByName); this package keeps no list
// of them. A frozen handle never changes: With makes a changed copy. Any
// number of goroutines may use a handle at once. Close frees it and may be
// called more than once; a handle that is never closed is freed by the
// garbage collector. A call on a closed or nil handle returns an error
// matching ErrClosed, never crashes; Close must not race with calls still
// using the handle.
//
// # Errors
//
// Every failure is an *Error carrying the library's status code, the
// parameter concerned and a message that names the input and what is
// allowed. errors.Is(err, tco.ErrRange) and the other sentinels compare
// codes; errors.As gives the *Error. Bad input (values out of range, NaN,
// empty or mismatched slices, closed handles) is an error, never a panic:
// slice lengths are checked in Go before C reads anything.
//
// # Results
//
// Compute gives an Estimate with typed fields (Total, WallHours...);
// Estimate.Cost and Estimate.Field read any category or scalar field by
// the library's name (Categories, EstimateFields), so a category or field
// added by a newer library appears without a new version of this package.
// Its maps (Costs, Waste, Fixed, Fields) are built on request, by FillMaps
// or ComputeInto: Compute leaves them nil, for they cost several times the
// computation.
// Estimate.Flags holds the bits by which the library says what it assumed
// or which input set a figure; Assumptions names those set, with the
// library's names (EstimateFlags lists them all). Sweep prices a slice of
// values in one call. The capacity functions
// (ComputeDemandStats, DemandPercentiles, CapacitySplit...) read a demand
// series in place, without copying it.
//
// Scenarios and results are exchanged as canonical CBOR (MarshalCBOR,
// LoadScenarioCBOR), the same bytes and fingerprints as the C library and
// the other bindings write.
//
// # Decisions
//
// Compare sets options (Scenarios) against the first on cost per unit of
// effective output, with payback and break-even; Size finds the fewest
// accelerators or the least mfu meeting a deadline, a budget or both;
// Sensitivity ranks every numeric parameter by how far a swing of it moves
// the total; MonteCarlo summarises every result series over seeded draws
// of uncertain inputs (MonteCarloDraw gives the draws), the same for any
// number of threads.
//
// LossAt and PredictLoss give the loss a scaling law (ScalingLaw; nil for
// Hoffmann et al. 2022) predicts for a run, LossPerCost the loss one run
// buys over another per unit of money, and ComputeOptimal the model size and
// token count of least predicted loss within a budget under the full cost
// model.
//
// # Usage records and attribution
//
// ReadSacct and ReadCSV read usage records (who held which accelerators
// when, under which price class, with which tags) from Slurm accounting or
// a plain CSV, reporting each row they refuse with its line (Records.Bad),
// or failing on the first in strict mode. Attribute splits the bill of a
// period among the groups of one tag key or a pair of keys, in Cents that
// add up exactly: the groups to the bill, each group's categories to its
// total. FOCUS writes that bill as FinOps FOCUS 1.2 rows; FindWaste finds
// the money in the records spent on nothing, costliest first.
// AttributePart attributes a share of the records apart: parts shipped
// as bytes and merged in any order settle into Attribute's bill for all
// of them, to the cent, and FindWastePart finds a share's waste.
//
// # A cluster over its life
//
// ComputeLifetime prices the cluster over years: each category split into
// fixed and variable, the unused capacity and commitment, the cash with a
// refresh and salvage, its net present value.
//
// # Serving
//
// Serve sizes the fleet that serves the workload's model: a replica's
// batch within a latency target and its memory, the accelerators each
// point of a request or token rate series needs, their fixed/elastic Split
// and the cost per million tokens.
//
// # Programmes and savings
//
// ComputeProgramme prices stages (the data pipeline, pretraining,
// fine-tunes, evaluation, sweeps..., serving) on one cluster and one time
// line, with the store their kept versions make. WeighSaving prices a cut (coarser sampling, shorter
// retention, fewer replicas, more spot...) against the side-effect it
// implies, flagging one that costs more than it saves; Tradeoffs weighs
// them all.
// DataPipeline prices the data a run reads: preprocessing, storage after
// deduplication and compression, read requests, ingress and NAT, and the
// stall share a cache and prefetch imply.
//
// # Placement pricing
//
// Pools.Price prices one candidate placement of a job; it allocates
// nothing, so its cost is the library's plus that of one cgo call.
// Pools.PriceBatch prices any number of placements given as plain slices
// (a Batch, struct of arrays) in one cgo call, into a BatchResult that is
// reused from one call to the next. Both give the very numbers the C
// functions give, bit for bit.
package tco
