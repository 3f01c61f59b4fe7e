package tco_test

import (
	"sync"
	"testing"

	"libtco.dev/tco"
	"libtco.dev/tco/internal/cref"
)

// The benchmarks price the same placements through Go and, in the same
// process, through C alone (internal/cref: one cgo call runs the whole C
// loop), so that the ratio is the binding's own cost. The setup is
// tests/bench/bench_placement.c's: 64 pools, 4,096 jobs, 2^20 placements of one
// or two parts; the single calls cycle over 4,096 of them.
//
//	go test -run '^$' -bench . -count 5

const (
	benchCount  = 1 << 20
	singleCount = 4096
)

var (
	benchOnce sync.Once
	bench     struct {
		*placementSetup
		random  *tco.Batch
		singles []tco.Placement
		jobs    []tco.Job
	}
)

func benchSetup(b *testing.B) {
	benchOnce.Do(func() {
		bench.placementSetup = newPlacementSetup(&testing.T{}, benchCount)
		bench.random = bench.m.shuffled()
		for i := 0; i < singleCount; i++ {
			bench.singles = append(bench.singles, bench.m.placement(i))
			bench.jobs = append(bench.jobs, bench.m.jobs[bench.m.batch.Job[i]])
		}
		if rc := bench.c.PrepareSingles(&bench.m.batch, singleCount); rc != 0 {
			panic("PrepareSingles failed")
		}
	})
	if bench.placementSetup == nil {
		b.Fatal("no benchmark setup")
	}
}

func BenchmarkPlacementPrice(b *testing.B) {
	benchSetup(b)
	s := bench.s
	b.Run("go", func(b *testing.B) {
		b.ReportAllocs()
		sink := 0.0
		for i := 0; b.Loop(); i++ {
			k := i % singleCount
			p, err := bench.pools.Price(s.Topology, s.Pricing, &bench.jobs[k], &bench.singles[k])
			if err != nil {
				b.Fatal(err)
			}
			sink += p.Cost
		}
		if sink == 0 {
			b.Fatal("nothing priced")
		}
	})
	b.Run("c", func(b *testing.B) {
		b.ReportAllocs()
		if _, failed := bench.c.LoopSingle(b.N); failed != 0 {
			b.Fatalf("%d failed", failed)
		}
	})
}

func BenchmarkPlacementBatch(b *testing.B) {
	benchSetup(b)
	s := bench.s
	for _, layout := range []struct {
		name  string
		batch *tco.Batch
	}{{"by-job", &bench.m.batch}, {"random", bench.random}} {
		n := layout.batch.Len()
		b.Run("go-"+layout.name, func(b *testing.B) {
			b.ReportAllocs()
			var out tco.BatchResult // warm: sized once, outside the timing
			if err := bench.pools.PriceBatch(s.Topology, s.Pricing, bench.m.jobs, layout.batch, &out); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := bench.pools.PriceBatch(s.Topology, s.Pricing, bench.m.jobs, layout.batch, &out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/placement")
		})
		b.Run("c-"+layout.name, func(b *testing.B) {
			b.ReportAllocs()
			cost, done, status := make([]float64, n), make([]float64, n), make([]int32, n)
			b.ResetTimer()
			if rc := bench.c.Batch(layout.batch, cost, done, status, b.N); rc != 0 {
				b.Fatal(rc)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/placement")
		})
	}
}

func BenchmarkEstimate(b *testing.B) {
	benchSetup(b)
	s := bench.s
	b.Run("go-Compute", func(b *testing.B) {
		b.ReportAllocs()
		var e tco.Estimate
		for b.Loop() {
			if err := tco.ComputeInto(&e, s.Topology, s.Workload, s.Pricing); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("go-ComputeScalars", func(b *testing.B) {
		b.ReportAllocs()
		var e tco.Estimate
		for b.Loop() {
			if err := tco.ComputeScalars(&e, s.Topology, s.Workload, s.Pricing); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cgo-call", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if bench.c.EstimateCall() == 0 {
				b.Fatal("not priced")
			}
		}
	})
	b.Run("go-Total", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := tco.Total(s.Topology, s.Workload, s.Pricing); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("c", func(b *testing.B) {
		b.ReportAllocs()
		if _, failed := bench.c.LoopEstimate(b.N); failed != 0 {
			b.Fatalf("%d failed", failed)
		}
	})
}

// BenchmarkCgoCall is the floor on this machine: one cgo call to a C
// function that does nothing, without arguments (tco_version_number), and
// with the arguments of a single placement.
func BenchmarkCgoCall(b *testing.B) {
	b.Run("no-args", func(b *testing.B) {
		for b.Loop() {
			cref.Nop()
		}
	})
	b.Run("price-args", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cref.NopPrice()
		}
	})
}
