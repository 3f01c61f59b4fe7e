package tco_test

import (
	"errors"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"libtco.dev/tco"
	"libtco.dev/tco/internal/cref"
)

// cbor is the scenario's CBOR, for the C reference.
func cbor(tb testing.TB, s *tco.Scenario) []byte {
	tb.Helper()
	b, err := s.MarshalCBOR()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// options are rented on demand (the baseline), owned, and a cheaper rate
// that costs a migration once.
func options(t *testing.T) []*tco.Scenario {
	base := scenario(t)
	owned := scenario(t, tco.Set("owned_share", 1))
	cheaper := scenario(t, tco.Set("on_demand_per_accel_hour", 3.5), tco.Set("migration_cost", 1e5))
	return []*tco.Scenario{base, owned, cheaper}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestCompareIsC checks every field of every option against tco_compare
// called in C alone, and each option against its own estimate.
func TestCompareIsC(t *testing.T) {
	opts := options(t)
	got, err := tco.Compare(opts...)
	if err != nil {
		t.Fatal(err)
	}
	blobs := make([][]byte, len(opts))
	for i, s := range opts {
		blobs[i] = cbor(t, s)
	}
	want, fps, err := cref.Compare(blobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d options, want 3", len(got))
	}
	for i, a := range got {
		w := want[i]
		fields := map[string]float64{
			"total": a.Total, "total_difference": a.TotalDifference, "cost_per_run": a.CostPerRun,
			"cost_per_million_tokens":             a.CostPerMillionTokens,
			"cost_per_effective_accelerator_hour": a.CostPerEffectiveAcceleratorHour,
			"cost_per_pflop_day":                  a.CostPerPFLOPDay, "one_off": a.OneOff,
			"recurring_per_run": a.RecurringPerRun, "saving_per_run": a.SavingPerRun,
			"saving_per_month": a.SavingPerMonth, "pays_back": b2f(a.PaysBack), "cheaper": b2f(a.Cheaper),
			"payback_runs": a.PaybackRuns, "payback_months": a.PaybackMonths,
			"breakeven_utilisation": a.BreakevenUtilisation, "breakeven_rate": a.BreakevenRate,
		}
		for c, cat := range tco.Categories() {
			fields["cost["+strconv.Itoa(c)+"]"] = a.Costs[cat.Name]
			fields["difference["+strconv.Itoa(c)+"]"] = a.Differences[cat.Name]
		}
		if len(fields) != len(w) {
			t.Fatalf("option %d: %d fields, C gives %d", i, len(fields), len(w))
		}
		for name, v := range fields {
			if !same(v, w[name]) {
				t.Errorf("option %d: %s = %v, C says %v", i, name, v, w[name])
			}
		}
		if a.ScenarioFingerprint != fps[i] {
			t.Errorf("option %d: fingerprint %x, C says %x", i, a.ScenarioFingerprint, fps[i])
		}

		// Each option is priced as Compute prices it.
		e, err := opts[i].Estimate()
		if err != nil {
			t.Fatal(err)
		}
		e.FillMaps()
		if !same(a.Total, e.Total) || !same(a.CostPerMillionTokens, e.CostPerMillionTokens) ||
			!reflect.DeepEqual(a.Costs, e.Costs) || a.ScenarioFingerprint != e.ScenarioFingerprint {
			t.Errorf("option %d: total %v, estimate %v", i, a.Total, e.Total)
		}
		for name, c := range a.Costs {
			if !same(a.Differences[name], c-got[0].Costs[name]) {
				t.Errorf("option %d: difference %s = %v", i, name, a.Differences[name])
			}
		}
	}
	base, cheaper := got[0], got[2]
	if base.PaysBack || base.TotalDifference != 0 || base.PaybackRuns != 0 {
		t.Errorf("the baseline against itself: %+v", base)
	}
	// the one-off beyond the baseline's over the saving per run (tco.h)
	if !cheaper.PaysBack || cheaper.OneOff != 1e5 ||
		math.Abs(cheaper.PaybackRuns-(cheaper.OneOff-base.OneOff)/cheaper.SavingPerRun) > 1e-12*cheaper.PaybackRuns {
		t.Errorf("payback: %+v", cheaper)
	}
	if got[1].Costs["power"] <= 0 {
		t.Errorf("owned: no power cost")
	}
}

func TestCompareErrors(t *testing.T) {
	s := scenario(t)
	eur := scenario(t, tco.SetText("currency", "EUR"))
	_, err := tco.Compare(s, eur)
	var e *tco.Error
	if !errors.Is(err, tco.ErrInconsistent) || !errors.As(err, &e) || e.ParamName != "currency" ||
		!strings.Contains(e.Message, "EUR") || !strings.Contains(e.Message, "USD") {
		t.Errorf("currencies: %v", err)
	}
	bad := scenario(t, tco.Set("tensor_parallel", 7)) // 7 x 4 does not divide 1,024
	if _, err = tco.Compare(s, bad); !errors.Is(err, tco.ErrInconsistent) ||
		!strings.HasPrefix(err.Error(), "tco: option 1: ") {
		t.Errorf("unpriceable option: %v", err)
	}
	if _, err = tco.Compare(s, nil); !errors.Is(err, tco.ErrClosed) || !strings.Contains(err.Error(), "option 1") {
		t.Errorf("nil option: %v", err)
	}
	closed := scenario(t)
	closed.Close()
	if _, err = tco.Compare(closed); !errors.Is(err, tco.ErrClosed) || !strings.Contains(err.Error(), "option 0") {
		t.Errorf("closed option: %v", err)
	}
	if _, err = tco.Compare(); !errors.Is(err, tco.ErrRange) {
		t.Errorf("no option: %v", err)
	}
}

// sizingScenario is tests/api/test_sizing.c's: 70B dense on 2T tokens on
// 1,024 H100 in nodes of 8, TP 8 x PP 4, mfu 0.4, a 2 % stall floor, and
// failures and checkpoint pauses off, so that a run's wall time is its
// work alone.
func sizingScenario(t *testing.T, opts ...tco.Option) *tco.Scenario {
	return scenario(t, append([]tco.Option{
		tco.SetText("accelerator_model", "H100-SXM"), tco.Set("accelerators", 1024),
		tco.Set("accelerators_per_node", 8), tco.Set("accelerator_peak_flops", 0), tco.Set("storage_hot_gbps", 100),
		tco.Set("params_total", 70e9), tco.Set("params_active", 0), tco.Set("layers", 0), tco.Set("tokens", 2e12),
		tco.Set("epochs", 1), tco.Set("total_flops", 0), tco.SetText("precision", "bf16"), tco.Set("mfu", 0.4),
		tco.Set("hfu", 0), tco.Set("job_accelerators", 0), tco.Set("tensor_parallel", 8),
		tco.Set("pipeline_parallel", 4), tco.Set("data_parallel", 0), tco.Set("data_stall_share", 0.02),
		tco.SetBool("count_failures", false), tco.SetBool("count_checkpoints", false),
	}, opts...)...)
}

const (
	sizingFLOPs = 6 * 70e9 * 2e12 // 6 N D
	h100Peak    = 989e12          // dense BF16, H100 SXM
)

// TestSizeByHand: the fewest accelerators for 40 days is the first
// multiple of the grid's step, lcm(8, 8 x 4) = 32, at or above
// F / (peak x mfu x 3600 x 0.98 x 24 x 40) = 626.94, that is 640; the mfu
// for 40 days on the 1,024 is the same formula solved for mfu.
func TestSizeByHand(t *testing.T) {
	s := sizingScenario(t)
	need := sizingFLOPs / (h100Peak * 0.4 * 3600 * 0.98 * 24 * 40)
	if math.Abs(need-626.94) > 0.01 {
		t.Fatalf("hand calculation: %v", need)
	}
	z, err := s.Size(tco.Target{DeadlineDays: 40})
	if err != nil {
		t.Fatal(err)
	}
	if !z.Feasible || z.Accelerators != 640 || z.MFU != 0.4 || z.PriceClass != tco.NoPriceClass ||
		z.ClosestTotal != 0 || z.Iterations <= 0 {
		t.Errorf("deadline: %+v", z)
	}
	if want := sizingFLOPs / (640 * h100Peak * 0.4 * 3600) / 0.98 / 24; !near(z.WallDays, want, 1e-12) {
		t.Errorf("wall days %v, by hand %v", z.WallDays, want)
	}
	at, err := s.With(tco.Set("job_accelerators", 640)) // the answer, priced directly
	if err != nil {
		t.Fatal(err)
	}
	defer at.Close()
	e, err := at.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	if !same(z.WallDays, e.WallHours/24) || !same(z.Total, e.Total) {
		t.Errorf("sizing %v days %v, estimate %v days %v", z.WallDays, z.Total, e.WallHours/24, e.Total)
	}
	checkSizeIsC(t, s, tco.Target{DeadlineDays: 40}, z)

	m, err := s.Size(tco.Target{Solve: tco.SolveMFU, DeadlineDays: 40})
	if err != nil {
		t.Fatal(err)
	}
	want := sizingFLOPs / (1024 * h100Peak * 3600 * 0.98 * 24 * 40)
	if !m.Feasible || m.Accelerators != 1024 || !near(m.MFU, want, 1e-8) || m.WallDays > 40 {
		t.Errorf("mfu: %+v, by hand %v", m, want)
	}
	checkSizeIsC(t, s, tco.Target{Solve: tco.SolveMFU, DeadlineDays: 40}, m)
}

func checkSizeIsC(t *testing.T, s *tco.Scenario, g tco.Target, z tco.Sizing) {
	t.Helper()
	solve := g.Solve
	if solve == 0 {
		solve = tco.SolveAccelerators
	}
	c, err := cref.Size(cbor(t, s), int32(solve), g.DeadlineDays, g.Budget, g.MaxAccelerators, g.Tolerance)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{
		"feasible": b2f(z.Feasible), "price_class": float64(z.PriceClass), "iterations": float64(z.Iterations),
		"accelerators": z.Accelerators, "mfu": z.MFU, "wall_days": z.WallDays, "total": z.Total,
		"closest_wall_days": z.ClosestWallDays, "closest_total": z.ClosestTotal,
	}
	for name, v := range got {
		if !same(v, c[name]) {
			t.Errorf("%+v: %s = %v, C says %v", g, name, v, c[name])
		}
	}
}

func TestSizeInfeasibleBudgetAndBoth(t *testing.T) {
	s := sizingScenario(t)
	full, err := s.Estimate() // the whole cluster: the fastest and, here, the cheapest run
	if err != nil {
		t.Fatal(err)
	}
	z, err := s.Size(tco.Target{DeadlineDays: 1})
	if err != nil {
		t.Fatal(err)
	}
	if z.Feasible || !near(z.ClosestWallDays, full.WallHours/24, 1e-12) || !near(z.ClosestTotal, full.Total, 1e-12) {
		t.Errorf("infeasible: %+v", z)
	}
	checkSizeIsC(t, s, tco.Target{DeadlineDays: 1}, z)
	b, err := s.Size(tco.Target{Budget: full.Total * 1.01})
	if err != nil {
		t.Fatal(err)
	}
	if !b.Feasible || b.Accelerators != 1024 || b.Total > full.Total*1.01 {
		t.Errorf("budget: %+v", b)
	}
	g := tco.Target{DeadlineDays: 40, Budget: 3e6}
	both, err := s.Size(g)
	if err != nil {
		t.Fatal(err)
	}
	if !both.Feasible || both.PriceClass < tco.OnDemand || both.PriceClass > tco.Owned || both.Total > 3e6 ||
		both.WallDays > 40 {
		t.Errorf("both: %+v (%v)", both, both.PriceClass)
	}
	checkSizeIsC(t, s, g, both)
	if tco.NoPriceClass.String() != "none" || tco.Owned.String() != "owned" {
		t.Errorf("class names: %v %v", tco.NoPriceClass, tco.Owned)
	}
}

func TestSizeErrors(t *testing.T) {
	s := sizingScenario(t)
	var e *tco.Error
	_, err := s.Size(tco.Target{})
	if !errors.Is(err, tco.ErrInconsistent) || !errors.As(err, &e) || e.ParamName != "target.deadline_days" {
		t.Errorf("no target: %v", err)
	}
	if _, err = s.Size(tco.Target{DeadlineDays: -1}); !errors.Is(err, tco.ErrRange) {
		t.Errorf("negative deadline: %v", err)
	}
	if _, err = s.Size(tco.Target{Solve: 7, DeadlineDays: 40}); !errors.Is(err, tco.ErrRange) ||
		!errors.As(err, &e) || e.ParamName != "target.solve" {
		t.Errorf("bad solve: %v", err)
	}
	if _, err = s.Size(tco.Target{Budget: math.NaN()}); !errors.Is(err, tco.ErrNotFinite) {
		t.Errorf("NaN budget: %v", err)
	}
	if _, err = tco.Size(nil, s.Workload, s.Pricing, tco.Target{DeadlineDays: 1}); !errors.Is(err, tco.ErrClosed) {
		t.Errorf("nil topology: %v", err)
	}
}

// TestSensitivityRowsAreEstimates checks the mfu row against estimates
// priced at mfu x 0.9 and x 1.1, every row against tco_sensitivity in C
// alone, and the ranking.
func TestSensitivityRowsAreEstimates(t *testing.T) {
	s := scenario(t)
	rows, err := s.Sensitivity(0.1)
	if err != nil {
		t.Fatal(err)
	}
	at := func(opt tco.Option) *tco.Estimate {
		v, err := s.With(opt)
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		e, err := v.Estimate()
		if err != nil {
			t.Fatal(err)
		}
		e.FillMaps()
		return e
	}
	byName := map[string]tco.Swing{}
	for _, r := range rows {
		byName[r.Param] = r
	}
	mfu := byName["mfu"]
	// v x (1 - share) in float64 arithmetic: Go's constant 0.4 * 0.9 would be
	// exactly 0.36, an ulp away
	v, share := 0.4, 0.1
	lowV, highV := v*(1-share), v*(1+share)
	low, high := at(tco.Set("mfu", lowV)), at(tco.Set("mfu", highV))
	if mfu.Handle != tco.KindWorkload || !same(mfu.LowValue, lowV) || !same(mfu.HighValue, highV) ||
		!same(mfu.LowTotal, low.Total) || !same(mfu.HighTotal, high.Total) ||
		!same(mfu.LowUnit, low.Fields["cost_per_effective_accelerator_hour"]) ||
		!same(mfu.HighUnit, high.Fields["cost_per_effective_accelerator_hour"]) ||
		!same(mfu.Spread, math.Abs(high.Total-low.Total)) || mfu.Err() != nil {
		t.Errorf("mfu row %+v; estimates %v and %v", mfu, low.Total, high.Total)
	}
	rate := byName["on_demand_per_accel_hour"]
	if rate.Handle != tco.KindPricing || !same(rate.HighTotal, at(tco.Set("on_demand_per_accel_hour", rate.HighValue)).Total) {
		t.Errorf("rate row %+v", rate)
	}
	if !sort.SliceIsSorted(rows, func(i, j int) bool { return rows[i].Spread > rows[j].Spread }) {
		t.Errorf("rows not ranked by spread")
	}
	numeric := 0
	for _, p := range tco.Params() {
		if p.Type == tco.TypeReal || p.Type == tco.TypeInt {
			numeric++
			if _, ok := byName[p.Name]; !ok {
				t.Errorf("%s not swung", p.Name)
			}
		}
	}
	if len(rows) != numeric {
		t.Errorf("%d rows, %d numeric parameters", len(rows), numeric)
	}
	// 1,024 x 0.9 = 921.6 rounds to 922: no whole number of nodes of 8
	if acc := byName["accelerators"]; acc.Status != tco.StatusInconsistent || !errors.Is(acc.Err(), tco.ErrInconsistent) ||
		acc.Spread != 0 || acc.LowTotal != 0 {
		t.Errorf("accelerators row %+v", acc)
	}

	c, err := cref.Sensitivity(cbor(t, s), 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if len(c) != len(rows) {
		t.Fatalf("%d rows, C gives %d", len(rows), len(c))
	}
	for i, r := range rows {
		w := c[i]
		if r.Key != w.Key || int32(r.Status) != w.Status || b2f(r.Clipped) != float64(w.Clipped) ||
			!same(r.LowValue, w.LowValue) || !same(r.HighValue, w.HighValue) || !same(r.LowTotal, w.LowTotal) ||
			!same(r.HighTotal, w.HighTotal) || !same(r.LowUnit, w.LowUnit) || !same(r.HighUnit, w.HighUnit) ||
			!same(r.Spread, w.Spread) {
			t.Errorf("row %d: %+v, C says %+v", i, r, w)
		}
	}
	def, err := s.Sensitivity(0) // 0 stands for 0.1
	if err != nil || !reflect.DeepEqual(def, rows) {
		t.Errorf("share 0: %v", err)
	}
}

func TestSensitivityClipsAndRefuses(t *testing.T) {
	s := scenario(t, tco.Set("mfu", 0.95))
	rows, err := s.Sensitivity(0.1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Param == "mfu" && (!r.Clipped || r.HighValue != 1) {
			t.Errorf("mfu at 0.95 + 10%%: %+v", r)
		}
	}
	for _, share := range []float64{-0.1, 1.5} {
		if _, err := s.Sensitivity(share); !errors.Is(err, tco.ErrRange) {
			t.Errorf("share %v: %v", share, err)
		}
	}
	if _, err := s.Sensitivity(math.Inf(1)); !errors.Is(err, tco.ErrNotFinite) {
		t.Errorf("share inf: %v", err)
	}
}

// mcInputs are four uncertain inputs, one of them an INT.
var mcInputs = []tco.Uncertain{
	{Param: "mfu", Distribution: tco.Triangular, A: 0.3, B: 0.4, C: 0.5},
	// the reserved rate, 2.5, must stay below the on-demand one: cut at 3
	{Param: "on_demand_per_accel_hour", Distribution: tco.Normal, A: 4, B: 0.5, Lo: 3, Hi: 100},
	{Param: "accelerator_mtbf_hours", Distribution: tco.Lognormal, A: 80000, B: 0.3},
	{Param: "checkpoint_retention", Distribution: tco.Uniform, A: 1, B: 8},
}

func TestMonteCarloDrawInChunks(t *testing.T) {
	k := len(mcInputs)
	one, err := tco.MonteCarloDraw(mcInputs, 42, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	a, err := tco.MonteCarloDraw(mcInputs, 42, 0, 400)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tco.MonteCarloDraw(mcInputs, 42, 400, 600)
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != 1000*k || !reflect.DeepEqual(one, append(a, b...)) {
		t.Errorf("two chunks differ from one call")
	}
	other, _ := tco.MonteCarloDraw(mcInputs, 43, 0, 1000)
	if reflect.DeepEqual(one, other) {
		t.Errorf("seeds 42 and 43 draw alike")
	}
	for i := 0; i < 1000; i++ {
		mfu, rate, kept := one[i*k], one[i*k+1], one[i*k+3]
		if mfu < 0.3 || mfu > 0.5 || rate < 3 || kept != math.Round(kept) || kept < 1 || kept > 8 {
			t.Fatalf("sample %d: %v", i, one[i*k:i*k+k])
		}
	}
	if v, err := tco.MonteCarloDraw(nil, 1, 0, 3); err != nil || len(v) != 0 {
		t.Errorf("no inputs: %v %v", v, err)
	}
	if _, err := tco.MonteCarloDraw(mcInputs, 1, 0, -1); !errors.Is(err, tco.ErrRange) {
		t.Errorf("count -1: %v", err)
	}
}

// TestMonteCarloReproducible: one thread and two give the same bands, bit
// for bit, and so does C alone; and the run is the drawn samples, each
// priced (SweepMany), summarised (Summarise) and rank-correlated
// (RankCorrelation).
func TestMonteCarloReproducible(t *testing.T) {
	s := scenario(t)
	const n = 3000
	one, err := s.MonteCarlo(mcInputs, 7, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	two, err := s.MonteCarlo(mcInputs, 7, n, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, two) {
		t.Errorf("1 and 2 threads differ")
	}
	series := tco.MonteCarloSeries()
	if !reflect.DeepEqual(one.Series, series) || len(one.Summaries) != len(series) ||
		!reflect.DeepEqual(one.Inputs, []string{"mfu", "on_demand_per_accel_hour", "accelerator_mtbf_hours",
			"checkpoint_retention"}) || one.Samples != n || one.Seed != 7 {
		t.Errorf("bands: %v series, inputs %v", len(one.Summaries), one.Inputs)
	}

	sums, corr, err := cref.MonteCarlo(cbor(t, s), mcInputs, 7, n, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range series {
		g := one.Summaries[name]
		if got := [9]float64{g.Mean, g.SD, g.Min, g.Max, g.P5, g.P10, g.P50, g.P90, g.P95}; got != sums[i] {
			t.Errorf("%s: %v, C says %v", name, got, sums[i])
		}
	}
	for j, in := range mcInputs {
		if !same(one.Correlations[in.Param], corr[j]) {
			t.Errorf("%s: correlation %v, C says %v", in.Param, one.Correlations[in.Param], corr[j])
		}
	}

	x, err := tco.MonteCarloDraw(mcInputs, 7, 0, n)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(mcInputs))
	for j, in := range mcInputs {
		names[j] = in.Param
	}
	sw, err := tco.SweepMany(s.Topology, s.Workload, s.Pricing, names, x)
	if err != nil {
		t.Fatal(err)
	}
	totals := sw.Totals()
	want, err := tco.Summarise(totals)
	if err != nil {
		t.Fatal(err)
	}
	if one.Summaries["total"] != want {
		t.Errorf("total %+v, draw + sweep + summarise %+v", one.Summaries["total"], want)
	}
	wall, _ := sw.Field("wall_hours")
	if w, _ := tco.Summarise(wall); one.Summaries["wall_hours"] != w {
		t.Errorf("wall_hours %+v, %+v", one.Summaries["wall_hours"], w)
	}
	for j, name := range names {
		col := make([]float64, n)
		for i := range col {
			col[i] = x[i*len(names)+j]
		}
		r, err := tco.RankCorrelation(col, totals)
		if err != nil {
			t.Fatal(err)
		}
		if !same(one.Correlations[name], r) {
			t.Errorf("%s: correlation %v, by RankCorrelation %v", name, one.Correlations[name], r)
		}
	}
	if one.Correlations["mfu"] > -0.3 || one.Correlations["on_demand_per_accel_hour"] < 0.3 {
		t.Errorf("correlations %v", one.Correlations)
	}
	if p := one.Summaries["cost.power"]; p.SD != 0 || p.Max != 0 { // rented: no energy
		t.Errorf("cost.power %+v", p)
	}
}

func TestMonteCarloSeriesNames(t *testing.T) {
	series := tco.MonteCarloSeries()
	if len(series) == 0 || series[0] != "total" {
		t.Fatalf("series %v", series)
	}
	have := map[string]bool{}
	for _, s := range series {
		have[s] = true
	}
	for _, c := range tco.Categories() {
		if !have["cost."+c.Name] {
			t.Errorf("no series cost.%s", c.Name)
		}
	}
	for _, w := range tco.WasteKinds() {
		if !have["waste."+w] {
			t.Errorf("no series waste.%s", w)
		}
	}
	for _, f := range tco.EstimateFields() {
		if f.Type == tco.FieldDouble && !have[f.Name] {
			t.Errorf("no series %s", f.Name)
		}
	}
}

func TestMonteCarloErrors(t *testing.T) {
	s := scenario(t)
	cases := []struct {
		in    tco.Uncertain
		err   error
		param string
		text  string
	}{
		{tco.Uncertain{Param: "mfu", Distribution: tco.Uniform, A: 0.5, B: 0.3}, tco.ErrRange, "mfu", "mfu, uniform"},
		{tco.Uncertain{Param: "mfu", Distribution: tco.Triangular, A: 0.3, B: 0.6, C: 0.5}, tco.ErrRange, "mfu", "mfu, triangular"},
		{tco.Uncertain{Param: "mfu", Distribution: tco.Normal, A: 0.4}, tco.ErrRange, "mfu", "standard deviation"},
		{tco.Uncertain{Param: "tokens", Distribution: tco.Lognormal, A: -1, B: 0.2}, tco.ErrRange, "tokens", "tokens, lognormal"},
		{tco.Uncertain{Param: "mfu", Distribution: tco.Uniform, A: 0.3, B: 0.5, Lo: 0.6, Hi: 0.7}, tco.ErrInconsistent, "mfu", "cut"},
		{tco.Uncertain{Param: "mfu", Distribution: 9, A: 0.3, B: 0.5}, tco.ErrRange, "mfu", "distribution = 9"},
		{tco.Uncertain{Param: "mfu", Distribution: tco.Uniform, A: math.NaN(), B: 0.5}, tco.ErrNotFinite, "mfu", "finite"},
		{tco.Uncertain{Param: "currency", Distribution: tco.Uniform, A: 1, B: 2}, tco.ErrType, "currency", "currency"},
		{tco.Uncertain{Param: "mfuu", Distribution: tco.Uniform, A: 1, B: 2}, tco.ErrUnknownParam, "mfuu", "mfuu"},
	}
	for _, c := range cases {
		for _, run := range []func() error{
			func() error { _, err := tco.MonteCarloDraw([]tco.Uncertain{c.in}, 1, 0, 10); return err },
			func() error { _, err := s.MonteCarlo([]tco.Uncertain{c.in}, 1, 10, 1); return err },
		} {
			err := run()
			var e *tco.Error
			if !errors.Is(err, c.err) || !errors.As(err, &e) || e.ParamName != c.param || !strings.Contains(e.Message, c.text) {
				t.Errorf("%+v: %v (param %q)", c.in, err, e.ParamName)
			}
		}
	}
	twice := []tco.Uncertain{mcInputs[0], mcInputs[0]}
	if _, err := tco.MonteCarloDraw(twice, 1, 0, 1); !errors.Is(err, tco.ErrInconsistent) {
		t.Errorf("mfu twice: %v", err)
	}
	// a rate drawn below the reserved one (2.5) is refused, and the sample named
	low := []tco.Uncertain{{Param: "on_demand_per_accel_hour", Distribution: tco.Uniform, A: 1, B: 5}}
	if _, err := s.MonteCarlo(low, 0, 200, 2); !errors.Is(err, tco.ErrInconsistent) ||
		!strings.Contains(err.Error(), "Monte Carlo sample ") {
		t.Errorf("refused sample: %v", err)
	}
	for _, bad := range [][2]int{{0, 1}, {-1, 1}, {10, -1}} {
		if _, err := s.MonteCarlo(mcInputs, 0, bad[0], bad[1]); !errors.Is(err, tco.ErrRange) {
			t.Errorf("samples %d, threads %d: %v", bad[0], bad[1], err)
		}
	}
}

func TestSummariseAndRankCorrelation(t *testing.T) {
	s, err := tco.Summarise([]float64{5, 1, 4, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	// numpy: mean 3, sd sqrt(2.5), p5 at rank 0.2 = 1.2, p95 = 4.8
	want := tco.Summary{Mean: 3, SD: math.Sqrt(2.5), Min: 1, Max: 5, P5: 1.2, P10: 1.4, P50: 3, P90: 4.6, P95: 4.8}
	for _, p := range [][2]float64{{s.Mean, want.Mean}, {s.SD, want.SD}, {s.Min, 1}, {s.Max, 5}, {s.P5, want.P5},
		{s.P10, want.P10}, {s.P50, 3}, {s.P90, want.P90}, {s.P95, want.P95}} {
		if math.Abs(p[0]-p[1]) > 1e-15 {
			t.Errorf("summary %+v, want %+v", s, want)
			break
		}
	}
	if _, err := tco.Summarise(nil); !errors.Is(err, tco.ErrRange) {
		t.Errorf("empty: %v", err)
	}
	if _, err := tco.Summarise([]float64{1, math.NaN()}); !errors.Is(err, tco.ErrNotFinite) {
		t.Errorf("NaN: %v", err)
	}
	x := []float64{1, 2, 3, 4}
	if r, err := tco.RankCorrelation(x, []float64{10, 20, 25, 100}); err != nil || r != 1 {
		t.Errorf("monotone: %v %v", r, err)
	}
	if r, err := tco.RankCorrelation(x, []float64{4, 3, 2, 1}); err != nil || r != -1 {
		t.Errorf("reversed: %v %v", r, err)
	}
	if r, err := tco.RankCorrelation(x, []float64{7, 7, 7, 7}); err != nil || r != 0 {
		t.Errorf("tied: %v %v", r, err)
	}
	if _, err := tco.RankCorrelation(x, x[:3]); !errors.Is(err, tco.ErrSize) {
		t.Errorf("mismatched: %v", err)
	}
}

// TestDecideConcurrent shares one scenario between goroutines that compare,
// size, swing and run Monte Carlo at once; each must get what one
// goroutine alone gets. Run it with -race.
func TestDecideConcurrent(t *testing.T) {
	s := sizingScenario(t)
	other := sizingScenario(t, tco.Set("owned_share", 1))
	wantC, err := tco.Compare(s, other)
	if err != nil {
		t.Fatal(err)
	}
	wantZ, err := s.Size(tco.Target{DeadlineDays: 40})
	if err != nil {
		t.Fatal(err)
	}
	wantS, err := s.Sensitivity(0.1)
	if err != nil {
		t.Fatal(err)
	}
	wantM, err := s.MonteCarlo(mcInputs[:2], 3, 500, 2)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < 3; r++ {
				if c, err := tco.Compare(s, other); err != nil || !reflect.DeepEqual(c, wantC) {
					errs <- "compare differs"
				}
				if z, err := s.Size(tco.Target{DeadlineDays: 40}); err != nil || z != wantZ {
					errs <- "size differs"
				}
				if w, err := s.Sensitivity(0.1); err != nil || !reflect.DeepEqual(w, wantS) {
					errs <- "sensitivity differs"
				}
				if m, err := s.MonteCarlo(mcInputs[:2], 3, 500, 2); err != nil || !reflect.DeepEqual(m, wantM) {
					errs <- "monte carlo differs"
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
