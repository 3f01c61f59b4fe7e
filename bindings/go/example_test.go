package tco_test

import (
	"errors"
	"fmt"
	"log"

	"libtco.dev/tco"
)

// Price one training run and print its cost by category: doc/api.md's
// price.c, in Go. 512 owned, liquid-cooled H200 train an 8B-parameter model
// on 1T tokens, counting the full attention term and writing checkpoints
// blocking, as price.c does.
func Example() {
	cluster, err := tco.NewTopology(
		tco.Set("accelerators", 512),
		tco.SetText("accelerator_model", "H200-SXM"),
		tco.SetText("cooling", "liquid"),
		tco.Set("owned_share", 1),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer cluster.Close()
	run, err := tco.NewWorkload(
		tco.Set("params_total", 8e9), tco.Set("layers", 32), tco.Set("hidden_size", 4096),
		tco.Set("seq_len", 8192), tco.Set("tokens", 1e12), tco.Set("mfu", 0.45),
		tco.Set("tensor_parallel", 1), tco.Set("pipeline_parallel", 1),
		tco.SetText("attention", "full"), tco.SetBool("checkpoint_async", false),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer run.Close()
	// the price paid for each H200: the catalogue lists none
	prices, err := tco.NewPricing(tco.Set("electricity_per_kwh", 0.12), tco.Set("capex_per_accelerator", 25000))
	if err != nil {
		log.Fatal(err)
	}
	defer prices.Close()

	e, err := tco.Compute(cluster, run, prices)
	if err != nil {
		log.Fatal(err)
	}
	currency, _ := prices.GetText("currency")
	e.FillMaps() // Costs, Waste, Fixed and Fields, which Compute leaves out
	for _, c := range tco.Categories() {
		fmt.Printf("%-10s %14.0f %s\n", c.Name, e.Costs[c.Name], currency)
	}
	fmt.Printf("%-10s %14.0f %s\n", "total", e.Total, currency)
	fmt.Printf("%.1f days on the wall clock, goodput %.1f%%, %.2f %s per million tokens\n",
		e.WallHours/24, 100*e.Goodput, e.CostPerMillionTokens, currency)
	// Output:
	// compute             50351 USD
	// power                4264 USD
	// cooling              5493 USD
	// network              7092 USD
	// storage              4630 USD
	// database              110 USD
	// logging               291 USD
	// security              721 USD
	// platform             1000 USD
	// staff                3473 USD
	// indirect                0 USD
	// waste                1535 USD
	// total               78961 USD
	// 3.2 days on the wall clock, goodput 97.5%, 0.08 USD per million tokens
}

// Options name the library's parameters; a scenario routes each to its
// handle. With makes a changed copy; the original stays as it was. The
// model is given its shape (80 layers of 8,192, full attention counted) and
// blocking checkpoints.
func ExampleNewScenario() {
	s, err := tco.NewScenario(
		tco.Set("accelerators", 2048), tco.SetText("accelerator_model", "B200"), // topology
		tco.Set("tokens", 15e12), tco.Set("layers", 80), tco.Set("hidden_size", 8192), // workload
		tco.SetText("attention", "full"), tco.SetBool("checkpoint_async", false), // workload
		tco.SetText("currency", "EUR"), tco.Set("on_demand_per_accel_hour", 5.5), // pricing
	)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	fp8, err := s.With(tco.SetText("precision", "fp8"))
	if err != nil {
		log.Fatal(err)
	}
	defer fp8.Close()
	bf16Cost, _ := s.Estimate()
	fp8Cost, _ := fp8.Estimate()
	fmt.Printf("bf16: %.1f days; fp8: %.1f days; fp8 saves %.0f%%\n", bf16Cost.WallHours/24,
		fp8Cost.WallHours/24, 100*(1-fp8Cost.Total/bf16Cost.Total))
	// Output:
	// bf16: 44.6 days; fp8: 22.3 days; fp8 saves 50%
}

// Errors are *tco.Error values: errors.Is compares the status code with a
// sentinel, errors.As gives the parameter and the library's message.
func ExampleError() {
	_, err := tco.NewTopology(tco.Set("accelerators", 1000.5))
	fmt.Println(errors.Is(err, tco.ErrRange))
	var e *tco.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.ParamName)
		fmt.Println(e.Message)
	}
	_, err = tco.NewTopology(tco.Set("mfu", 0.5))
	fmt.Println(err)
	// Output:
	// true
	// TCO_E_RANGE accelerators
	// accelerators = 1000.5 must be a whole number from 1 to 1e+07 (accelerators in the cluster)
	// tco: mfu belongs to the workload, not the topology
}

// The parameter table is read from the library at run time.
func ExampleParamByName() {
	p, err := tco.ParamByName("cooling")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Name, p.Key, p.Handle, p.Type, p.DefaultText)
	for _, c := range p.Choices {
		fmt.Println(" ", c.Name, c.Value)
	}
	// Output:
	// cooling 1016 topology CHOICE air
	//   air 0
	//   liquid 1
}

// Price one candidate placement of a job: the scheduler's hot path.
func ExamplePools_Price() {
	pools, err := tco.NewPoolsOf(
		tco.Pool{Class: tco.Reserved, AcceleratorsPerNode: 8, FreeAccelerators: 64, Rack: 0, Zone: 0,
			RatePerAccelHour: 2.1},
		tco.Pool{Class: tco.OnDemand, AcceleratorsPerNode: 8, FreeAccelerators: 256, Rack: 1, Zone: 1,
			RatePerAccelHour: 3.9},
	)
	if err != nil {
		log.Fatal(err)
	}
	defer pools.Close()
	s, err := tco.NewScenario()
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	job := tco.Job{Accelerators: 128, DurationHours: 48, CommShare: 0.6, CheckpointBytes: 2e12,
		TrafficGBPerAccelHour: 2, DelayCostPerHour: 50}
	now := tco.Placement{Parts: []tco.Part{{Pool: 0, Accelerators: 64}, {Pool: 1, Accelerators: 64}}}
	later := tco.Placement{Parts: []tco.Part{{Pool: 1, Accelerators: 128}}, StartHours: 6}
	for _, pl := range []tco.Placement{now, later} {
		p, err := pools.Price(s.Topology, s.Pricing, &job, &pl)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d part(s), start %gh: %.0f (slowdown %.0f, delay %.0f), done in %.1f h\n",
			len(pl.Parts), pl.StartHours, p.Cost, p.Slowdown, p.Delay, p.CompletionHours)
	}
	// Output:
	// 2 part(s), start 0h: 21662 (slowdown 3041, delay 0), done in 56.3 h
	// 1 part(s), start 6h: 24404 (slowdown 0, delay 300), done in 54.3 h
}

// Price many placements in one call: struct-of-arrays slices in, one cost,
// completion time and status per placement out.
func ExamplePools_PriceBatch() {
	pools, err := tco.NewPoolsOf(
		tco.Pool{Class: tco.OnDemand, AcceleratorsPerNode: 8, FreeAccelerators: 512, Rack: 0, RatePerAccelHour: 4},
		tco.Pool{Class: tco.Spot, AcceleratorsPerNode: 8, FreeAccelerators: 512, Rack: 1, RatePerAccelHour: 1.6,
			InterruptionsPerNodeHour: 0.01},
	)
	if err != nil {
		log.Fatal(err)
	}
	defer pools.Close()
	s, err := tco.NewScenario()
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	jobs := []tco.Job{
		{Accelerators: 64, Interruptible: true, DurationHours: 12, CheckpointBytes: 1e11},
		{Accelerators: 16, DurationHours: 3},
	}
	batch := tco.Batch{MaxParts: 2}
	batch.Add(0, tco.Placement{Parts: []tco.Part{{Pool: 0, Accelerators: 64}}})
	batch.Add(0, tco.Placement{Parts: []tco.Part{{Pool: 1, Accelerators: 64}}})
	batch.Add(0, tco.Placement{Parts: []tco.Part{{Pool: 0, Accelerators: 32}, {Pool: 1, Accelerators: 32}}})
	batch.Add(1, tco.Placement{Parts: []tco.Part{{Pool: 1, Accelerators: 16}}}) // job 1 may not run on spot

	var out tco.BatchResult // reuse it from one cycle to the next
	if err := pools.PriceBatch(s.Topology, s.Pricing, jobs, &batch, &out); err != nil {
		log.Fatal(err)
	}
	for i := range out.Cost {
		if err := out.Err(i); err != nil {
			// The batch gives the code; pricing the placement alone gives
			// the message.
			_, err = pools.Price(s.Topology, s.Pricing, &jobs[batch.Job[i]], &tco.Placement{
				Parts: []tco.Part{{Pool: batch.Pool[2*i], Accelerators: batch.Accelerators[2*i]}}})
			fmt.Printf("placement %d: %v\n", i, err)
			continue
		}
		fmt.Printf("placement %d: %.2f, done in %.2f h\n", i, out.Cost[i], out.CompletionHours[i])
	}
	// Output:
	// placement 0: 3075.54, done in 12.01 h
	// placement 1: 1262.48, done in 12.33 h
	// placement 2: 2183.13, done in 12.18 h
	// placement 3: tco: placement.pool[0] = 1 is a spot pool, but job.interruptible = 0: the job may not be interrupted
}

// A sweep prices a whole slice of values in one call. The run is libtco
// 1.0's built-in one: the model's shape given (80 layers of 8,192, full
// attention counted) and blocking checkpoints.
func ExampleSweep() {
	s, err := tco.NewScenario(tco.Set("layers", 80), tco.Set("hidden_size", 8192),
		tco.SetText("attention", "full"), tco.SetBool("checkpoint_async", false))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	mfu := []float64{0.3, 0.4, 0.5, 1.5}
	r, err := tco.Sweep(s.Topology, s.Workload, s.Pricing, "mfu", mfu)
	if err != nil {
		log.Fatal(err)
	}
	days, _ := r.Field("wall_hours")
	for i, total := range r.Totals() {
		if err := r.Err(i); err != nil {
			fmt.Printf("mfu %.1f: %v\n", mfu[i], errors.Is(err, tco.ErrRange))
			continue
		}
		fmt.Printf("mfu %.1f: %.0f over %.1f days\n", mfu[i], total, days[i]/24)
	}
	// Output:
	// mfu 0.3: 6143765 over 35.7 days
	// mfu 0.4: 4614465 over 26.8 days
	// mfu 0.5: 3696885 over 21.4 days
	// mfu 1.5: true
}

// Fixed against elastic capacity for a week of hourly demand, for jobs
// that write their checkpoints blocking.
func ExampleCapacitySplit() {
	s, err := tco.NewScenario(tco.SetBool("checkpoint_async", false))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	demand := make([]float64, 7*24)
	for h := range demand {
		demand[h] = 400
		if h%24 >= 9 && h%24 < 18 { // working hours
			demand[h] = 1000
		}
	}
	stats, err := tco.ComputeDemandStats(demand, 1)
	if err != nil {
		log.Fatal(err)
	}
	split, err := tco.CapacitySplit(demand, 1, s.Topology, s.Workload, s.Pricing)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("peak %.0f, mean %.1f, peak/average %.2f\n", stats.Peak, stats.Mean, stats.PeakToAverage)
	fmt.Printf("reserve %.0f: %.0f against %.0f all on demand and %.0f reserving the peak\n",
		split.Baseline, split.TotalCost, split.AllOnDemandCost, split.ReservePeakCost)
	// Output:
	// peak 1000, mean 625.0, peak/average 1.60
	// reserve 400: 524362 against 722400 all on demand and 660744 reserving the peak
}

// Scenarios travel as canonical CBOR: the same bytes, the same fingerprint
// and the same results in C, Python and Go.
func ExampleLoadScenarioCBOR() {
	s, err := tco.NewScenario(tco.Set("accelerators", 4096))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	data, err := s.MarshalCBOR()
	if err != nil {
		log.Fatal(err)
	}
	back, err := tco.LoadScenarioCBOR(data)
	if err != nil {
		log.Fatal(err)
	}
	defer back.Close()
	a, _ := s.Fingerprint()
	b, _ := back.Fingerprint()
	n, _ := back.Topology.Get("accelerators")
	fmt.Println(a == b, n)
	// Output:
	// true 4096
}
