package tco

// #include "tco_go.h"
import "C"

import (
	"math"
	"runtime"
	"strconv"
	"sync"
	"unsafe"
)

// Decisions (doc/model.md, sections 12 to 15): which option, how much, and
// what the answer hangs on. Each function here is one library call.

// Alternative is one option of a comparison set against the first, the
// baseline (tco_option). Amounts are in the pricing tables' currency, which
// every option shares.
type Alternative struct {
	Total       float64            // all runs
	Costs       map[string]float64 // by category, as Estimate.Costs
	Differences map[string]float64 // Costs minus the baseline's, by category
	// TotalDifference is Total minus the baseline's Total.
	TotalDifference                 float64
	CostPerRun                      float64
	CostPerMillionTokens            float64 // per million tokens trained
	CostPerEffectiveAcceleratorHour float64 // per useful accelerator-hour
	CostPerPFLOPDay                 float64 // per PFLOP-day of useful work
	OneOff                          float64 // migration and learning, paid once
	RecurringPerRun                 float64 // CostPerRun without the one-off share
	SavingPerRun                    float64 // the baseline's RecurringPerRun minus this one's
	SavingPerMonth                  float64 // SavingPerRun x this option's runs per held month
	// PaysBack: the saving repays OneOff minus the baseline's OneOff.
	PaysBack bool
	// Cheaper: less per million tokens than the baseline.
	Cheaper bool
	// PaybackRuns and PaybackMonths are how long repaying takes: 0 when the
	// option never pays back (PaysBack false) and when it has nothing more
	// than the baseline to repay.
	PaybackRuns   float64
	PaybackMonths float64
	// BreakevenUtilisation is the share of a year's hours at which owning
	// this option's accelerators costs what renting them does: 0 when
	// renting never costs more than owning, above 1 when owning never pays.
	BreakevenUtilisation float64
	// BreakevenRate is the rental rate per accelerator-hour at which renting
	// this run's hours costs what owning them does.
	BreakevenRate       float64
	ScenarioFingerprint uint64 // of the option's three handles
}

// optionError is err with "option i: " in front of its message.
func optionError(i int, err error) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	c := *e
	msg := e.Message
	if msg == "" {
		msg = e.Code.Message()
	}
	c.Message = "option " + strconv.Itoa(i) + ": " + msg
	return &c
}

// Compare prices each option as Compute prices it and sets it against the
// first, the baseline: by category, per unit of effective output, in what
// is paid once against what each run costs again, and where owning breaks
// even with renting. Options priced in different currencies fail with
// ErrInconsistent naming both; an option that cannot be priced fails with
// its estimate's error, its index first ("option 2: ...").
func Compare(options ...*Scenario) ([]Alternative, error) {
	n := len(options)
	if n == 0 {
		return nil, errArg(StatusRange, "options", "Compare needs at least one option: the first is the baseline")
	}
	ts := make([]*C.tco_topology, n)
	ws := make([]*C.tco_workload, n)
	ps := make([]*C.tco_pricing, n)
	for i, s := range options {
		if s == nil {
			return nil, optionError(i, errClosed("scenario"))
		}
		var err error
		if ts[i], ws[i], ps[i], err = handles(s.Topology, s.Workload, s.Pricing); err != nil {
			return nil, optionError(i, err)
		}
	}
	out := make([]C.tco_option, n)
	ce := newCErr()
	rc := C.tco_compare(&out[0], C.size_t(unsafe.Sizeof(out[0])), C.size_t(n), &ts[0], &ws[0], &ps[0], &ce)
	runtime.KeepAlive(options)
	for _, s := range options {
		runtime.KeepAlive(s.Topology)
		runtime.KeepAlive(s.Workload)
		runtime.KeepAlive(s.Pricing)
	}
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	res := make([]Alternative, n)
	for i := range out {
		o := &out[i]
		res[i] = Alternative{
			Total: float64(o.total), TotalDifference: float64(o.total_difference),
			Costs: byCategory[float64](&o.cost), Differences: byCategory[float64](&o.difference),
			CostPerRun: float64(o.cost_per_run), CostPerMillionTokens: float64(o.cost_per_million_tokens),
			CostPerEffectiveAcceleratorHour: float64(o.cost_per_effective_accelerator_hour),
			CostPerPFLOPDay:                 float64(o.cost_per_pflop_day),
			OneOff:                          float64(o.one_off), RecurringPerRun: float64(o.recurring_per_run),
			SavingPerRun: float64(o.saving_per_run), SavingPerMonth: float64(o.saving_per_month),
			PaysBack: o.pays_back != 0, Cheaper: o.cheaper != 0,
			PaybackRuns: float64(o.payback_runs), PaybackMonths: float64(o.payback_months),
			BreakevenUtilisation: float64(o.breakeven_utilisation), BreakevenRate: float64(o.breakeven_rate),
			ScenarioFingerprint: uint64(o.scenario_fingerprint),
		}
	}
	return res, nil
}

// Solve is what Size solves for (tco_solve).
type Solve int32

// What Size solves for.
const (
	SolveAccelerators Solve = 1 // the job's accelerators, the workload's mfu as given
	SolveMFU          Solve = 2 // the mfu, on the workload's job as given
)

// String is "accelerators" or "mfu".
func (s Solve) String() string {
	switch s {
	case SolveAccelerators:
		return "accelerators"
	case SolveMFU:
		return "mfu"
	}
	return "Solve(" + strconv.Itoa(int(s)) + ")"
}

// Target is what a run must meet: a deadline, a budget or both (0: not
// given; at least one must be).
type Target struct {
	Solve           Solve   // 0 stands for SolveAccelerators
	DeadlineDays    float64 // wall-clock days of one run
	Budget          float64 // in the pricing table's currency, all runs
	MaxAccelerators float64 // the most the job may have; 0: the topology's accelerators
	Tolerance       float64 // relative, of the mfu root finder; 0: 1e-9
}

// NoPriceClass is Sizing.PriceClass when Size was not given both a deadline
// and a budget.
const NoPriceClass PriceClass = -1

// Sizing is a run sized to a Target (tco_sizing).
type Sizing struct {
	Feasible bool // the deadline and the budget given are met
	// PriceClass is, with a deadline and a budget, the cheapest price
	// class meeting both (the run priced wholly in it); else NoPriceClass.
	PriceClass PriceClass
	Iterations int // estimates the search priced
	// Accelerators is the job's: the fewest meeting the deadline, the most
	// the budget allows, or the job as given when solving for mfu. The grid
	// is whole nodes that tensor x pipeline x expert parallel divides.
	Accelerators float64
	MFU          float64 // the mfu needed, or the workload's
	WallDays     float64 // of one run, at the solution (or the closest achievable)
	Total        float64 // all runs, at the solution (or the closest achievable)
	// When infeasible: the shortest and the cheapest runs within the limits
	// (0 when feasible).
	ClosestWallDays float64
	ClosestTotal    float64
}

// Size sizes the job to a deadline, a budget or both (doc/model.md,
// section 13): on the grid of whole nodes for accelerators, or by a
// bracketed root finder for mfu. An infeasible target is not an error:
// Feasible is false and the Closest fields say what can be had.
//
// The cluster keeps the topology's accelerators (it is raised only for a
// larger job), so the Total of a job smaller than the cluster includes the
// idle rest of it, as Compute prices such a job.
func Size(t *Topology, w *Workload, p *Pricing, target Target) (Sizing, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return Sizing{}, err
	}
	if target.Solve == 0 {
		target.Solve = SolveAccelerators
	}
	var g C.tco_target
	g.size = C.size_t(unsafe.Sizeof(g))
	g.solve = C.int32_t(target.Solve)
	g.deadline_days = C.double(target.DeadlineDays)
	g.budget = C.double(target.Budget)
	g.max_accelerators = C.double(target.MaxAccelerators)
	g.tolerance = C.double(target.Tolerance)
	var s C.tco_sizing
	s.size = C.size_t(unsafe.Sizeof(s))
	ce := newCErr()
	rc := C.tco_size(&s, &g, ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return Sizing{}, failure(rc, &ce)
	}
	return Sizing{
		Feasible: s.feasible != 0, PriceClass: PriceClass(s.price_class), Iterations: int(s.iterations),
		Accelerators: float64(s.accelerators), MFU: float64(s.mfu), WallDays: float64(s.wall_days),
		Total: float64(s.total), ClosestWallDays: float64(s.closest_wall_days),
		ClosestTotal: float64(s.closest_total),
	}, nil
}

// Swing is one parameter swung down and up: a row of the tornado
// (tco_swing).
type Swing struct {
	Param     string // the parameter's name
	Key       int32  // its tco_param key
	Handle    HandleKind
	Status    Status // StatusOK, or why a swing could not be priced (then the figures are 0)
	Clipped   bool   // a swing stopped at the parameter's bound
	LowValue  float64
	HighValue float64 // the values swung to
	LowTotal  float64
	HighTotal float64 // the total at each
	LowUnit   float64
	HighUnit  float64 // the cost per effective accelerator-hour at each
	Spread    float64 // |HighTotal - LowTotal|: what the ranking sorts by
}

// Err is nil if the row was priced, else an error with its status code.
func (s Swing) Err() error { return s.Status.Err() }

// Sensitivity is the tornado (doc/model.md, section 14): every REAL and INT
// parameter of the three handles swung, one at a time, from its value v to
// v x (1 - share) and v x (1 + share), share in (0, 1] (0 stands for
// 0.1), ranked by spread, largest first, equal spreads in table order. A
// parameter at 0 does not move (spread 0); a swing past a bound stops at
// it (Clipped); an INT swing is rounded. A swing the handles or the
// estimate refuse gives its row that Status; the other rows are still
// priced. The scenario as given must price.
func Sensitivity(t *Topology, w *Workload, p *Pricing, share float64) ([]Swing, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return nil, err
	}
	rows := make([]C.tco_swing, int(C.tco_param_count()))
	var n C.size_t
	ce := newCErr()
	rc := C.tco_sensitivity(&rows[0], C.size_t(unsafe.Sizeof(rows[0])), C.size_t(len(rows)), &n,
		C.double(share), ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	tab := params()
	out := make([]Swing, min(int(n), len(rows)))
	for i := range out {
		r := &rows[i]
		s := Swing{
			Key: int32(r.key), Status: Status(r.status), Clipped: r.clipped != 0,
			LowValue: float64(r.low_value), HighValue: float64(r.high_value),
			LowTotal: float64(r.low_total), HighTotal: float64(r.high_total),
			LowUnit: float64(r.low_unit), HighUnit: float64(r.high_unit), Spread: float64(r.spread),
		}
		if j, ok := tab.byKey[s.Key]; ok {
			s.Param, s.Handle = tab.list[j].Name, tab.list[j].Handle
		}
		out[i] = s
	}
	return out, nil
}

// Distribution is the distribution of an uncertain input
// (tco_distribution).
type Distribution int32

// Distributions, and what Uncertain's A, B and C are for each.
const (
	Uniform    Distribution = 1 // A low, B high
	Triangular Distribution = 2 // A low, B mode, C high
	Normal     Distribution = 3 // A mean, B standard deviation
	Lognormal  Distribution = 4 // A median, B sigma of the log
)

// String is the distribution's name in lower case ("triangular").
func (d Distribution) String() string {
	switch d {
	case Uniform:
		return "uniform"
	case Triangular:
		return "triangular"
	case Normal:
		return "normal"
	case Lognormal:
		return "lognormal"
	}
	return "Distribution(" + strconv.Itoa(int(d)) + ")"
}

// Uncertain is an uncertain input of a Monte Carlo run (tco_uncertain): a
// REAL or INT parameter (INT draws are rounded) and its distribution, cut
// to [Lo, Hi] (both 0: the parameter's bounds); normal and lognormal draws
// outside the cut are drawn again.
type Uncertain struct {
	Param        string
	Distribution Distribution
	A, B, C      float64 // see the Distribution constants
	Lo, Hi       float64
}

// uncertain is the inputs as the library reads them, or the error of an
// unknown parameter name.
func uncertain(inputs []Uncertain) ([]C.tco_uncertain, error) {
	out := make([]C.tco_uncertain, len(inputs))
	for i, in := range inputs {
		row, err := lookup(in.Param)
		if err != nil {
			return nil, err
		}
		out[i] = C.tco_uncertain{
			size: C.size_t(unsafe.Sizeof(out[i])), key: C.int32_t(row.Key), distribution: C.int32_t(in.Distribution),
			a: C.double(in.A), b: C.double(in.B), c: C.double(in.C), lo: C.double(in.Lo), hi: C.double(in.Hi),
		}
	}
	return out, nil
}

func uptr(s []C.tco_uncertain) *C.tco_uncertain {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// MonteCarloDraw is the inputs of Monte Carlo samples first .. first +
// count - 1: value j of sample first + i at [i*len(inputs)+j]. Sample i of
// input j is a pure function of (seed, i, j), the same on every machine, in
// one call or in chunks. The values suit SweepMany with the inputs'
// parameter names, and are the very samples MonteCarlo prices.
func MonteCarloDraw(inputs []Uncertain, seed, first uint64, count int) ([]float64, error) {
	if count < 0 {
		return nil, errArg(StatusRange, "count", "count = "+strconv.Itoa(count)+": allowed 0 or more")
	}
	in, err := uncertain(inputs)
	if err != nil {
		return nil, err
	}
	values := make([]float64, count*len(in))
	var vp *C.double
	if len(values) > 0 {
		vp = (*C.double)(unsafe.Pointer(&values[0]))
	}
	ce := newCErr()
	rc := C.tco_monte_carlo_draw(vp, uptr(in), C.size_t(len(in)), C.uint64_t(seed), C.uint64_t(first),
		C.size_t(count), &ce)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	return values, nil
}

// Summary is the summary of one series of values (tco_summary): mean,
// standard deviation (n - 1), extremes, and percentiles by numpy's linear
// method.
type Summary struct {
	Mean, SD, Min, Max     float64
	P5, P10, P50, P90, P95 float64
}

func summaryOf(s *C.tco_summary) Summary {
	return Summary{
		Mean: float64(s.mean), SD: float64(s.sd), Min: float64(s.min), Max: float64(s.max),
		P5: float64(s.p5), P10: float64(s.p10), P50: float64(s.p50), P90: float64(s.p90), P95: float64(s.p95),
	}
}

// Summarise is the Summary of values, as MonteCarlo summarises each series.
func Summarise(values []float64) (Summary, error) {
	var s C.tco_summary
	s.size = C.size_t(unsafe.Sizeof(s))
	ce := newCErr()
	rc := C.tco_summarise(&s, dptr(values), C.size_t(len(values)), 1, &ce)
	runtime.KeepAlive(values)
	if rc != 0 {
		return Summary{}, failure(rc, &ce)
	}
	return summaryOf(&s), nil
}

// RankCorrelation is Spearman's rank correlation of x and y (pairs of equal
// index; ties get their mean rank), as MonteCarlo correlates each input
// with the total. It is 0 when either has every value tied.
func RankCorrelation(x, y []float64) (float64, error) {
	if len(x) != len(y) {
		return 0, errArg(StatusSize, "y", "len(x) = "+strconv.Itoa(len(x))+" but len(y) = "+strconv.Itoa(len(y))+
			": give pairs")
	}
	var r C.double
	ce := newCErr()
	rc := C.tco_rank_correlation(&r, dptr(x), 1, dptr(y), 1, C.size_t(len(x)), &ce)
	runtime.KeepAlive(x)
	runtime.KeepAlive(y)
	if rc != 0 {
		return 0, failure(rc, &ce)
	}
	return float64(r), nil
}

var (
	seriesOnce  sync.Once
	seriesNames []string
)

// MonteCarloSeries lists the series a Monte Carlo run summarises, in the
// library's order (tco_monte_carlo_series_name): every scalar field of an
// estimate by its EstimateFields name ("total", "wall_hours"...), and the
// costs and waste by slot ("cost.compute", "waste.failures"...).
func MonteCarloSeries() []string {
	return append([]string(nil), monteCarloSeries()...)
}

func monteCarloSeries() []string {
	seriesOnce.Do(func() {
		n := int(C.tco_monte_carlo_series())
		seriesNames = make([]string, 0, n)
		for i := 0; i < n; i++ {
			if name := C.tco_monte_carlo_series_name(C.size_t(i)); name != nil {
				seriesNames = append(seriesNames, C.GoString(name))
			}
		}
	})
	return seriesNames
}

// Bands is the result of a Monte Carlo run: every series' Summary, and each
// input's rank correlation with the total.
type Bands struct {
	Samples int
	Seed    uint64
	// Series are the names of Summaries' keys, in the library's order
	// (MonteCarloSeries).
	Series    []string
	Summaries map[string]Summary
	// Inputs are the uncertain parameters in the order given;
	// Correlations maps each to Spearman's rank correlation of its draws
	// with the total.
	Inputs       []string
	Correlations map[string]float64
}

// MonteCarlo runs samples 0 .. samples - 1 of the inputs (MonteCarloDraw
// with seed), prices each on threads threads (0: one per core), and
// summarises every series (MonteCarloSeries), with each input's rank
// correlation with the total (doc/model.md, section 15). The result is the
// same for any number of threads. A sample that cannot be priced fails
// the run with its error, naming the sample and its inputs' values.
func MonteCarlo(t *Topology, w *Workload, p *Pricing, inputs []Uncertain, seed uint64, samples, threads int) (*Bands, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return nil, err
	}
	if samples < 0 {
		return nil, errArg(StatusRange, "samples", "samples = "+strconv.Itoa(samples)+": allowed 1 or more")
	}
	if threads < 0 || threads > math.MaxInt32 {
		return nil, errArg(StatusRange, "threads", "threads = "+strconv.Itoa(threads)+
			": allowed 0 (one per core) or more")
	}
	in, err := uncertain(inputs)
	if err != nil {
		return nil, err
	}
	names := monteCarloSeries()
	sums := make([]C.tco_summary, len(names))
	corr := make([]C.double, len(in)+1)
	ce := newCErr()
	rc := C.tco_monte_carlo(&sums[0], C.size_t(unsafe.Sizeof(sums[0])), &corr[0], uptr(in), C.size_t(len(in)),
		C.uint64_t(seed), C.size_t(samples), C.int32_t(threads), ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	b := &Bands{
		Samples: samples, Seed: seed, Series: append([]string(nil), names...),
		Summaries: make(map[string]Summary, len(names)),
		Inputs:    make([]string, len(inputs)), Correlations: make(map[string]float64, len(inputs)),
	}
	for i, name := range names {
		b.Summaries[name] = summaryOf(&sums[i])
	}
	for j, u := range inputs {
		b.Inputs[j] = u.Param
		b.Correlations[u.Param] = float64(corr[j])
	}
	return b, nil
}

// Size sizes the scenario's job to a target (Size).
func (s *Scenario) Size(target Target) (Sizing, error) {
	if s == nil {
		return Sizing{}, errClosed("scenario")
	}
	return Size(s.Topology, s.Workload, s.Pricing, target)
}

// Sensitivity is the scenario's tornado (Sensitivity).
func (s *Scenario) Sensitivity(share float64) ([]Swing, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	return Sensitivity(s.Topology, s.Workload, s.Pricing, share)
}

// MonteCarlo runs the scenario with uncertain inputs (MonteCarlo).
func (s *Scenario) MonteCarlo(inputs []Uncertain, seed uint64, samples, threads int) (*Bands, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	return MonteCarlo(s.Topology, s.Workload, s.Pricing, inputs, seed, samples, threads)
}
