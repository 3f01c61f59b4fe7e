package tco_test

import (
	"math"
	"testing"

	"libtco.dev/tco"
)

// rng is bench_placement.c's xorshift64*, so that the Go benchmarks and
// tests price the same kind of placements as the C benchmark.
type rng uint64

func (r *rng) next(below uint32) uint32 {
	x := uint64(*r)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*r = rng(x)
	return uint32((x*0x2545f4914f6cdd1d)>>33) % below
}

const (
	benchPools = 64
	benchJobs  = 4096
	benchParts = 2
)

// market is tests/bench/bench_placement.c's setup: 64 pools (2 regions, 8 zones,
// 64 racks, the four price classes), 4,096 jobs of 1 to 128 accelerators,
// and count candidate placements of one or two parts, 256 per job in job
// order when count is 2^20.
type market struct {
	pools []tco.Pool
	jobs  []tco.Job
	batch tco.Batch // grouped by job
	rng   rng       // where the generator stopped
}

// shuffled is the batch in random order, bench_placement.c's "any order"
// layout (the same permutation when count is 2^20).
func (m *market) shuffled() *tco.Batch {
	b := &m.batch
	n := b.Len()
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for i := n - 1; i > 0; i-- {
		k := int(m.rng.next(uint32(i) + 1))
		order[i], order[k] = order[k], order[i]
	}
	s := &tco.Batch{MaxParts: b.MaxParts}
	for _, o := range order {
		s.Job = append(s.Job, b.Job[o])
		s.StartHours = append(s.StartHours, b.StartHours[o])
		s.Pool = append(s.Pool, b.Pool[o*b.MaxParts:(o+1)*b.MaxParts]...)
		s.Accelerators = append(s.Accelerators, b.Accelerators[o*b.MaxParts:(o+1)*b.MaxParts]...)
	}
	return s
}

func newMarket(count int) *market {
	r := rng(0x9e3779b97f4a7c15)
	m := &market{}
	for i := 0; i < benchPools; i++ {
		p := tco.Pool{
			Class: tco.PriceClass(i % 4), AcceleratorsPerNode: 8, FreeAccelerators: 512,
			Rack: int32(i), Zone: int32(i / 8), Region: int32(i / 32),
			RatePerAccelHour: 1.5 + 0.1*float64(i%7),
		}
		if p.Class == tco.Spot {
			p.InterruptionsPerNodeHour = 0.01
		}
		m.pools = append(m.pools, p)
	}
	for j := 0; j < benchJobs; j++ {
		m.jobs = append(m.jobs, tco.Job{
			Accelerators:          1 << r.next(8),
			Interruptible:         true,
			DurationHours:         float64(1 + r.next(200)),
			CommShare:             float64(r.next(100)) / 100.0,
			CheckpointBytes:       1e9 * float64(1+r.next(1000)),
			TrafficGBPerAccelHour: float64(r.next(50)),
			DelayCostPerHour:      float64(r.next(100)),
		})
	}
	b := &m.batch
	b.MaxParts = benchParts
	perJob := count / benchJobs
	if perJob == 0 {
		perJob = 1
	}
	for i := 0; i < count; i++ {
		j := int32((i / perJob) % benchJobs)
		n := m.jobs[j].Accelerators
		a := n
		if n > 1 && r.next(2) == 1 {
			a = n / 2
		}
		first := int32(r.next(benchPools))
		b.Job = append(b.Job, j)
		b.Pool = append(b.Pool, first, (first+1+int32(r.next(benchPools-1)))%benchPools)
		b.Accelerators = append(b.Accelerators, a, n-a)
		b.StartHours = append(b.StartHours, float64(r.next(4)))
	}
	m.rng = r
	return m
}

// placement is placement i of the batch in the single-call form.
func (m *market) placement(i int) tco.Placement {
	b := &m.batch
	var pl tco.Placement
	for k := 0; k < b.MaxParts; k++ {
		a := b.Accelerators[i*b.MaxParts+k]
		if a == 0 {
			break
		}
		pl.Parts = append(pl.Parts, tco.Part{Pool: b.Pool[i*b.MaxParts+k], Accelerators: a})
	}
	pl.StartHours = b.StartHours[i]
	return pl
}

func (m *market) placementPtr(i int) *tco.Placement {
	pl := m.placement(i)
	return &pl
}

// scenario is a frozen default scenario, closed at the end of the test.
// rates10 are libtco 1.0's illustrative rates, which hand-worked values
// assume: since 1.1 a rate left unset is the accelerator's list price.
var rates10 = []tco.Option{tco.Set("on_demand_per_accel_hour", 4), tco.Set("reserved_per_accel_hour", 2.5),
	tco.Set("spot_per_accel_hour", 2), tco.Set("capex_per_accelerator", 25000)}

// scenario is a new scenario at rates10 with opts applied after them.
func scenario(tb testing.TB, opts ...tco.Option) *tco.Scenario {
	tb.Helper()
	s, err := tco.NewScenario(append(append([]tco.Option{}, rates10...), opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func pools(tb testing.TB, list []tco.Pool) *tco.Pools {
	tb.Helper()
	p, err := tco.NewPoolsOf(list...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { p.Close() })
	return p
}

// same is bit-for-bit equality (NaN equal to NaN of the same bits).
func same(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
