package tco_test

import (
	"errors"
	"math"
	"testing"

	"libtco.dev/tco"
	"libtco.dev/tco/internal/cref"
)

// placementSetup is a market with its handles in Go and the same ones made
// in C alone.
type placementSetup struct {
	m     *market
	s     *tco.Scenario
	pools *tco.Pools
	c     *cref.Ctx
}

func newPlacementSetup(tb testing.TB, count int) *placementSetup {
	tb.Helper()
	m := newMarket(count)
	s := scenario(tb)
	data, err := s.MarshalCBOR()
	if err != nil {
		tb.Fatal(err)
	}
	c, err := cref.New(data, m.pools, m.jobs)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.Close)
	return &placementSetup{m: m, s: s, pools: pools(tb, m.pools), c: c}
}

func TestPools(t *testing.T) {
	ps, err := tco.NewPools()
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	p := tco.Pool{Class: tco.Spot, AcceleratorsPerNode: 8, FreeAccelerators: 64, Rack: 3, Zone: 1, Region: 0,
		RatePerAccelHour: 1.25, InterruptionsPerNodeHour: 0.02}
	id, err := ps.Add(p)
	if err != nil || id != 0 {
		t.Fatalf("Add: %d, %v", id, err)
	}
	if got, err := ps.Get(0); err != nil || got != p {
		t.Errorf("Get: %+v, %v", got, err)
	}
	if _, err := ps.Get(1); !errors.Is(err, tco.ErrIndex) {
		t.Errorf("Get(1): %v", err)
	}
	// Bad pools: an error naming the field, and nothing added.
	for _, bad := range []struct {
		pool  tco.Pool
		want  error
		field string
	}{
		{tco.Pool{Class: 9, AcceleratorsPerNode: 8, RatePerAccelHour: 1}, tco.ErrRange, "pool.price_class"},
		{tco.Pool{AcceleratorsPerNode: 0, RatePerAccelHour: 1}, tco.ErrRange, "pool.accelerators_per_node"},
		{tco.Pool{AcceleratorsPerNode: 8, FreeAccelerators: -1}, tco.ErrRange, "pool.free_accelerators"},
		{tco.Pool{AcceleratorsPerNode: 8, RatePerAccelHour: math.NaN()}, tco.ErrNotFinite, "pool.rate_per_accel_hour"},
		{tco.Pool{Class: tco.OnDemand, AcceleratorsPerNode: 8, InterruptionsPerNodeHour: 0.1}, tco.ErrInconsistent,
			"pool.interruptions_per_node_hour"},
	} {
		_, err := ps.Add(bad.pool)
		var e *tco.Error
		if !errors.Is(err, bad.want) || !errors.As(err, &e) || e.ParamName != bad.field {
			t.Errorf("Add(%+v): %v (%+v), want %v on %s", bad.pool, err, e, bad.want, bad.field)
		}
	}
	if ps.Len() != 1 {
		t.Errorf("%d pools", ps.Len())
	}
	// Unfrozen pools cannot price.
	s := scenario(t)
	job := tco.Job{Accelerators: 8, Interruptible: true, DurationHours: 10}
	pl := tco.Placement{Parts: []tco.Part{{Pool: 0, Accelerators: 8}}}
	if _, err := ps.Price(s.Topology, s.Pricing, &job, &pl); !errors.Is(err, tco.ErrNotFrozen) {
		t.Errorf("price on unfrozen pools: %v", err)
	}
	if err := ps.Freeze(); err != nil {
		t.Fatal(err)
	}
	if err := ps.Freeze(); err != nil {
		t.Fatal(err)
	}
	if _, err := ps.Add(p); !errors.Is(err, tco.ErrFrozen) {
		t.Errorf("Add after Freeze: %v", err)
	}
	if _, err := ps.Price(s.Topology, s.Pricing, &job, &pl); err != nil {
		t.Error(err)
	}
	// Rack 3 in zone 1 and in zone 2: inconsistent.
	if _, err := tco.NewPoolsOf(p, tco.Pool{AcceleratorsPerNode: 8, Rack: 3, Zone: 2, RatePerAccelHour: 1}); !errors.Is(err, tco.ErrInconsistent) {
		t.Errorf("rack in two zones: %v", err)
	}
}

// TestPlacementMatchesC prices placements through Go one at a time and in a
// batch, and in C alone: the same bits everywhere.
func TestPlacementMatchesC(t *testing.T) {
	ps := newPlacementSetup(t, 1<<14)
	m, b := ps.m, &ps.m.batch
	// Some placements that cannot be priced, for a status each.
	for i := 0; i < b.Len(); i += 97 {
		switch (i / 97) % 3 {
		case 0:
			b.Accelerators[i*b.MaxParts]++ // the parts no longer add up to the job
		case 1:
			b.StartHours[i] = -1
		case 2:
			b.Pool[i*b.MaxParts] = 1000 // no such pool
		}
	}
	var res tco.BatchResult
	if err := ps.pools.PriceBatch(ps.s.Topology, ps.s.Pricing, m.jobs, b, &res); err != nil {
		t.Fatal(err)
	}
	n := b.Len()
	cCost, cDone, cStatus := make([]float64, n), make([]float64, n), make([]int32, n)
	if rc := ps.c.Batch(b, cCost, cDone, cStatus, 1); rc != 0 {
		t.Fatalf("C batch: %d", rc)
	}
	failed := 0
	for i := 0; i < n; i++ {
		job := m.jobs[b.Job[i]]
		pl := m.placement(i)
		one, err := ps.pools.Price(ps.s.Topology, ps.s.Pricing, &job, &pl)
		want, rc := ps.c.Price(b.Job[i], pl)
		if int32(res.Status[i]) != cStatus[i] || int(cStatus[i]) != rc {
			t.Fatalf("placement %d: status %v in the Go batch, %d in the C batch, %d alone in C", i, res.Status[i], cStatus[i], rc)
		}
		if rc != 0 {
			failed++
			if !errors.Is(err, res.Err(i)) || !math.IsNaN(res.Cost[i]) {
				t.Fatalf("placement %d: alone %v, in the batch %v", i, err, res.Err(i))
			}
			continue
		}
		if err != nil {
			t.Fatalf("placement %d: %v", i, err)
		}
		got := [9]float64{one.Cost, one.CompletionHours, one.RunHours, one.Compute, one.Slowdown, one.Traffic,
			one.Interruptions, one.Stranded, one.Delay}
		for k := range got {
			if !same(got[k], want[k]) {
				t.Fatalf("placement %d, field %d: Go %v, C %v", i, k, got[k], want[k])
			}
		}
		if !same(res.Cost[i], one.Cost) || !same(res.CompletionHours[i], one.CompletionHours) ||
			!same(cCost[i], one.Cost) || !same(cDone[i], one.CompletionHours) {
			t.Fatalf("placement %d: batch %v/%v, single %v/%v, C batch %v/%v", i, res.Cost[i],
				res.CompletionHours[i], one.Cost, one.CompletionHours, cCost[i], cDone[i])
		}
	}
	if failed == n {
		t.Fatal("no placement priced")
	}
	t.Logf("%d placements, %d could not be priced (the same in Go and C)", n, failed)
}

// PriceBatchThreads gives PriceBatch's figures and statuses, bit for bit,
// on 2^16 placements (four shares of 16,384) and 1, 2, 3, 4 and one per
// core threads, into results first filled with a value no pricing writes;
// a negative count is refused.
func TestPlacementBatchThreads(t *testing.T) {
	ps := newPlacementSetup(t, 1<<16)
	m, b := ps.m, &ps.m.batch
	for i := 0; i < b.Len(); i += 89 {
		b.StartHours[i] = -1 // some that cannot be priced
	}
	var want tco.BatchResult
	if err := ps.pools.PriceBatch(ps.s.Topology, ps.s.Pricing, m.jobs, b, &want); err != nil {
		t.Fatal(err)
	}
	for _, threads := range []int{1, 2, 3, 4, 0} {
		got := tco.BatchResult{Cost: make([]float64, b.Len()), CompletionHours: make([]float64, b.Len()),
			Status: make([]tco.Status, b.Len())}
		for i := range got.Cost {
			got.Cost[i], got.CompletionHours[i], got.Status[i] = -7, -7, -7
		}
		if err := ps.pools.PriceBatchThreads(ps.s.Topology, ps.s.Pricing, m.jobs, b, &got, threads); err != nil {
			t.Fatal(err)
		}
		for i := range want.Cost {
			if got.Status[i] != want.Status[i] || !same(got.Cost[i], want.Cost[i]) ||
				!same(got.CompletionHours[i], want.CompletionHours[i]) {
				t.Fatalf("%d threads, placement %d: %v %v %v, alone %v %v %v", threads, i, got.Status[i],
					got.Cost[i], got.CompletionHours[i], want.Status[i], want.Cost[i], want.CompletionHours[i])
			}
		}
	}
	var res tco.BatchResult
	err := ps.pools.PriceBatchThreads(ps.s.Topology, ps.s.Pricing, m.jobs, b, &res, -1)
	var e *tco.Error
	if !errors.Is(err, tco.ErrRange) || !errors.As(err, &e) || e.ParamName != "threads" {
		t.Fatalf("threads -1: %v", err)
	}
}

func TestPlacementParts(t *testing.T) {
	ps := pools(t, []tco.Pool{
		{Class: tco.OnDemand, AcceleratorsPerNode: 8, FreeAccelerators: 64, Rack: 0, Zone: 0, Region: 0, RatePerAccelHour: 2},
		{Class: tco.Reserved, AcceleratorsPerNode: 8, FreeAccelerators: 64, Rack: 1, Zone: 1, Region: 0, RatePerAccelHour: 1.5},
		{Class: tco.Spot, AcceleratorsPerNode: 8, FreeAccelerators: 64, Rack: 2, Zone: 2, Region: 1, RatePerAccelHour: 1,
			InterruptionsPerNodeHour: 0.05},
	})
	s := scenario(t)
	job := tco.Job{Accelerators: 16, DurationHours: 24, CommShare: 0.5, CheckpointBytes: 1e11,
		TrafficGBPerAccelHour: 5, DelayCostPerHour: 10}
	one, err := ps.Price(s.Topology, s.Pricing, &job, &tco.Placement{Parts: []tco.Part{{0, 16}}})
	if err != nil {
		t.Fatal(err)
	}
	two, err := ps.Price(s.Topology, s.Pricing, &job, &tco.Placement{Parts: []tco.Part{{0, 8}, {1, 8}}, StartHours: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !(one.Slowdown == 0 && two.Slowdown > 0 && two.Delay == 20 && two.CompletionHours > one.CompletionHours) {
		t.Errorf("one pool %+v, two zones %+v", one, two)
	}
	sum := two.Compute + two.Slowdown + two.Traffic + two.Interruptions + two.Stranded + two.Delay
	if math.Abs(sum-two.Cost) > 1e-9*two.Cost {
		t.Errorf("parts add to %v, cost %v", sum, two.Cost)
	}
	cases := []struct {
		name  string
		job   tco.Job
		pl    tco.Placement
		want  error
		field string
	}{
		{"no parts", job, tco.Placement{}, tco.ErrRange, "placement.parts"},
		{"nine parts", job, tco.Placement{Parts: make([]tco.Part, 9)}, tco.ErrRange, "placement.parts"},
		{"no such pool", job, tco.Placement{Parts: []tco.Part{{7, 16}}}, tco.ErrIndex, "placement.pool[0]"},
		{"negative pool", job, tco.Placement{Parts: []tco.Part{{-1, 16}}}, tco.ErrIndex, "placement.pool[0]"},
		{"too few", job, tco.Placement{Parts: []tco.Part{{0, 8}}}, tco.ErrInconsistent, "placement.accelerators"},
		{"more than free", tco.Job{Accelerators: 128, DurationHours: 1}, tco.Placement{Parts: []tco.Part{{0, 128}}},
			tco.ErrInconsistent, "placement.accelerators[0]"},
		{"spot for a job that may not stop", job, tco.Placement{Parts: []tco.Part{{2, 16}}}, tco.ErrInconsistent,
			"placement.pool[0]"},
		{"pool twice", job, tco.Placement{Parts: []tco.Part{{0, 8}, {0, 8}}}, tco.ErrInconsistent, "placement.pool[1]"},
		{"zero duration", tco.Job{Accelerators: 16}, tco.Placement{Parts: []tco.Part{{0, 16}}}, tco.ErrRange,
			"job.duration_hours"},
		{"NaN share", tco.Job{Accelerators: 16, DurationHours: 1, CommShare: math.NaN()},
			tco.Placement{Parts: []tco.Part{{0, 16}}}, tco.ErrNotFinite, "job.comm_share"},
		{"negative start", job, tco.Placement{Parts: []tco.Part{{0, 16}}, StartHours: -1}, tco.ErrRange,
			"placement.start_hours"},
		{"fewer racks than pools", job, tco.Placement{Parts: []tco.Part{{0, 8}, {1, 8}}, Racks: 1},
			tco.ErrInconsistent, "placement.racks"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ps.Price(s.Topology, s.Pricing, &c.job, &c.pl)
			var e *tco.Error
			if !errors.Is(err, c.want) || !errors.As(err, &e) || e.ParamName != c.field {
				t.Errorf("%v (%+v), want %v on %s", err, e, c.want, c.field)
			}
		})
	}
}

func TestPlacementBatchInput(t *testing.T) {
	ps := pools(t, []tco.Pool{
		{Class: tco.OnDemand, AcceleratorsPerNode: 8, FreeAccelerators: 64, RatePerAccelHour: 2},
		{Class: tco.OnDemand, AcceleratorsPerNode: 8, FreeAccelerators: 64, Rack: 1, RatePerAccelHour: 2.5},
	})
	s := scenario(t)
	jobs := []tco.Job{{Accelerators: 16, DurationHours: 10, CommShare: 0.3}, {Accelerators: 8, DurationHours: 5}}

	var b tco.Batch
	b.MaxParts = 2
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(b.Add(0, tco.Placement{Parts: []tco.Part{{0, 16}}}))
	must(b.Add(0, tco.Placement{Parts: []tco.Part{{0, 8}, {1, 8}}, StartHours: 1}))
	must(b.Add(1, tco.Placement{Parts: []tco.Part{{1, 8}}, Racks: 1}))
	must(b.Add(5, tco.Placement{Parts: []tco.Part{{1, 8}}}))  // no such job
	must(b.Add(1, tco.Placement{Parts: []tco.Part{{0, 16}}})) // too many accelerators for the job
	if err := b.Add(0, tco.Placement{Parts: make([]tco.Part, 3)}); !errors.Is(err, tco.ErrRange) {
		t.Errorf("three parts in a batch of two: %v", err)
	}
	if b.Len() != 5 || len(b.Pool) != 10 || len(b.StartHours) != 5 || len(b.Racks) != 5 || len(b.Zones) != 0 {
		t.Fatalf("batch %+v", b)
	}
	var res tco.BatchResult
	must(ps.PriceBatch(s.Topology, s.Pricing, jobs, &b, &res))
	for i := 0; i < 3; i++ {
		pl := tco.Placement{StartHours: b.StartHours[i], Racks: b.Racks[i]}
		for k := 0; k < 2 && b.Accelerators[2*i+k] != 0; k++ {
			pl.Parts = append(pl.Parts, tco.Part{Pool: b.Pool[2*i+k], Accelerators: b.Accelerators[2*i+k]})
		}
		one, err := ps.Price(s.Topology, s.Pricing, &jobs[b.Job[i]], &pl)
		if err != nil || res.Err(i) != nil || !same(one.Cost, res.Cost[i]) || !same(one.CompletionHours, res.CompletionHours[i]) {
			t.Errorf("placement %d: single %v (%v), batch %v (%v)", i, one.Cost, err, res.Cost[i], res.Err(i))
		}
	}
	if !errors.Is(res.Err(3), tco.ErrIndex) || !math.IsNaN(res.Cost[3]) {
		t.Errorf("no such job: %v, %v", res.Err(3), res.Cost[3])
	}
	if !errors.Is(res.Err(4), tco.ErrInconsistent) || !math.IsNaN(res.CompletionHours[4]) {
		t.Errorf("too many accelerators: %v", res.Err(4))
	}
	if !errors.Is(res.Err(9), tco.ErrIndex) {
		t.Error("Err past the end")
	}

	// The result's slices are reused.
	cost := &res.Cost[0]
	must(ps.PriceBatch(s.Topology, s.Pricing, jobs, &b, &res))
	if &res.Cost[0] != cost {
		t.Error("the result was not reused")
	}

	// Bad shapes: an error before C reads anything.
	bad := []struct {
		name  string
		batch tco.Batch
		want  error
	}{
		{"max parts 0", tco.Batch{Job: []int32{0}, Pool: []int32{0}, Accelerators: []int32{16}}, tco.ErrRange},
		{"max parts 9", tco.Batch{MaxParts: 9, Job: []int32{0}, Pool: make([]int32, 9), Accelerators: make([]int32, 9)}, tco.ErrRange},
		{"short pool", tco.Batch{MaxParts: 2, Job: []int32{0, 0}, Pool: []int32{0, 0, 0}, Accelerators: []int32{16, 0, 16, 0}}, tco.ErrSize},
		{"short accelerators", tco.Batch{MaxParts: 1, Job: []int32{0, 0}, Pool: []int32{0, 0}, Accelerators: []int32{16}}, tco.ErrSize},
		{"long accelerators", tco.Batch{MaxParts: 1, Job: []int32{0}, Pool: []int32{0}, Accelerators: []int32{16, 16}}, tco.ErrSize},
		{"short start", tco.Batch{MaxParts: 1, Job: []int32{0, 0}, Pool: []int32{0, 0}, Accelerators: []int32{16, 16}, StartHours: []float64{1}}, tco.ErrSize},
		{"short racks", tco.Batch{MaxParts: 1, Job: []int32{0, 0}, Pool: []int32{0, 0}, Accelerators: []int32{16, 16}, Racks: []int32{1}}, tco.ErrSize},
		{"long zones", tco.Batch{MaxParts: 1, Job: []int32{0}, Pool: []int32{0}, Accelerators: []int32{16}, Zones: []int32{1, 1}}, tco.ErrSize},
		{"short regions", tco.Batch{MaxParts: 1, Job: []int32{0, 0}, Pool: []int32{0, 0}, Accelerators: []int32{16, 16}, Regions: []int32{1}}, tco.ErrSize},
	}
	for _, c := range bad {
		if err := ps.PriceBatch(s.Topology, s.Pricing, jobs, &c.batch, &res); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if err := ps.PriceBatch(s.Topology, s.Pricing, jobs, nil, &res); !errors.Is(err, tco.ErrNull) {
		t.Errorf("nil batch: %v", err)
	}
	if err := ps.PriceBatch(s.Topology, s.Pricing, jobs, &b, nil); !errors.Is(err, tco.ErrNull) {
		t.Errorf("nil result: %v", err)
	}
	// Empty batch, no jobs: fine, nothing priced.
	if err := ps.PriceBatch(s.Topology, s.Pricing, nil, &tco.Batch{MaxParts: 1}, &res); err != nil || len(res.Cost) != 0 {
		t.Errorf("empty batch: %v, %d", err, len(res.Cost))
	}
	// No jobs, placements: each placement's job index is past the end.
	one := tco.Batch{MaxParts: 1, Job: []int32{0}, Pool: []int32{0}, Accelerators: []int32{16}}
	if err := ps.PriceBatch(s.Topology, s.Pricing, nil, &one, &res); err != nil || !errors.Is(res.Err(0), tco.ErrIndex) {
		t.Errorf("no jobs: %v, %v", err, res.Err(0))
	}
	// Job indexes that are negative or huge: a status, not a crash.
	huge := tco.Batch{MaxParts: 1, Job: []int32{-1, math.MaxInt32}, Pool: []int32{0, 0}, Accelerators: []int32{16, 16}}
	if err := ps.PriceBatch(s.Topology, s.Pricing, jobs, &huge, &res); err != nil ||
		!errors.Is(res.Err(0), tco.ErrIndex) || !errors.Is(res.Err(1), tco.ErrIndex) {
		t.Errorf("bad job indexes: %v, %v", err, res.Status)
	}
	// Many jobs go through the pooled buffer rather than the stack.
	many := make([]tco.Job, 100)
	for i := range many {
		many[i] = tco.Job{Accelerators: 8, DurationHours: float64(i + 1)}
	}
	mb := tco.Batch{MaxParts: 1}
	for i := range many {
		must(mb.Add(int32(i), tco.Placement{Parts: []tco.Part{{0, 8}}}))
	}
	must(ps.PriceBatch(s.Topology, s.Pricing, many, &mb, &res))
	for i := range many {
		one, err := ps.Price(s.Topology, s.Pricing, &many[i], &tco.Placement{Parts: []tco.Part{{0, 8}}})
		if err != nil || !same(one.Cost, res.Cost[i]) {
			t.Fatalf("job %d: %v (%v), batch %v", i, one.Cost, err, res.Cost[i])
		}
	}
	b.Reset()
	if b.Len() != 0 || len(b.Pool) != 0 || b.MaxParts != 2 {
		t.Errorf("reset batch %+v", b)
	}
}

// TestPlacementAllocations: the single call allocates nothing, and a warm
// batch nothing either.
func TestPlacementAllocations(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("coverage and the race detector allocate")
	}
	ps := newPlacementSetup(t, 1<<10)
	m := ps.m
	pl := m.placement(0)
	job := m.jobs[m.batch.Job[0]]
	if _, err := ps.pools.Price(ps.s.Topology, ps.s.Pricing, &job, &pl); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(1000, func() {
		ps.pools.Price(ps.s.Topology, ps.s.Pricing, &job, &pl)
	}); n != 0 {
		t.Errorf("%v allocations per single placement", n)
	}
	var res tco.BatchResult
	if err := ps.pools.PriceBatch(ps.s.Topology, ps.s.Pricing, m.jobs, &m.batch, &res); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() {
		ps.pools.PriceBatch(ps.s.Topology, ps.s.Pricing, m.jobs, &m.batch, &res)
	}); n != 0 {
		t.Errorf("%v allocations per warm batch", n)
	}
	small := m.jobs[:4]
	b := tco.Batch{MaxParts: 1, Job: []int32{0, 1}, Pool: []int32{0, 1}, Accelerators: []int32{small[0].Accelerators, small[1].Accelerators}}
	ps.pools.PriceBatch(ps.s.Topology, ps.s.Pricing, small, &b, &res)
	if n := testing.AllocsPerRun(100, func() {
		ps.pools.PriceBatch(ps.s.Topology, ps.s.Pricing, small, &b, &res)
	}); n != 0 {
		t.Errorf("%v allocations per small batch", n)
	}
}

// TestEstimateMatchesC: the estimate and its result file, computed through
// Go and in C alone, are the same bytes.
func TestEstimateMatchesC(t *testing.T) {
	for _, opts := range [][]tco.Option{
		nil,
		{tco.Set("accelerators", 2048), tco.SetText("accelerator_model", "H200-SXM"), tco.Set("owned_share", 1)},
		{tco.Set("mfu", 0.31), tco.SetBool("checkpoint_async", true), tco.Set("electricity_per_kwh", 0.2)},
	} {
		s := scenario(t, opts...)
		data, err := s.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		c, err := cref.New(data, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		total, file, rc := c.Estimate()
		c.Close()
		if rc != 0 {
			t.Fatalf("C estimate: %d", rc)
		}
		e, err := s.Estimate()
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		if !same(e.Total, total) || string(got) != string(file) {
			t.Errorf("%v: Go %v, C %v; result files equal: %v", opts, e.Total, total, string(got) == string(file))
		}
	}
}
