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
