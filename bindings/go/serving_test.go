package tco_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"libtco.dev/tco"
)

// handServing is tests/api/test_serving.c's scenario: a custom
// accelerator of 1e15 FLOP/s and 100 GB, a 10B dense model of 40 layers,
// width 4096, 32 heads, 8 KV heads, in BF16; reserved 2.5, on demand 4.
func handServing(t *testing.T) *tco.Scenario {
	t.Helper()
	s, err := tco.NewScenario(tco.SetText("accelerator_model", "custom"), tco.Set("accelerator_peak_flops", 1e15),
		tco.Set("accelerator_memory_bytes", 100e9), tco.Set("accelerator_tdp_watts", 700),
		tco.Set("params_total", 10e9), tco.Set("params_active", 0), tco.Set("layers", 40),
		tco.Set("hidden_size", 4096), tco.Set("heads", 32), tco.Set("kv_heads", 8),
		tco.Set("interruptible_share", 0), tco.Set("reserved_per_accel_hour", 2.5),
		tco.Set("on_demand_per_accel_hour", 4), tco.Set("spot_per_accel_hour", 2))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func handRequest(rate []float64) tco.ServeRequest {
	q := tco.DefaultServeRequest()
	q.Rate, q.IntervalSeconds, q.TensorParallel = rate, 3600, 1
	q.PromptTokens, q.OutputTokens, q.TimePerOutputToken = 1000, 200, 0.05
	q.FLOPSShare, q.BandwidthShare, q.MemoryBandwidthBps = 0.5, 1, 2e12
	return q
}

func servNear(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

func TestServeHandWorked(t *testing.T) {
	s := handServing(t)
	defer s.Close()
	q := tco.DefaultServeRequest()
	if q.IntervalSeconds != 60 || q.TimePerOutputToken != 0.1 || q.MaxBatch != 256 || q.RateUnit != tco.RequestsPerSecond {
		t.Fatalf("defaults %+v", q)
	}
	// doc/model.md, "Serving": 137 sequences within 50 ms (TPOT
	// 0.0499698048 s), 13.708278 requests/s a replica; the points need 8,
	// 2, 1, 0 and 15; the baseline 1: 12.5 fixed + 22 x 4 elastic.
	r, err := s.Serve(handRequest([]float64{100, 27, 13, 0, 200}))
	if err != nil {
		t.Fatal(err)
	}
	if r.TensorParallel != 1 || r.Batch != 137 || r.BatchLimit != "latency" || r.MaxBatchMemory != 356 {
		t.Fatalf("replica %+v", r)
	}
	if !servNear(r.TimePerOutputToken, 0.0499698048, 1e-14) || !servNear(r.ReplicaRequestsPerSecond, 13.708278484209726, 1e-13) ||
		!servNear(r.MinTimePerOutputToken, 0.0102917504, 1e-14) || !servNear(r.PrefillSeconds, 0.04032768, 1e-14) {
		t.Fatalf("replica times %+v", r)
	}
	want := []float64{8, 2, 1, 0, 15}
	for i, v := range want {
		if r.Needed[i] != v {
			t.Fatalf("needed %v, want %v", r.Needed, want)
		}
	}
	if r.FixedAccelerators != 1 || r.FixedCost != 12.5 || r.ElasticCost != 88 || r.TotalCost != 100.5 ||
		r.Split.TotalCost != 100.5 || r.OutputTokens != 244.8e6 || !servNear(r.CostPerMillionOutputTokens, 100.5/244.8, 1e-15) ||
		!servNear(r.CostPerMillionTokens, 100.5/1468.8, 1e-15) {
		t.Fatalf("fleet %+v", r)
	}
	direct, err := tco.CapacitySplit(r.Needed, 1, s.Topology, s.Workload, s.Pricing)
	if err != nil || direct != r.Split {
		t.Fatalf("split %+v against %+v (%v)", r.Split, direct, err)
	}
	acc, err := tco.Accelerators()
	if err != nil || acc[2].Name != "H100-SXM" || acc[2].MemoryBandwidthBps != 3.35e12 || acc[0].MemoryBandwidthBps != 0 {
		t.Fatalf("catalogue %+v (%v)", acc, err)
	}
}

func TestServeBadInput(t *testing.T) {
	s := handServing(t)
	defer s.Close()
	cases := []struct {
		edit  func(*tco.ServeRequest)
		is    error
		field string
	}{
		{func(q *tco.ServeRequest) { q.TimePerOutputToken = 0.01 }, tco.ErrInconsistent, "request.time_per_output_token"},
		{func(q *tco.ServeRequest) { q.TimeToFirstToken = 0.04 }, tco.ErrInconsistent, "request.time_to_first_token"},
		{func(q *tco.ServeRequest) { q.TimePerOutputToken = math.NaN() }, tco.ErrNotFinite, "request.time_per_output_token"},
		{func(q *tco.ServeRequest) { q.PromptTokens = -1 }, tco.ErrRange, "request.prompt_tokens"},
		{func(q *tco.ServeRequest) { q.OutputTokens = math.Inf(1) }, tco.ErrNotFinite, "request.output_tokens"},
		{func(q *tco.ServeRequest) { q.FLOPSShare = 0 }, tco.ErrRange, "request.flops_share"},
		{func(q *tco.ServeRequest) { q.MaxBatch = 1.5 }, tco.ErrRange, "request.max_batch"},
		{func(q *tco.ServeRequest) { q.MemoryBandwidthBps = 0 }, tco.ErrInconsistent, "request.memory_bandwidth_bytes_per_s"},
		{func(q *tco.ServeRequest) { q.TensorParallel = -3 }, tco.ErrRange, "request.tensor_parallel"},
		{func(q *tco.ServeRequest) { q.TensorParallel = math.MaxInt64 }, tco.ErrRange, "request.tensor_parallel"},
		{func(q *tco.ServeRequest) { q.RateUnit = 7 }, tco.ErrRange, "request.rate_unit"},
		{func(q *tco.ServeRequest) { q.IntervalSeconds = 0 }, tco.ErrRange, "request.interval_seconds"},
		{func(q *tco.ServeRequest) { q.Rate = []float64{1e300} }, tco.ErrRange, "request.rate"},
		{func(q *tco.ServeRequest) { q.Rate = nil }, tco.ErrRange, ""},
		{func(q *tco.ServeRequest) { q.Rate = []float64{1, -1} }, tco.ErrRange, ""},
		{func(q *tco.ServeRequest) { q.Rate = []float64{math.NaN()} }, tco.ErrNotFinite, ""},
	}
	for i, c := range cases {
		q := handRequest([]float64{1, 2})
		c.edit(&q)
		_, err := s.Serve(q)
		var e *tco.Error
		if !errors.Is(err, c.is) || !errors.As(err, &e) || e.ParamName != c.field || e.Message == "" {
			t.Errorf("case %d: %v (%+v)", i, err, e)
		}
	}
	q := handRequest([]float64{1})
	q.TimePerOutputToken = 0.01
	_, err := s.Serve(q)
	if err == nil || !strings.Contains(err.Error(), "0.0102918 s") {
		t.Fatalf("the least reachable is not said: %v", err)
	}
	var closed *tco.Scenario
	if _, err := closed.Serve(q); !errors.Is(err, tco.ErrClosed) {
		t.Fatalf("nil scenario: %v", err)
	}
}

func TestServeMonotone(t *testing.T) {
	s := handServing(t)
	defer s.Close()
	rate := make([]float64, 300)
	more := make([]float64, 300)
	for i := range rate {
		rate[i] = float64((i*7919)%500) + 0.5
		more[i] = rate[i]*1.2 + 1
	}
	fewer := false
	for _, target := range []float64{0.011, 0.02, 0.05} {
		q := handRequest(rate)
		q.TensorParallel, q.TimePerOutputToken = 0, target
		a, err := s.Serve(q)
		if err != nil {
			t.Fatal(err)
		}
		q.Rate = more
		b, err := s.Serve(q)
		if err != nil {
			t.Fatal(err)
		}
		q.Rate, q.TimePerOutputToken = rate, target*2
		c, err := s.Serve(q)
		if err != nil {
			t.Fatal(err)
		}
		for i := range rate {
			if b.Needed[i] < a.Needed[i] || c.Needed[i] > a.Needed[i] {
				t.Fatalf("target %v, point %d: %v, more %v, looser %v", target, i, a.Needed[i], b.Needed[i], c.Needed[i])
			}
			fewer = fewer || c.Needed[i] < a.Needed[i]
		}
	}
	if !fewer {
		t.Fatal("a looser target never changed the fleet: the test means nothing")
	}
}

// The opt-in refinements of tests/api/test_serving.c, by hand: ring
// all-reduces on a replica of 2 (655,360 B a token at 450 GB/s), 64
// experts with 2 a token, and one slot's queue (M/M/1, t = S: rho
// e^(rho - 1) = 1/2).
func TestServeOptInHandWorked(t *testing.T) {
	s := handServing(t)
	defer s.Close()
	q := handRequest([]float64{10})
	q.TensorParallel, q.TensorParallelAllreduce, q.TimePerOutputToken = 2, true, 0.03
	r, err := s.Serve(q)
	if err != nil || r.Batch != 161 || !servNear(r.AllreduceSeconds, 161*655360/450e9, 1e-14) {
		t.Fatalf("all-reduce %+v (%v)", r, err)
	}
	moe, err := tco.NewScenario(tco.SetText("accelerator_model", "custom"), tco.Set("accelerator_peak_flops", 1e15),
		tco.Set("accelerator_memory_bytes", 100e9), tco.Set("accelerator_tdp_watts", 700),
		tco.Set("params_total", 10e9), tco.Set("params_active", 0.7e9), tco.Set("layers", 40),
		tco.Set("hidden_size", 4096), tco.Set("heads", 32), tco.Set("kv_heads", 8),
		tco.Set("interruptible_share", 0), tco.Set("reserved_per_accel_hour", 2.5),
		tco.Set("on_demand_per_accel_hour", 4))
	if err != nil {
		t.Fatal(err)
	}
	defer moe.Close()
	q = handRequest([]float64{10})
	q.TimePerOutputToken, q.Experts, q.ExpertsPerToken = 0.02, 64, 2
	if r, err = moe.Serve(q); err != nil || r.Batch != 77 || !servNear(r.ExpertsRead, 58.44758308504198, 1e-13) {
		t.Fatalf("experts %+v (%v)", r, err)
	}
	S := 200 * 0.0102917504
	q = handRequest([]float64{1})
	q.MaxBatch, q.TimeToFirstToken, q.QueuePercentile = 1, 0.04032768+S, 0.5
	if r, err = s.Serve(q); err != nil || !servNear(r.Utilisation, 0.6850769421545939, 1e-12) || r.Needed[0] != 4 {
		t.Fatalf("queue %+v (%v)", r, err)
	}
	q.QueuePercentile = 1
	var e *tco.Error
	if _, err = s.Serve(q); !errors.As(err, &e) || e.ParamName != "request.queue_percentile" {
		t.Fatalf("percentile 1: %v", err)
	}
	q = handRequest([]float64{1})
	q.TensorParallel, q.TensorParallelAllreduce = 16, true
	if _, err = s.Serve(q); !errors.As(err, &e) || e.ParamName != "request.tensor_parallel_allreduce" {
		t.Fatalf("a replica past the node: %v", err)
	}
}
