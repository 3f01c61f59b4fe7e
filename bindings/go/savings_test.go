package tco_test

import (
	"errors"
	"math"
	"testing"

	"libtco.dev/tco"
)

// The hand-worked tradeoffs of tests/api/test_savings.c (doc/model.md,
// section 22), figures read from the two estimates through the API.

// perWastedHour is the price of a wasted accelerator-hour: the waste
// category over the hours billed but not effective.
func perWastedHour(e *tco.Estimate) float64 {
	return e.Costs["waste"] / (e.AcceleratorHours - e.Fields["effective_accelerator_hours"])
}

func TestSavingMetricsIntervalHandWorked(t *testing.T) {
	s, err := tco.NewScenario()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before, _ := s.Estimate()
	before.FillMaps()
	cut, err := tco.NewScenario(tco.Set("metrics_interval_seconds", 60))
	if err != nil {
		t.Fatal(err)
	}
	defer cut.Close()
	after, _ := cut.Estimate()
	after.FillMaps()
	o, err := s.WeighSaving(tco.DefaultSaving(tco.SavingMetricsInterval, 60))
	if err != nil {
		t.Fatal(err)
	}
	// detection later by half the added interval, once per failure, the
	// job's accelerators waiting: failures x runs x (60 - 15) / 2 s
	runs, err := s.Workload.Get("runs")
	if err != nil {
		t.Fatal(err)
	}
	hours := before.Fields["expected_failures"] * runs * (60 - 15) / 2 / 3600
	job := before.Fields["job_accelerators"]
	if o.Kind != tco.SavingMetricsInterval || o.CurrentValue != 15 || o.NewValue != 60 ||
		o.TotalBefore != before.Total || o.TotalAfter != after.Total {
		t.Fatalf("%+v", o)
	}
	if !near(o.Saving, before.Total-after.Total, 1e-12) || !near(o.SideEffect, hours, 1e-12) ||
		!near(o.SideEffectAcceleratorHours, hours*job, 1e-12) ||
		!near(o.SideEffectCost, hours*job*perWastedHour(before), 1e-12) ||
		!near(o.Net, o.Saving-o.SideEffectCost, 1e-12) {
		t.Fatalf("%+v, want %g h", o, hours)
	}
	if o.Verdict != tco.VerdictWorthIt || o.Flagged || o.InEstimate || o.Verdict.String() != "worth_it" {
		t.Fatalf("%+v", o)
	}
	if what, unit := o.Kind.SideEffect(); what == "" || unit != "h" || o.Kind.String() != "metrics_interval" {
		t.Fatal(what, unit, o.Kind)
	}
}

func TestSavingFewerReplicasFlagged(t *testing.T) {
	s, err := tco.NewScenario(tco.Set("database_instances", 3))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before, _ := s.Estimate()
	before.FillMaps()
	q := tco.DefaultSaving(tco.SavingFewerReplicas, 2)
	q.ReplicaAvailability = 0.9
	o, err := s.WeighSaving(q)
	if err != nil {
		t.Fatal(err)
	}
	// availability 1 - 0.1^k: 0.999 with three, 0.99 with two
	lost := 0.01 - 0.001
	wait, err := s.Workload.Get("queue_wait_hours")
	if err != nil {
		t.Fatal(err)
	}
	ah := lost * (before.HeldHours - wait) * before.Fields["job_accelerators"]
	if !near(o.SideEffect, lost, 1e-12) || !near(o.SideEffectCost, ah*perWastedHour(before), 1e-9) || !o.Flagged ||
		o.Verdict != tco.VerdictFlagged {
		t.Fatalf("%+v, want %g accelerator-h", o, ah)
	}
	// replicas that never fail cost nothing in return
	q.ReplicaAvailability = 1
	if o, err = s.WeighSaving(q); err != nil || o.SideEffectCost != 0 || o.Verdict != tco.VerdictWorthIt {
		t.Fatalf("%+v %v", o, err)
	}
}

func TestTradeoffsTable(t *testing.T) {
	s, err := tco.NewScenario(tco.Set("spot_per_accel_hour", 2))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.Tradeoffs(nil)
	if err != nil || len(rows) < 4 {
		t.Fatal(rows, err)
	}
	for i, r := range rows {
		if i > 0 && r.Kind <= rows[i-1].Kind {
			t.Fatal("not in kind order", rows)
		}
		if r.Err != nil {
			continue
		}
		one, err := s.WeighSaving(tco.DefaultSaving(r.Kind, r.NewValue))
		if err != nil || one != r {
			t.Fatalf("%v: the table's row %+v, alone %+v (%v)", r.Kind, r, one, err)
		}
		if math.IsNaN(r.Net) || r.Flagged != (r.Verdict == tco.VerdictFlagged) {
			t.Fatalf("%+v", r)
		}
	}
}

func TestSavingBadInput(t *testing.T) {
	s, err := tco.NewScenario()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	bad := []struct {
		q    tco.Saving
		name string
	}{
		{tco.DefaultSaving(tco.SavingMetricsInterval, 10), "saving.value"}, // not a cut
		{tco.DefaultSaving(tco.SavingMetricsInterval, math.NaN()), "saving.value"},
		{tco.DefaultSaving(tco.SavingLogRetention, math.Inf(1)), "saving.value"},
		{tco.DefaultSaving(99, 1), "saving.kind"},
		{func() tco.Saving { q := tco.DefaultSaving(tco.SavingLogRetention, 7); q.LogNeededShare = 2; return q }(),
			"saving.log_needed_share"},
	}
	for _, c := range bad {
		_, err := s.WeighSaving(c.q)
		var e *tco.Error
		if !errors.As(err, &e) || e.ParamName != c.name || e.Message == "" {
			t.Errorf("%+v: %v, want an error naming %s", c.q, err, c.name)
		}
	}
	var closed *tco.Scenario
	if _, err := closed.WeighSaving(tco.DefaultSaving(tco.SavingMetricsInterval, 60)); err == nil {
		t.Fatal("a nil scenario weighed")
	}
}

// A smaller baseline and a tighter idle reclaim, as tests/api/test_savings.c
// works them: demand 2, 6, 3, 8, 1 over five hours, reserved 2.5, on demand
// 4; from 6 reserved to 2 the split's 83 falls to 69, and 7 more
// accelerators are acquired above the baseline, 0.25 h each.
func TestSavingSmallerBaselineAndIdleReclaim(t *testing.T) {
	s, err := tco.NewScenario(tco.Set("interruptible_share", 0), tco.Set("reserved_per_accel_hour", 2.5),
		tco.Set("on_demand_per_accel_hour", 4))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q := tco.DefaultSaving(tco.SavingSmallerBaseline, 2)
	q.Demand, q.Baseline, q.WaitCostPerAcceleratorHour = []float64{2, 6, 3, 8, 1}, 6, 10
	o, err := s.WeighSaving(q)
	if err != nil || !near(o.TotalBefore, 83, 1e-15) || !near(o.TotalAfter, 69, 1e-15) || !near(o.Saving, 14, 1e-14) ||
		!near(o.SideEffect, 1.75, 1e-15) || !near(o.SideEffectCost, 17.5, 1e-15) || !o.Flagged {
		t.Fatalf("%+v (%v)", o, err)
	}
	// the timeout from 1 h to 0.5 h, gaps of 1 h: e^-0.5 - e^-1 more releases
	before, _ := s.Estimate()
	before.FillMaps()
	q = tco.DefaultSaving(tco.SavingIdleReclaim, 0.5)
	q.IdleTimeoutHours, q.IdlePeriods = 1, 10
	job, more := before.Fields["job_accelerators"], math.Exp(-0.5)-math.Exp(-1)
	if o, err = s.WeighSaving(q); err != nil || !near(o.SideEffect, 10*job*more*0.25, 1e-12) ||
		!near(o.SideEffectCost/o.Saving, 0.25, 1e-12) || o.Verdict != tco.VerdictWorthIt {
		t.Fatalf("%+v (%v)", o, err)
	}
	// both join the table when the side inputs give them something to cut
	side := tco.DefaultSaving(0, 0)
	side.Demand, side.Baseline, side.IdleTimeoutHours = []float64{2, 6, 3, 8, 1}, 6, 2
	rows, err := s.Tradeoffs(&side)
	if err != nil || len(rows) < 2 {
		t.Fatal(rows, err)
	}
	last := rows[len(rows)-2:]
	if last[0].Kind != tco.SavingSmallerBaseline || last[0].NewValue != 2 || last[1].Kind != tco.SavingIdleReclaim ||
		last[1].NewValue != 1 || last[0].Kind.String() != "smaller_baseline" {
		t.Fatalf("%+v", last)
	}
	q = tco.DefaultSaving(tco.SavingSmallerBaseline, 2)
	q.Baseline = 6
	var e *tco.Error
	if _, err = s.WeighSaving(q); !errors.As(err, &e) || e.ParamName != "saving.demand" {
		t.Fatalf("no series: %v", err)
	}
}
