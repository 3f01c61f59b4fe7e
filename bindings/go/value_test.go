package tco_test

import (
	"errors"
	"math"
	"testing"

	"libtco.dev/tco"
)

// The hand-worked values of tests/api/test_value.c: L(N, D) = E + A / N^alpha
// + B / D^beta (Hoffmann et al. 2022, eq. 2); at Chinchilla (70e9, 1.4e12)
// with approach 3's constants 1.69 + 0.083487 + 0.163158 = 1.936645 nats per
// token. With cost proportional to FLOPs the optimum is N = G (C / 6)^a
// (appendix D.2): at C = 5.76e23, 3.219e10 parameters and 2.982e12 tokens
// (Hoffmann), 7.225e10 and 1.329e12 (Besiroglu et al. 2024).

func TestLossHandWorked(t *testing.T) {
	h, err := tco.PublishedLaw(tco.FitHoffmann2022)
	if err != nil || h.E != 1.69 || h.A != 406.4 || h.Alpha != 0.34 || h.B != 410.7 || h.Beta != 0.28 {
		t.Fatal(h, err)
	}
	b, err := tco.PublishedLaw(tco.FitBesiroglu2024)
	if err != nil || b.E != 1.8172 || b.A != 482.01 || b.B != 2085.43 || b.Alpha != 0.3478 || b.Beta != 0.3658 {
		t.Fatal(b, err)
	}
	l, err := tco.LossAt(nil, 70e9, 1.4e12)
	if err != nil || !near(l.Loss, 1.9366454705587173, 1e-13) || !near(l.ParamsTerm, 0.083487290307722839, 1e-13) ||
		!near(l.DataTerm, 0.16315818025099449, 1e-13) {
		t.Fatal(l, err)
	}
	if l2, _ := tco.LossAt(&b, 70e9, 1.4e12); !near(l2.Loss, 1.9738818631585637, 1e-13) {
		t.Fatal(l2)
	}
	w, err := tco.NewWorkload(tco.Set("params_total", 100e9), tco.Set("params_active", 10e9), tco.Set("tokens", 1e12),
		tco.Set("epochs", 2))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if l, err = tco.PredictLoss(nil, w); err != nil || l.Params != 10e9 || l.Tokens != 2e12 ||
		!near(l.Loss, 1.9994417239902833, 1e-13) {
		t.Fatal(l, err)
	}
	if _, err = tco.PublishedLaw(tco.FitCustom); !errors.Is(err, tco.ErrRange) {
		t.Fatal(err)
	}
}

func TestLossBadConstants(t *testing.T) {
	h, _ := tco.PublishedLaw(tco.FitHoffmann2022)
	for _, c := range []struct {
		change func(*tco.ScalingLaw)
		code   error
		name   string
	}{
		{func(l *tco.ScalingLaw) { l.E = -0.1 }, tco.ErrRange, "law.e"},
		{func(l *tco.ScalingLaw) { l.A = -1 }, tco.ErrRange, "law.a"},
		{func(l *tco.ScalingLaw) { l.Alpha = 0 }, tco.ErrRange, "law.alpha"},
		{func(l *tco.ScalingLaw) { l.Beta = math.NaN() }, tco.ErrNotFinite, "law.beta"},
		{func(l *tco.ScalingLaw) { l.B = math.Inf(1) }, tco.ErrNotFinite, "law.b"},
	} {
		l := h
		c.change(&l)
		_, err := tco.LossAt(&l, 70e9, 1.4e12)
		var e *tco.Error
		if !errors.Is(err, c.code) || !errors.As(err, &e) || e.ParamName != c.name {
			t.Errorf("%s: %v", c.name, err)
		}
		s := scenario(t)
		if _, err = s.ComputeOptimal(&l, 1e6); !errors.As(err, &e) || e.ParamName != c.name {
			t.Errorf("ComputeOptimal %s: %v", c.name, err)
		}
	}
	var zero tco.ScalingLaw // no law: alpha 0 is refused, not priced
	if _, err := tco.LossAt(&zero, 70e9, 1.4e12); !errors.Is(err, tco.ErrRange) {
		t.Fatal(err)
	}
	if _, err := tco.LossAt(nil, 0, 1e12); !errors.Is(err, tco.ErrRange) {
		t.Fatal(err)
	}
}

func TestLossPerCostHandWorked(t *testing.T) {
	a := scenario(t, tco.Set("tokens", 1e12))
	b := scenario(t, tco.Set("tokens", 2e12))
	g, err := tco.LossPerCost(nil, a, b)
	if err != nil {
		t.Fatal(err)
	}
	reduction := 410.7 * (math.Pow(1e12, -0.28) - math.Pow(2e12, -0.28)) // 0.0316261
	ea, _ := tco.Compute(a.Topology, a.Workload, a.Pricing)
	eb, _ := tco.Compute(b.Topology, b.Workload, b.Pricing)
	if !near(g.LossReduction, reduction, 1e-12) || g.TotalA != ea.Total || g.TotalB != eb.Total ||
		!g.CostRatioDefined || !near(g.LossPerCost, reduction/(eb.Total-ea.Total), 1e-12) ||
		!near(g.LossPerExaFLOP, reduction/(6*70e9*1e12/1e18), 1e-12) {
		t.Fatal(g)
	}
	if same, _ := tco.LossPerCost(nil, a, a); same.CostRatioDefined || same.LossPerCost != 0 || same.FLOPsRatioDefined {
		t.Fatal(same)
	}
	if _, err = tco.LossPerCost(nil, a, nil); !errors.Is(err, tco.ErrClosed) {
		t.Fatal(err)
	}
}

func TestComputeOptimalChinchilla(t *testing.T) {
	// the total is the compute alone: FLOPs x rate / (peak x mfu x 3600)
	s := scenario(t, tco.Set("count_failures", 0), tco.Set("count_checkpoints", 0), tco.Set("data_stall_share", 0),
		tco.Set("layers", 0), tco.Set("database_instances", 0), tco.Set("database_gb", 0),
		tco.Set("log_bytes_per_accel_hour", 0), tco.Set("metrics_per_accelerator", 0),
		tco.Set("platform_per_node_month", 0), tco.Set("security_per_node_month", 0),
		tco.Set("security_fixed_per_month", 0), tco.Set("staff_per_fte_year", 0), tco.Set("min_fte", 0),
		tco.Set("storage_hot_per_gb_month", 0), tco.Set("storage_warm_per_gb_month", 0),
		tco.Set("storage_cold_per_gb_month", 0), tco.Set("storage_hot_per_gbps_month", 0))
	e, err := tco.Compute(s.Topology, s.Workload, s.Pricing)
	if err != nil {
		t.Fatal(err)
	}
	trainFLOPs, err := e.Field("train_flops")
	if err != nil {
		t.Fatal(err)
	}
	budget := 5.76e23 * e.Total / trainFLOPs
	for _, c := range []struct {
		fit  tco.Fit
		n, d float64
	}{
		{tco.FitHoffmann2022, 32189859151.368168, 2982305686662.804},
		{tco.FitBesiroglu2024, 72248702500.38242, 1328743585388.151},
	} {
		law, _ := tco.PublishedLaw(c.fit)
		o, err := s.ComputeOptimal(&law, budget)
		if err != nil {
			t.Fatal(err)
		}
		if !near(o.Params, c.n, 1e-4) || !near(o.Tokens, c.d, 1e-4) || o.Limit != tco.OptimumInterior ||
			o.Total > budget || o.Estimate.Total != o.Total || o.Evaluations <= 0 {
			t.Errorf("%v: %+v", c.fit, o)
		}
	}
}

func TestComputeOptimalBadInput(t *testing.T) {
	s := scenario(t)
	for _, budget := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		var e *tco.Error
		if _, err := s.ComputeOptimal(nil, budget); !errors.As(err, &e) || e.ParamName != "budget" {
			t.Errorf("budget %g: %v", budget, err)
		}
	}
	var e *tco.Error
	if _, err := s.ComputeOptimal(nil, 1e-9); !errors.Is(err, tco.ErrInconsistent) || !errors.As(err, &e) ||
		e.ParamName != "budget" {
		t.Fatal(err)
	}
	f := scenario(t, tco.Set("total_flops", 1e24))
	if _, err := f.ComputeOptimal(nil, 1e6); !errors.Is(err, tco.ErrInconsistent) || !errors.As(err, &e) ||
		e.ParamName != "total_flops" {
		t.Fatal(err)
	}
	// more budget never gives a higher loss
	last := math.Inf(1)
	for budget := 1e4; budget <= 1e9; budget *= 3 {
		o, err := s.ComputeOptimal(nil, budget)
		if err != nil || o.Loss > last+1e-13 {
			t.Fatal(budget, o, err)
		}
		last = o.Loss
	}
}
