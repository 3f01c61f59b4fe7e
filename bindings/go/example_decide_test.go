package tco_test

import (
	"fmt"
	"log"

	"libtco.dev/tco"
)

// Which option: 1,024 H100 rented on demand against 512 B200 at a higher
// rate, with a migration and six FTE-months of learning to pay once. The
// first option is the baseline; the others are set against it per unit of
// effective output, with the payback and where owning breaks even.
func ExampleCompare() {
	run := []tco.Option{tco.Set("layers", 80), tco.Set("hidden_size", 8192), tco.Set("runs", 20)}
	h100, err := tco.NewScenario(run...)
	if err != nil {
		log.Fatal(err)
	}
	defer h100.Close()
	b200, err := h100.With(tco.SetText("accelerator_model", "B200"), tco.Set("accelerators", 512),
		tco.Set("on_demand_per_accel_hour", 7.5), tco.Set("migration_cost", 250_000),
		tco.Set("learning_fte_months", 6))
	if err != nil {
		log.Fatal(err)
	}
	defer b200.Close()

	options, err := tco.Compare(h100, b200)
	if err != nil {
		log.Fatal(err)
	}
	for i, o := range options {
		fmt.Printf("option %d: %.3f per million tokens, one-off %.0f, saves %.0f a run, pays back: %v",
			i, o.CostPerMillionTokens, o.OneOff, o.SavingPerRun, o.PaysBack)
		if o.PaysBack {
			fmt.Printf(" after %.1f runs (%.1f months)", o.PaybackRuns, o.PaybackMonths)
		}
		fmt.Printf("; owning breaks even at %.0f%% use\n", 100*o.BreakevenUtilisation)
	}
	// Output:
	// option 0: 2.205 per million tokens, one-off 0, saves 0 a run, pays back: false; owning breaks even at 24% use
	// option 1: 1.074 per million tokens, one-off 350000, saves 2277630 a run, pays back: true after 0.2 runs (0.1 months); owning breaks even at 26% use
}

// How many accelerators a run needs to finish in 30 days, and the mfu the
// cluster as given would need; with a budget too, the cheapest price
// class that meets both. The cluster stays as given (2,048 here) while the
// job runs on fewer, so the first total pays for the idle rest too.
func ExampleSize() {
	s, err := tco.NewScenario(tco.Set("accelerators", 2048))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for _, g := range []tco.Target{
		{Solve: tco.SolveAccelerators, DeadlineDays: 30},
		{Solve: tco.SolveMFU, DeadlineDays: 10},
		{Solve: tco.SolveAccelerators, DeadlineDays: 30, Budget: 2.5e6},
		{Solve: tco.SolveAccelerators, DeadlineDays: 2},
	} {
		z, err := s.Size(g)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%v for %g days, budget %g: feasible %v, %g accelerators at mfu %.3f, %.1f days, %.0f, class %v\n",
			g.Solve, g.DeadlineDays, g.Budget, z.Feasible, z.Accelerators, z.MFU, z.WallDays, z.Total, z.PriceClass)
		if !z.Feasible {
			fmt.Printf("  closest: %.1f days at best\n", z.ClosestWallDays)
		}
	}
	// Output:
	// accelerators for 30 days, budget 0: feasible true, 864 accelerators at mfu 0.400, 29.2 days, 10003422, class none
	// mfu for 10 days, budget 0: feasible true, 2048 accelerators at mfu 0.496, 10.0 days, 3443045, class none
	// accelerators for 30 days, budget 2.5e+06: feasible true, 2048 accelerators at mfu 0.400, 12.4 days, 2465178, class reserved
	// accelerators for 2 days, budget 0: feasible false, 2048 accelerators at mfu 0.400, 12.4 days, 4260102, class none
	//   closest: 12.4 days at best
}

// What the total hangs on: every numeric parameter swung by 10 % either
// way, the widest swing first.
func ExampleSensitivity() {
	s, err := tco.NewScenario()
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	rows, err := s.Sensitivity(0.1)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rows[:5] {
		fmt.Printf("%-25s %-8v %10.4g to %-10.4g total %.0f to %.0f\n", r.Param, r.Handle, r.LowValue,
			r.HighValue, r.LowTotal, r.HighTotal)
	}
	// Output:
	// mfu                       workload       0.36 to 0.44       total 4720426 to 3866999
	// params_total              workload    6.3e+10 to 7.7e+10    total 3825989 to 4676152
	// tokens                    workload    1.8e+12 to 2.2e+12    total 3828181 to 4673901
	// epochs                    workload        0.9 to 1.1        total 3828594 to 4673488
	// on_demand_per_accel_hour  pricing       6.192 to 7.568      total 3834104 to 4667978
}

// The inputs of Monte Carlo samples are a pure function of the seed, the
// sample and the input: chunks drawn apart, on any machine, are the same
// values, ready for SweepMany.
func ExampleMonteCarloDraw() {
	inputs := []tco.Uncertain{
		{Param: "mfu", Distribution: tco.Triangular, A: 0.3, B: 0.4, C: 0.5},
		{Param: "runs", Distribution: tco.Uniform, A: 1, B: 4}, // an INT: drawn whole
	}
	first, err := tco.MonteCarloDraw(inputs, 42, 0, 3)
	if err != nil {
		log.Fatal(err)
	}
	next, err := tco.MonteCarloDraw(inputs, 42, 3, 2) // samples 3 and 4
	if err != nil {
		log.Fatal(err)
	}
	values := append(first, next...)
	for i := 0; i < 5; i++ {
		fmt.Printf("sample %d: mfu %.4f, runs %g\n", i, values[2*i], values[2*i+1])
	}
	s, err := tco.NewScenario()
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	r, err := tco.SweepMany(s.Topology, s.Workload, s.Pricing, []string{"mfu", "runs"}, values)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("sample 0 costs %.0f\n", r.Totals()[0])
	// Output:
	// sample 0: mfu 0.3818, runs 2
	// sample 1: mfu 0.4428, runs 4
	// sample 2: mfu 0.4615, runs 4
	// sample 3: mfu 0.4128, runs 3
	// sample 4: mfu 0.4213, runs 2
	// sample 0 costs 8901229
}

// Uncertainty bands: the mfu and the rental rate uncertain, 20,000 seeded
// samples on every core, the same numbers on any machine and any number
// of threads.
func ExampleMonteCarlo() {
	s, err := tco.NewScenario()
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	inputs := []tco.Uncertain{
		{Param: "mfu", Distribution: tco.Triangular, A: 0.30, B: 0.40, C: 0.45},
		{Param: "on_demand_per_accel_hour", Distribution: tco.Uniform, A: 3.5, B: 4.5},
	}
	b, err := s.MonteCarlo(inputs, 42, 20_000, 0)
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range []string{"total", "wall_hours", "cost_per_million_tokens"} {
		m := b.Summaries[name]
		fmt.Printf("%-24s p5 %10.4g  p50 %10.4g  p95 %10.4g\n", name, m.P5, m.P50, m.P95)
	}
	for _, in := range b.Inputs {
		fmt.Printf("%s: rank correlation with the total %+.2f\n", in, b.Correlations[in])
	}
	// Output:
	// total                    p5  2.208e+06  p50   2.61e+06  p95  3.154e+06
	// wall_hours               p5      549.7  p50      612.6  p95      722.6
	// cost_per_million_tokens  p5      1.104  p50      1.305  p95      1.577
	// mfu: rank correlation with the total -0.74
	// on_demand_per_accel_hour: rank correlation with the total +0.65
}

// Five years of 1,024 accelerators owned in a facility of one's own,
// refreshed after their four-year life, against the same reserved in a
// cloud: each year's cost and its fixed part, the unused capacity or
// commitment, and the net present value of each (doc/model.md, section 18).
func ExampleComputeLifetime() {
	facility := []tco.Option{tco.Set("accelerators", 1024), tco.Set("facility_capex_per_kw", 7000),
		tco.Set("facility_life_years", 15)}
	for _, c := range []struct {
		name    string
		shares  []tco.Option
		refresh int
	}{
		{"owned", []tco.Option{tco.Set("owned_share", 1)}, 4},
		{"reserved", []tco.Option{tco.Set("reserved_share", 1)}, 0},
	} {
		s, err := tco.NewScenario(append(facility, c.shares...)...)
		if err != nil {
			log.Fatal(err)
		}
		req := tco.DefaultLifetimeRequest() // five years, 70% used, 8% a year
		req.RefreshYear = c.refresh
		life, err := s.Lifetime(req)
		s.Close()
		if err != nil {
			log.Fatal(err)
		}
		y := life.Years[0]
		fmt.Printf("%-8s year 1: %.1fM, %.0f%% fixed, %.1fM unused; NPV %.1fM; %.2f per effective hour\n", c.name,
			y.Total/1e6, 100*y.FixedTotal/y.Total, (y.UnusedOwned+y.UnusedCommitment)/1e6, life.NPV/1e6,
			life.CostPerEffectiveAcceleratorHour)
	}
	// Output:
	// owned    year 1: 17.2M, 96% fixed, 4.7M unused; NPV 70.2M; 2.81 per effective hour
	// reserved year 1: 36.1M, 100% fixed, 10.6M unused; NPV 144.2M; 5.90 per effective hour
}
