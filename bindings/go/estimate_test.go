package tco_test

import (
	"errors"
	"reflect"
	"testing"

	"libtco.dev/tco"
)

// Compute and ComputeScalars give ComputeInto's typed fields bit for bit
// and no maps; FillMaps then builds the very maps ComputeInto does, and an
// estimate the same call rejects is left as it was.
func TestComputeScalars(t *testing.T) {
	s := scenario(t)
	var want tco.Estimate
	if err := tco.ComputeInto(&want, s.Topology, s.Workload, s.Pricing); err != nil {
		t.Fatal(err)
	}
	cheap, err := tco.Compute(s.Topology, s.Workload, s.Pricing)
	if err != nil {
		t.Fatal(err)
	}
	if cheap.Costs != nil || cheap.Fixed != nil || cheap.Waste != nil || cheap.Fields != nil {
		t.Fatal("Compute built the maps")
	}
	e := want
	if err := tco.ComputeScalars(&e, s.Topology, s.Workload, s.Pricing); err != nil {
		t.Fatal(err)
	}
	if e.Costs != nil || e.Fixed != nil || e.Waste != nil || e.Fields != nil {
		t.Fatal("ComputeScalars left maps of an earlier estimate")
	}
	for _, got := range []*tco.Estimate{&e, cheap} {
		for _, f := range [][2]float64{{got.Total, want.Total}, {got.WallHours, want.WallHours},
			{got.ComputeHours, want.ComputeHours}, {got.HeldHours, want.HeldHours},
			{got.AcceleratorHours, want.AcceleratorHours}, {got.Goodput, want.Goodput},
			{got.CostPerMillionTokens, want.CostPerMillionTokens}, {got.CostPerRun, want.CostPerRun}} {
			if !same(f[0], f[1]) {
				t.Fatalf("typed field %v, ComputeInto gives %v", f[0], f[1])
			}
		}
		if got.Flags != want.Flags || got.ScenarioFingerprint != want.ScenarioFingerprint || got.Total == 0 {
			t.Fatalf("flags %x fingerprint %x total %v; ComputeInto gives %x %x", got.Flags, got.ScenarioFingerprint,
				got.Total, want.Flags, want.ScenarioFingerprint)
		}
		got.FillMaps()
		if !reflect.DeepEqual(got.Costs, want.Costs) || !reflect.DeepEqual(got.Fixed, want.Fixed) ||
			!reflect.DeepEqual(got.Waste, want.Waste) || !reflect.DeepEqual(got.Fields, want.Fields) {
			t.Fatal("FillMaps differs from ComputeInto")
		}
	}
	if err := tco.ComputeScalars(&e, nil, s.Workload, s.Pricing); err == nil {
		t.Fatal("priced without a topology")
	}
	if !same(e.Total, want.Total) || e.Costs == nil {
		t.Fatal("a rejected ComputeScalars changed the estimate")
	}
	// Rejected by C (too few accelerator-hours for the peak, as in
	// TestRunAcceleratorHoursGiveBackTheMFU): an estimate never computed
	// stays so, a computed one keeps its figures.
	hours, _ := e.Field("job_accelerators")
	short := scenario(t, tco.Set("run_accelerator_hours", 0.3*hours*want.WallHours))
	var never tco.Estimate
	for _, into := range []*tco.Estimate{&never, &e} {
		if err := tco.ComputeScalars(into, short.Topology, short.Workload, short.Pricing); !errors.Is(err, tco.ErrInconsistent) {
			t.Fatalf("too few hours: %v", err)
		}
	}
	if _, err := never.Cost("compute"); !errors.Is(err, tco.ErrSize) || !same(e.Total, want.Total) {
		t.Fatalf("a rejected ComputeScalars changed the estimate: %v, total %v", err, e.Total)
	}
}

// ComputeScalars into the caller's Estimate allocates nothing; nor does
// ComputeInto once the Estimate's maps exist (Compute allocates the
// *Estimate it returns).
func TestComputeAllocations(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("coverage and the race detector allocate")
	}
	s := scenario(t)
	var e tco.Estimate
	if err := tco.ComputeInto(&e, s.Topology, s.Workload, s.Pricing); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(1000, func() {
		tco.ComputeInto(&e, s.Topology, s.Workload, s.Pricing)
	}); n != 0 {
		t.Errorf("%v allocations per ComputeInto into a warm Estimate", n)
	}
	if n := testing.AllocsPerRun(1000, func() {
		tco.ComputeScalars(&e, s.Topology, s.Workload, s.Pricing)
	}); n != 0 || e.Total == 0 {
		t.Errorf("%v allocations per ComputeScalars (total %v)", n, e.Total)
	}
}

// Cost and Field read every category and scalar field of an estimate
// without its maps, bit for bit what the maps hold; a name the library does
// not list, and an estimate never computed, are errors, not zeros.
func TestEstimateCostAndField(t *testing.T) {
	s := scenario(t)
	var want tco.Estimate
	if err := tco.ComputeInto(&want, s.Topology, s.Workload, s.Pricing); err != nil {
		t.Fatal(err)
	}
	e, err := tco.Compute(s.Topology, s.Workload, s.Pricing)
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range want.Costs {
		if got, err := e.Cost(name); err != nil || !same(got, v) {
			t.Errorf("Cost(%q) = %v, %v; the map holds %v", name, got, err, v)
		}
	}
	for name, v := range want.Fields {
		if got, err := e.Field(name); err != nil || !same(got, v) {
			t.Errorf("Field(%q) = %v, %v; the map holds %v", name, got, err, v)
		}
	}
	if want.Costs["compute"] == 0 || len(want.Fields) < 40 {
		t.Fatalf("nothing to compare: compute %v, %d fields", want.Costs["compute"], len(want.Fields))
	}
	for _, bad := range []func() (float64, error){
		func() (float64, error) { return e.Cost("computer") },
		func() (float64, error) { return e.Field("wall_hour") },
		func() (float64, error) { return e.Field("flags") }, // an integer field: Uint64Fields
	} {
		if v, err := bad(); !errors.Is(err, tco.ErrUnknownParam) || v != 0 {
			t.Errorf("an unknown name: %v, %v", v, err)
		}
	}
	var never tco.Estimate
	if _, err := never.Cost("compute"); !errors.Is(err, tco.ErrSize) {
		t.Errorf("an estimate never computed: %v", err)
	}
	if _, err := (*tco.Estimate)(nil).Field("total"); !errors.Is(err, tco.ErrNull) {
		t.Errorf("a nil estimate: %v", err)
	}
}
