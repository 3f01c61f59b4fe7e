package tco_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"libtco.dev/tco"
)

// The hand-worked programmes of tests/api/test_programme.c (doc/model.md,
// section 21), the figures that are the estimate's read through the API.

const programmeMonth = 8766.0 / 12 // the library's month, in hours

func programmeWork(t *testing.T, job, flops, runs float64) *tco.Workload {
	t.Helper()
	w, err := tco.NewWorkload(tco.Set("job_accelerators", job), tco.Set("params_total", 1e9),
		tco.Set("params_active", 1e9), tco.Set("tensor_parallel", 4), tco.Set("pipeline_parallel", 1),
		tco.Set("total_flops", flops), tco.Set("runs", runs), tco.Set("checkpoint_bytes", 1e12))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func programmeCluster(t *testing.T) (*tco.Topology, *tco.Pricing) {
	t.Helper()
	top, err := tco.NewTopology(tco.Set("accelerators", 16), tco.Set("accelerators_per_node", 8))
	if err != nil {
		t.Fatal(err)
	}
	p, err := tco.NewPricing(tco.Set("storage_hot_per_gb_month", 0.02))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { top.Close(); p.Close() })
	return top, p
}

func TestProgrammeSequential(t *testing.T) {
	top, p := programmeCluster(t)
	wa, wb := programmeWork(t, 16, 1e21, 1), programmeWork(t, 8, 2e20, 1)
	a, _ := tco.Compute(top, wa, p)
	b, _ := tco.Compute(top, wb, p)
	g, err := tco.ComputeProgramme([]tco.Stage{
		{Kind: tco.StagePretraining, After: tco.StageStart, Name: "pretrain", Workload: wa, VersionsKept: 3},
		{Kind: tco.StageSupervisedFineTuning, After: 0, Name: "sft", Workload: wb, VersionsKept: 1},
	}, top, p)
	if err != nil {
		t.Fatal(err)
	}
	// alone on the cluster, each stage pays its estimate exactly
	if g.Stages[0].Total != a.Total || g.Stages[1].Total != b.Total || g.Stages[1].StartHours != a.HeldHours {
		t.Fatalf("%+v", g.Stages)
	}
	// 3 versions of 1,000 GB kept hot for the fine-tune's hours at 0.02 a GB-month
	life := 3000 * b.HeldHours / programmeMonth * 0.02
	if !near(g.StorageLifecycle, life, 1e-14) || g.Total != g.StagesTotal+g.StorageLifecycle ||
		!near(g.StoreGB, 4000, 1e-15) || !near(g.CostPerExperiment, g.Total/2, 1e-15) {
		t.Fatalf("%+v, want lifecycle %g", g, life)
	}
	want := (16*a.HeldHours + 8*b.HeldHours) / (16 * (a.HeldHours + b.HeldHours))
	if !near(g.Utilisation, want, 1e-14) || g.Stages[0].Kind.String() != "pretraining" {
		t.Fatalf("utilisation %g, want %g", g.Utilisation, want)
	}
	sum := 0.0
	for _, v := range g.Shares {
		sum += v
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Fatal(g.Shares)
	}
}

func TestProgrammeSweepWaves(t *testing.T) {
	top, p := programmeCluster(t)
	w := programmeWork(t, 4, 1e20, 5)
	e, _ := tco.Compute(top, w, p)
	g, err := tco.ComputeProgramme([]tco.Stage{{Kind: tco.StageSweep, After: tco.StageStart, Workload: w}}, top, p)
	if err != nil {
		t.Fatal(err)
	}
	// 16 / 4 = 4 runs side by side in 2 waves: 2/5 of the estimate's hours
	r := g.Stages[0]
	if r.ConcurrentRuns != 4 || r.Waves != 2 || r.Accelerators != 16 || !near(r.Total, 0.4*e.Total, 1e-14) {
		t.Fatalf("%+v", r)
	}
}

func TestProgrammeErrors(t *testing.T) {
	top, p := programmeCluster(t)
	big, full := programmeWork(t, 32, 1e21, 1), programmeWork(t, 16, 1e21, 1)
	_, err := tco.ComputeProgramme([]tco.Stage{{Kind: tco.StagePretraining, After: tco.StageStart, Workload: full},
		{Kind: tco.StageEvaluation, After: 0, Name: "big", Workload: big}}, top, p)
	var e *tco.Error
	if !errors.As(err, &e) || e.Code != tco.StatusInconsistent || !strings.Contains(e.Message, `"big"`) {
		t.Fatalf("a stage larger than the cluster: %v", err)
	}
	_, err = tco.ComputeProgramme([]tco.Stage{{Kind: tco.StagePretraining, After: tco.StageStart, Name: "one", Workload: full},
		{Kind: tco.StageEvaluation, After: tco.StageStart, Name: "two", Workload: full}}, top, p)
	if !errors.As(err, &e) || e.Code != tco.StatusInconsistent || !strings.Contains(e.Message, "hold 32") {
		t.Fatalf("stages beyond capacity: %v", err)
	}
	_, err = tco.ComputeProgramme([]tco.Stage{{Kind: tco.StagePretraining, After: 1, Workload: full}}, top, p)
	if !errors.As(err, &e) || e.ParamName != "stages[0].after" {
		t.Fatalf("after pointing forward: %v", err)
	}
	if _, err = tco.ComputeProgramme(nil, top, p); !errors.As(err, &e) || e.Code != tco.StatusRange {
		t.Fatalf("no stages: %v", err)
	}
	if _, err = tco.ComputeProgramme([]tco.Stage{{Kind: tco.StagePretraining, After: tco.StageStart}}, top, p); err == nil {
		t.Fatal("a stage without a workload priced")
	}
}

// The data pipeline and serving as stages: the case of
// tests/api/test_programme.c, test_pipeline_and_serving (doc/model.md,
// section 21). 2 PB raw at 10 node-h/TB on 50 nodes, 2 a node-hour; half
// kept, 0.8 compressed; NAT 0.045 a GB; 0.0004 per 1,000 reads of 16 MiB.
// Serving: one request a second for a month, priced as Serve prices it.
func TestProgrammePipelineAndServing(t *testing.T) {
	top, _ := programmeCluster(t)
	p, err := tco.NewPricing(tco.Set("storage_hot_per_gb_month", 0.02), tco.Set("on_demand_per_accel_hour", 4),
		tco.Set("reserved_per_accel_hour", 2.5))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	train := programmeWork(t, 16, 1e21, 1)
	model, err := tco.NewWorkload(tco.Set("job_accelerators", 16), tco.Set("params_total", 1e9),
		tco.Set("params_active", 1e9), tco.Set("tensor_parallel", 4), tco.Set("pipeline_parallel", 1),
		tco.Set("total_flops", 1e21), tco.Set("checkpoint_bytes", 1e12), tco.Set("layers", 24),
		tco.Set("interruptible_share", 0))
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	pipe := tco.DefaultPipelineRequest()
	pipe.RawBytes, pipe.PreprocessCPUNodeHoursPerTB, pipe.CPUNodeHourPrice = 2e15, 10, 2
	pipe.DedupKeptShare, pipe.CompressionRatio, pipe.NATPerGB, pipe.RequestPricePer1000 = 0.5, 0.8, 0.045, 0.0004
	serve := tco.DefaultServeRequest()
	serve.Rate, serve.IntervalSeconds = []float64{1}, programmeMonth*3600
	served, err := tco.Serve(top, model, p, serve)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tco.Compute(top, train, p)
	stages := []tco.Stage{
		{Kind: tco.StageDataPipeline, After: tco.StageStart, Name: "web data", Workload: train, Pipeline: &pipe,
			CPUNodes: 50},
		{Kind: tco.StagePretraining, After: 0, Name: "pretrain", Workload: train, VersionsKept: 3},
		{Kind: tco.StageServing, After: 1, Name: "serve", Workload: model, Serving: &serve},
	}
	g, err := tco.ComputeProgramme(stages, top, p)
	if err != nil {
		t.Fatal(err)
	}
	web, pre, sv := g.Stages[0], g.Stages[1], g.Stages[2]
	tokens, err := a.Field("tokens")
	if err != nil {
		t.Fatal(err)
	}
	reads := tokens * 4 * 0.8 / (1 << 24) / 1000 * 0.0004 // the tokens read, 4 B each, compressed
	if !near(web.EndHours, 400, 1e-15) || !near(web.CPUNodeHours, 20000, 1e-15) ||
		!near(web.Costs["compute"], 40000, 1e-15) || !near(web.Costs["network"], 90000, 1e-15) ||
		!near(web.Costs["storage"], reads, 1e-14) || !near(web.StoreGB, 800000, 1e-15) || web.Accelerators != 0 {
		t.Fatalf("pipeline %+v", web)
	}
	if pre.StartHours != web.EndHours || pre.Total != a.Total || sv.StartHours != pre.EndHours {
		t.Fatalf("time line %+v %+v", pre, sv)
	}
	if sv.Total != served.TotalCost || sv.CostPerMillionTokens != served.CostPerMillionTokens ||
		sv.Tokens != served.PromptTokens+served.OutputTokens || sv.FleetPeakAccelerators != served.PeakAccelerators {
		t.Fatalf("serving %+v, want %+v", sv, served)
	}
	life := (800000*(a.HeldHours+programmeMonth) + 3000*programmeMonth) / programmeMonth * 0.02
	if !near(g.StorageLifecycle, life, 1e-12) || !near(g.ClusterHours, a.HeldHours, 1e-12) ||
		g.ServingTotal != served.TotalCost || g.PipelineTotal != web.Total ||
		!near(g.CostPerExperiment, g.Total-served.TotalCost, 1e-15) || g.Total != g.StagesTotal+g.StorageLifecycle {
		t.Fatalf("%+v, want lifecycle %g", g, life)
	}
	// A bad field of a request is named within its stage.
	serve.TimePerOutputToken = 1e-6
	var e *tco.Error
	if _, err = tco.ComputeProgramme(stages, top, p); !errors.As(err, &e) ||
		e.ParamName != "stages[2].serving.time_per_output_token" {
		t.Fatalf("a serving target out of reach: %v", err)
	}
	serve.TimePerOutputToken = 0.1
	stages[0].Pipeline = nil
	if _, err = tco.ComputeProgramme(stages, top, p); !errors.As(err, &e) || e.ParamName != "stages[0].pipeline" {
		t.Fatalf("a pipeline stage without its request: %v", err)
	}
	if tco.StageServing.String() != "serving" || tco.StageDataPipeline.String() != "data_pipeline" {
		t.Fatal(tco.StageServing.String())
	}
}

// tests/api/test_programme.c, test_also_after: C (16) after B and A
// starts when the longer A has ended.
func TestProgrammeAlsoAfter(t *testing.T) {
	top, p := programmeCluster(t)
	wa, wb, wc := programmeWork(t, 8, 1e21, 1), programmeWork(t, 8, 2e20, 1), programmeWork(t, 16, 2e20, 1)
	a, _ := tco.Compute(top, wa, p)
	stages := []tco.Stage{{Kind: tco.StagePretraining, After: tco.StageStart, Name: "a", Workload: wa},
		{Kind: tco.StageSweep, After: tco.StageStart, Name: "b", Workload: wb},
		{Kind: tco.StageSupervisedFineTuning, After: 1, Name: "c", Workload: wc}}
	var e *tco.Error
	if _, err := tco.ComputeProgramme(stages, top, p); !errors.As(err, &e) || e.Code != tco.StatusInconsistent {
		t.Fatalf("c after b alone overlaps a: %v", err)
	}
	stages[2].AlsoAfter = []int{0}
	g, err := tco.ComputeProgramme(stages, top, p)
	if err != nil || g.Stages[2].StartHours != a.HeldHours {
		t.Fatalf("%v %+v", err, g)
	}
	stages[2].AlsoAfter = []int{2}
	if _, err = tco.ComputeProgramme(stages, top, p); !errors.As(err, &e) || e.ParamName != "stages[2].also_after[0]" {
		t.Fatalf("a stage waiting for itself: %v", err)
	}
}

// tests/api/test_programme.c, test_tiers: 3,000 GB kept HB hours, warm
// after d days and cold after 2 d, at 0.02, 0.01 and 0.004 a GB-month.
func TestProgrammeTiers(t *testing.T) {
	top, _ := programmeCluster(t)
	p, err := tco.NewPricing(tco.Set("storage_hot_per_gb_month", 0.02), tco.Set("storage_warm_per_gb_month", 0.01),
		tco.Set("storage_cold_per_gb_month", 0.004))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	wa, wb := programmeWork(t, 16, 1e21, 1), programmeWork(t, 8, 2e21, 1)
	b, _ := tco.Compute(top, wb, p)
	d := math.Floor(b.HeldHours / 96)
	g, err := tco.ComputeProgramme([]tco.Stage{
		{Kind: tco.StagePretraining, After: tco.StageStart, Workload: wa, VersionsKept: 3, WarmAfterDays: d,
			ColdAfterDays: 2 * d},
		{Kind: tco.StageSupervisedFineTuning, After: 0, Workload: wb}}, top, p)
	want := 3000 * (24*d*0.02 + 24*d*0.01 + (b.HeldHours-48*d)*0.004) / programmeMonth
	if err != nil || !near(g.StorageLifecycle, want, 1e-12) {
		t.Fatalf("%v: lifecycle %g, want %g", err, g.StorageLifecycle, want)
	}
}
