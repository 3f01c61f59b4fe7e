package tco_test

import (
	"errors"
	"math"
	"testing"

	"libtco.dev/tco"
)

// smallRun is a run that fits on 8 accelerators: its goodput makes a used
// hour effective.
var smallRun = []tco.Option{tco.Set("accelerators", 8), tco.Set("params_total", 7e9), tco.Set("params_active", 7e9),
	tco.Set("job_accelerators", 8), tco.Set("tensor_parallel", 8), tco.Set("pipeline_parallel", 1)}

func TestLifetime(t *testing.T) {
	s, err := tco.NewScenario(append(append(smallRun, rates10...), tco.Set("reserved_share", 1))...)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req := tco.DefaultLifetimeRequest()
	if req.Years != 5 || req.Utilisation != 0.7 || req.DiscountRate != 0.08 {
		t.Fatalf("defaults %+v", req)
	}
	req.Years, req.Utilisation = 3, 0.5
	life, err := s.Lifetime(req)
	if err != nil {
		t.Fatal(err)
	}
	// The reserved term is paid in full: 8 x 8,766 h x 2.50 = 175,320 a
	// year, fixed; half of it unused.
	if len(life.Years) != 3 {
		t.Fatalf("%d years", len(life.Years))
	}
	total := 0.0
	for _, y := range life.Years {
		total += y.Total
		if math.Abs(y.Fixed["compute"]-175320) > 1e-6 || math.Abs(y.UnusedCommitment-87660) > 1e-6 {
			t.Errorf("year %d: fixed compute %v, unused %v", y.Year, y.Fixed["compute"], y.UnusedCommitment)
		}
	}
	if math.Abs(total-life.Total) > 1e-6*total || life.NPV <= 0 || life.CostPerEffectiveAcceleratorHour <= 0 {
		t.Errorf("life %+v", life)
	}

	req.RefreshYear = 3 // at the end: refused
	var e *tco.Error
	if _, err := s.Lifetime(req); !errors.As(err, &e) || e.ParamName != "request.refresh_year" {
		t.Errorf("refresh at the end: %v", err)
	}
	req.RefreshYear, req.UtilisationByYear = 0, []float64{0.5, 1.2, 0.5}
	if _, err := s.Lifetime(req); !errors.As(err, &e) || e.ParamName != "request.utilisation_by_year[1]" {
		t.Errorf("a share of 1.2: %v", err)
	}
	req.UtilisationByYear, req.DiscountRate = nil, -1
	if _, err := s.Lifetime(req); !errors.As(err, &e) || e.Code != tco.StatusRange {
		t.Errorf("a discount rate of -100%%: %v", err)
	}
}
