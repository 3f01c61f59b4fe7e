package tco_test

import (
	"math"
	"sort"
	"sync"
	"testing"
	"time"

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
	// One cgo call of tco_placement_price per placement, on C structs made
	// beforehand, with the arguments Price passes.
	b.Run("bare-cgo", func(b *testing.B) {
		b.ReportAllocs()
		sink := 0.0
		for i := 0; b.Loop(); i++ {
			sink += bench.c.PriceBare(i % singleCount)
		}
		if math.IsNaN(sink) || sink == 0 {
			b.Fatal("a bare call failed")
		}
	})
	// Price against the bare cgo call (target: 1.5 times at most).
	b.Run("go-vs-bare", func(b *testing.B) {
		b.ReportAllocs()
		sink := 0.0
		versus(b, func(first int) {
			for k := first; k < first+block; k++ {
				p, err := bench.pools.Price(s.Topology, s.Pricing, &bench.jobs[k], &bench.singles[k])
				if err != nil {
					b.Fatal(err)
				}
				sink += p.Cost
			}
		}, func(first int) {
			for k := first; k < first+block; k++ {
				sink += bench.c.PriceBare(k)
			}
		})
		if math.IsNaN(sink) {
			b.Fatal("a bare call failed")
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
	b.Run("go-ComputeInto", func(b *testing.B) {
		b.ReportAllocs()
		var e tco.Estimate
		for b.Loop() {
			if err := tco.ComputeInto(&e, s.Topology, s.Workload, s.Pricing); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Compute, which builds no maps, and ComputeScalars, into an Estimate
	// of the caller's, against the bare cgo call.
	b.Run("go-Compute-vs-bare", func(b *testing.B) {
		b.ReportAllocs()
		sink := 0.0
		versus(b, func(int) {
			for range block {
				e, err := tco.Compute(s.Topology, s.Workload, s.Pricing)
				if err != nil {
					b.Fatal(err)
				}
				sink += e.Total
			}
		}, func(int) {
			for range block {
				sink += bench.c.EstimateCall()
			}
		})
		if sink == 0 {
			b.Fatal("not priced")
		}
	})
	b.Run("go-ComputeScalars-vs-bare", func(b *testing.B) {
		b.ReportAllocs()
		var e tco.Estimate
		sink := 0.0
		versus(b, func(int) {
			for range block {
				if err := tco.ComputeScalars(&e, s.Topology, s.Workload, s.Pricing); err != nil {
					b.Fatal(err)
				}
				sink += e.Total
			}
		}, func(int) {
			for range block {
				sink += bench.c.EstimateCall()
			}
		})
		if sink == 0 {
			b.Fatal("not priced")
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

// block is how many calls versus times at once.
const block = 1024

// versus runs inGo and bare in alternating blocks of block calls, both
// given the index of the block's first single (so that both price the
// same ones) and so both seeing the same machine, and reports the medians
// of ns/go, ns/bare and of their ratio over the pairs of blocks: the
// binding's own cost. Medians, because a shared machine takes the
// processor away in the middle of some blocks.
func versus(b *testing.B, inGo, bare func(first int)) {
	const samples = 1 << 16
	g, c, ratio := make([]float64, 0, samples), make([]float64, 0, samples), make([]float64, 0, samples)
	for i := 0; b.Loop(); i++ {
		first := (i * block) % singleCount
		t0 := time.Now()
		inGo(first)
		t1 := time.Now()
		bare(first)
		x, y := float64(t1.Sub(t0).Nanoseconds())/block, float64(time.Since(t1).Nanoseconds())/block
		if len(ratio) < samples {
			g, c, ratio = append(g, x), append(c, y), append(ratio, x/y)
		}
	}
	b.ReportMetric(medianOf(g), "ns/go")
	b.ReportMetric(medianOf(c), "ns/bare")
	b.ReportMetric(medianOf(ratio), "go/bare")
}

// medianOf is the median of v (sorting it).
func medianOf(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	sort.Float64s(v)
	return v[len(v)/2]
}
