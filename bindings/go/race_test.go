package tco_test

import (
	"runtime"
	"sync"
	"testing"

	"libtco.dev/tco"
)

// TestConcurrent shares frozen handles between many goroutines that price
// estimates, sweeps, single placements and batches at once, while each also
// makes, copies, closes and drops handles of its own; every result must be
// what one goroutine alone gets, bit for bit. Run it with -race.
func TestConcurrent(t *testing.T) {
	const workers = 16
	rounds := 40
	if testing.Short() {
		rounds = 5
	}
	ps := newPlacementSetup(t, 1<<12)
	m, s := ps.m, ps.s
	want, err := s.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	wantSweep, err := s.Sweep("mfu", []float64{0.25, 0.35, 0.45})
	if err != nil {
		t.Fatal(err)
	}
	var wantBatch tco.BatchResult
	if err := ps.pools.PriceBatch(s.Topology, s.Pricing, m.jobs, &m.batch, &wantBatch); err != nil {
		t.Fatal(err)
	}
	wantCBOR, err := s.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	errs := make(chan string, workers*rounds)
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var res tco.BatchResult
			for r := 0; r < rounds; r++ {
				e, err := tco.Compute(s.Topology, s.Workload, s.Pricing)
				if err != nil || !same(e.Total, want.Total) || e.ScenarioFingerprint != want.ScenarioFingerprint {
					errs <- "estimate differs"
				}
				sw, err := s.Sweep("mfu", []float64{0.25, 0.35, 0.45})
				if err != nil {
					errs <- err.Error()
				} else {
					for i, v := range sw.Totals() {
						if !same(v, wantSweep.Totals()[i]) {
							errs <- "sweep differs"
						}
					}
				}
				if err := ps.pools.PriceBatch(s.Topology, s.Pricing, m.jobs, &m.batch, &res); err != nil {
					errs <- err.Error()
				}
				for i := range res.Cost {
					if !same(res.Cost[i], wantBatch.Cost[i]) || res.Status[i] != wantBatch.Status[i] {
						errs <- "batch differs"
						break
					}
				}
				for k := 0; k < 64; k++ {
					i := (g*rounds*64 + r*64 + k) % m.batch.Len()
					p, err := ps.pools.Price(s.Topology, s.Pricing, &m.jobs[m.batch.Job[i]], m.placementPtr(i))
					if err != nil || !same(p.Cost, wantBatch.Cost[i]) {
						errs <- "single placement differs"
					}
				}
				if b, err := s.MarshalCBOR(); err != nil || string(b) != string(wantCBOR) {
					errs <- "scenario bytes differ"
				}
				// Handles of its own: copied, used, closed twice; some dropped
				// for the garbage collector to free.
				mine, err := s.With(tco.SetInt("accelerators", 512+32*g))
				if err != nil {
					errs <- err.Error()
					continue
				}
				if _, err := mine.Estimate(); err != nil {
					errs <- err.Error()
				}
				if r%2 == 0 {
					mine.Close()
					mine.Close()
				}
				if len(tco.Params()) == 0 {
					errs <- "no parameters"
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	runtime.GC() // runs the cleanups of the dropped handles

	// Close from many goroutines at once: exactly one frees.
	extra, err := s.With()
	if err != nil {
		t.Fatal(err)
	}
	p2, err := tco.NewPoolsOf(m.pools...)
	if err != nil {
		t.Fatal(err)
	}
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			extra.Close()
			p2.Close()
		}()
	}
	wg.Wait()
	if _, err := extra.Estimate(); err == nil {
		t.Error("closed scenario priced")
	}
}
