package tco_test

import (
	"errors"
	"strings"
	"testing"

	"libtco.dev/tco"
)

// A rate left at -1 is the accelerator's list price (AWS us-east-1,
// instance price over 8 GPUs: p5.48xlarge 55.04 on demand, 31.464 as a
// Capacity Block; p6-b200.48xlarge 113.9328), charged as the same rate
// typed in, and refused naming the rate where the accelerator has none.
func TestListPrices(t *testing.T) {
	s, err := tco.NewScenario()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for name, want := range map[string]float64{"on_demand_per_accel_hour": 55.04 / 8,
		"reserved_per_accel_hour": 31.464 / 8, "capex_per_accelerator": 27500} {
		if got, err := tco.Rate(name, s.Topology, s.Pricing); err != nil || got != want {
			t.Errorf("%s: %v, %v; want %v", name, got, err, want)
		}
	}
	var e *tco.Error
	if _, err := tco.Rate("spot_per_accel_hour", s.Topology, s.Pricing); !errors.As(err, &e) ||
		e.Code != tco.StatusInconsistent || e.ParamName != "spot_per_accel_hour" || !strings.Contains(e.Message, "H100-SXM has none") {
		t.Errorf("spot: %v", err)
	}
	if _, err := tco.Rate("pue", s.Topology, s.Pricing); !errors.Is(err, tco.ErrRange) {
		t.Errorf("pue: %v", err)
	}
	b200, err := s.Topology.With(tco.SetText("accelerator_model", "B200"))
	if err != nil {
		t.Fatal(err)
	}
	defer b200.Close()
	if got, err := tco.Rate("on_demand_per_accel_hour", b200, s.Pricing); err != nil || got != 113.9328/8 {
		t.Errorf("B200: %v, %v", got, err)
	}
	typed := scenario(t, tco.Set("on_demand_per_accel_hour", 55.04/8))
	a, err1 := tco.Total(s.Topology, s.Workload, s.Pricing)
	b, err2 := tco.Total(typed.Topology, typed.Workload, s.Pricing)
	if err1 != nil || err2 != nil || a != b {
		t.Errorf("list %v (%v) against typed %v (%v)", a, err1, b, err2)
	}
	if _, err := tco.Total(typed.Topology, s.Workload, s.Pricing); err != nil {
		t.Error(err)
	}
	spot, err := s.Topology.With(tco.Set("spot_share", 0.25))
	if err != nil {
		t.Fatal(err)
	}
	defer spot.Close()
	if _, err := tco.Total(spot, s.Workload, s.Pricing); !errors.As(err, &e) || e.ParamName != "spot_per_accel_hour" {
		t.Errorf("spot share without a spot price: %v", err)
	}

	list, err := tco.Accelerators()
	if err != nil || len(list) < 6 || list[0].Name != "custom" || list[0].OnDemandPerHour != 0 {
		t.Fatalf("%+v, %v", list, err)
	}
	for _, a := range list[1:] {
		if a.OnDemandPerHour <= 0 || a.ReservedPerHour > a.OnDemandPerHour || len(a.PriceSource) < 10 {
			t.Errorf("%+v", a)
		}
	}
}
