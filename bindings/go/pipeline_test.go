package tco_test

import (
	"errors"
	"math"
	"testing"

	"libtco.dev/tco"
)

// The hand-worked pipeline of tests/api/test_pipeline.c (doc/model.md,
// section 23), the estimate's figures read through the API.

func workedPipeline() tco.PipelineRequest {
	q := tco.DefaultPipelineRequest()
	q.PreprocessCPUNodeHoursPerTB, q.CPUNodeHourPrice = 2, 0.5
	q.DedupKeptShare, q.CompressionRatio, q.CacheHitRate = 0.6, 0.5, 0.25
	q.RequestPricePer1000, q.InternetIngressPerGB, q.NATPerGB, q.StorageMonths = 0.0004, 0.01, 0.045, 3
	return q
}

func TestPipelineHandWorked(t *testing.T) {
	s, err := tco.NewScenario()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e, err := s.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	e.FillMaps()
	d := tco.DefaultPipelineRequest()
	if d.DedupKeptShare != 1 || d.CompressionRatio != 1 || d.PrefetchDepth != 2 || d.ObjectBytes != 16777216 {
		t.Fatalf("%+v", d)
	}
	o, err := s.DataPipeline(workedPipeline())
	if err != nil {
		t.Fatal(err)
	}
	// raw 8e12 B; prepared 2.4e12; 16 node-h x 0.5; 7,200 GB-months x 0.145;
	// every token read compressed, 4e12 B, 3e12 of it from storage / 16 MiB
	// requests; 8,000 GB x 0.01 and x 0.045
	requests := 3e12 / 16777216
	steps := e.Fields["tokens"] / 4194304
	if !near(o.RawBytes, 8e12, 1e-15) || !near(o.PreparedBytes, 2.4e12, 1e-15) ||
		!near(o.PreprocessCost, 8, 1e-15) || !near(o.StorageCost, 1044, 1e-14) ||
		!near(o.ReadRequests, requests, 1e-15) || !near(o.RequestCost, requests/1000*0.0004, 1e-14) ||
		!near(o.IngressCost, 80, 1e-14) || !near(o.NATCost, 360, 1e-14) ||
		!near(o.Total, 8+1044+requests/1000*0.0004+80+360, 1e-14) ||
		!near(o.ComputeSeconds, e.Fields["compute_hours"]*3600/steps, 1e-14) ||
		!near(o.FetchSeconds, 8388608*0.75/100e9, 1e-14) || o.StallShare != 0 ||
		o.DataStallShareFloor != 0.02 {
		t.Fatalf("%+v", o)
	}
	q := workedPipeline()
	q.PrefetchDepth = 0
	o, err = s.DataPipeline(q)
	if err != nil || !near(o.StallShare, o.FetchSeconds/(o.ComputeSeconds+o.FetchSeconds), 1e-14) {
		t.Fatalf("%+v %v", o, err)
	}
}

func TestPipelineBadInput(t *testing.T) {
	s, err := tco.NewScenario()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	bad := []struct {
		set  func(*tco.PipelineRequest)
		name string
	}{
		{func(q *tco.PipelineRequest) { q.DedupKeptShare = 1.2 }, "pipeline.dedup_kept_share"},
		{func(q *tco.PipelineRequest) { q.CompressionRatio = 0 }, "pipeline.compression_ratio"},
		{func(q *tco.PipelineRequest) { q.CacheHitRate = math.NaN() }, "pipeline.cache_hit_rate"},
		{func(q *tco.PipelineRequest) { q.PrefetchDepth = 0.5 }, "pipeline.prefetch_depth"},
		{func(q *tco.PipelineRequest) { q.NATPerGB = math.Inf(1) }, "pipeline.nat_per_gb"},
	}
	for _, c := range bad {
		q := tco.DefaultPipelineRequest()
		c.set(&q)
		_, err := s.DataPipeline(q)
		var e *tco.Error
		if !errors.As(err, &e) || e.ParamName != c.name || e.Message == "" {
			t.Errorf("%+v: %v, want an error naming %s", q, err, c.name)
		}
	}
	var closed *tco.Scenario
	if _, err := closed.DataPipeline(tco.DefaultPipelineRequest()); err == nil {
		t.Fatal("a nil scenario priced")
	}
}
