package tco_test

import (
	"reflect"
	"testing"

	"libtco.dev/tco"
)

// ComputeScalars gives Compute's typed fields bit for bit and no maps;
// FillMaps then builds the very maps Compute does, and an estimate the
// same call rejects is left as it was.
func TestComputeScalars(t *testing.T) {
	s := scenario(t)
	want, err := tco.Compute(s.Topology, s.Workload, s.Pricing)
	if err != nil {
		t.Fatal(err)
	}
	var e tco.Estimate
	if err := tco.ComputeInto(&e, s.Topology, s.Workload, s.Pricing); err != nil {
		t.Fatal(err)
	}
	if err := tco.ComputeScalars(&e, s.Topology, s.Workload, s.Pricing); err != nil {
		t.Fatal(err)
	}
	if e.Costs != nil || e.Fixed != nil || e.Waste != nil || e.Fields != nil {
		t.Fatal("ComputeScalars left maps of an earlier estimate")
	}
	for _, f := range [][2]float64{{e.Total, want.Total}, {e.WallHours, want.WallHours},
		{e.ComputeHours, want.ComputeHours}, {e.HeldHours, want.HeldHours},
		{e.AcceleratorHours, want.AcceleratorHours}, {e.Goodput, want.Goodput},
		{e.CostPerMillionTokens, want.CostPerMillionTokens}, {e.CostPerRun, want.CostPerRun}} {
		if !same(f[0], f[1]) {
			t.Fatalf("typed field %v, Compute gives %v", f[0], f[1])
		}
	}
	if e.Flags != want.Flags || e.ScenarioFingerprint != want.ScenarioFingerprint || e.Total == 0 {
		t.Fatalf("flags %x fingerprint %x total %v; Compute gives %x %x", e.Flags, e.ScenarioFingerprint,
			e.Total, want.Flags, want.ScenarioFingerprint)
	}
	e.FillMaps()
	if !reflect.DeepEqual(e.Costs, want.Costs) || !reflect.DeepEqual(e.Fixed, want.Fixed) ||
		!reflect.DeepEqual(e.Waste, want.Waste) || !reflect.DeepEqual(e.Fields, want.Fields) {
		t.Fatal("FillMaps differs from Compute")
	}
	if err := tco.ComputeScalars(&e, nil, s.Workload, s.Pricing); err == nil {
		t.Fatal("priced without a topology")
	}
	if !same(e.Total, want.Total) || e.Costs == nil {
		t.Fatal("a rejected ComputeScalars changed the estimate")
	}
}
