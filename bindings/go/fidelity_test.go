package tco_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"libtco.dev/tco"
	"libtco.dev/tco/internal/cref"
)

// The inputs of libtco 1.1 through Go: the run as published runs report it
// (recomputation, utilisation or accelerator-hours as the input, the
// model's shape), the flags that say what the estimate assumed, and the
// library's errors for a shape that cannot be. Expectations are re-derived
// from the formulas of doc/model.md (tests/api/test_fidelity.c does the
// same in C).

func near(a, b, rel float64) bool { return math.Abs(a-b) <= rel*math.Abs(b) }

func estimate(t *testing.T, opts ...tco.Option) *tco.Estimate {
	t.Helper()
	e, err := scenario(t, opts...).Estimate()
	if err != nil {
		t.Fatal(err)
	}
	e.FillMaps()
	return e
}

// hasFlag reports whether e's flags hold the one the library calls name.
func hasFlag(t *testing.T, e *tco.Estimate, name string) bool {
	t.Helper()
	for _, f := range tco.EstimateFlags() {
		if f.Name == name {
			return e.Flags&f.Bit != 0
		}
	}
	t.Fatalf("the library names no flag %q", name)
	return false
}

// Without layers (the default) there is no attention term: per token 6 N
// model FLOPs and, recomputing every layer (one more forward pass), 8 N
// hardware FLOPs (Narayanan et al. 2021, eq. 3). mfu 0.4 on model FLOPs
// sets the time, so the hardware runs at 0.4 x 8/6.
func TestFullRecomputeWithoutShape(t *testing.T) {
	if p, err := tco.ParamByName("layers"); err != nil || p.Default != 0 {
		t.Fatalf("layers defaults to %v (%v), not 0", p.Default, err)
	}
	e := estimate(t, tco.SetText("recompute", "full"))
	n := 70e9 // params_total's default
	if !near(e.Fields["model_flops_per_token"], 6*n, 1e-15) || !near(e.Fields["hardware_flops_per_token"], 8*n, 1e-15) {
		t.Errorf("model %g, hardware %g FLOPs per token; want 6 N = %g, 8 N = %g",
			e.Fields["model_flops_per_token"], e.Fields["hardware_flops_per_token"], 6*n, 8*n)
	}
	if e.Fields["attention_term_layers"] != 0 || e.Fields["attention_term_width"] != 0 {
		t.Errorf("an attention term without layers: %g x %g", e.Fields["attention_term_layers"],
			e.Fields["attention_term_width"])
	}
	if !near(e.Fields["achieved_mfu"], 0.4, 1e-14) || !near(e.Fields["achieved_hfu"], 0.4*8/6, 1e-14) {
		t.Errorf("achieved mfu %g, hfu %g", e.Fields["achieved_mfu"], e.Fields["achieved_hfu"])
	}
	if !hasFlag(t, e, "attention_omitted") || !hasFlag(t, e, "time_from_mfu") {
		t.Errorf("assumptions %v", e.Assumptions())
	}
}

// A run priced from mfu 0.4 takes job_accelerators x wall_hours; priced
// from those accelerator-hours instead (mfu set but not used), it gives
// back mfu 0.4 and the same times, and the flag says the hours won.
func TestRunAcceleratorHoursGiveBackTheMFU(t *testing.T) {
	fromMFU := estimate(t)
	hours := fromMFU.Fields["job_accelerators"] * fromMFU.WallHours
	fromHours := estimate(t, tco.Set("run_accelerator_hours", hours), tco.Set("mfu", 0.9))
	if !near(fromHours.Fields["achieved_mfu"], 0.4, 1e-12) {
		t.Errorf("achieved_mfu %.17g, want 0.4", fromHours.Fields["achieved_mfu"])
	}
	if !near(fromHours.WallHours, fromMFU.WallHours, 1e-12) || !near(fromHours.ComputeHours, fromMFU.ComputeHours, 1e-12) {
		t.Errorf("wall %g, compute %g h; from mfu %g, %g", fromHours.WallHours, fromHours.ComputeHours,
			fromMFU.WallHours, fromMFU.ComputeHours)
	}
	if !hasFlag(t, fromHours, "time_from_run_accelerator_hours") || hasFlag(t, fromHours, "time_from_mfu") {
		t.Errorf("from the hours: assumptions %v", fromHours.Assumptions())
	}
	if !hasFlag(t, fromMFU, "time_from_mfu") || hasFlag(t, fromMFU, "time_from_run_accelerator_hours") {
		t.Errorf("from mfu: assumptions %v", fromMFU.Assumptions())
	}

	// Too few hours for the peak (mfu 0.4 / 0.3 = 1.3 needed): an error naming them.
	_, err := scenario(t, tco.Set("run_accelerator_hours", 0.3*hours)).Estimate()
	var e *tco.Error
	if !errors.Is(err, tco.ErrInconsistent) || !errors.As(err, &e) || e.ParamName != "run_accelerator_hours" {
		t.Errorf("0.3 x the hours: %v", err)
	}
}

// kv_heads must divide heads: each key/value head serves a whole group of
// query heads. The workload is refused when built, naming kv_heads.
func TestKVHeadsMustDivideHeads(t *testing.T) {
	_, err := tco.NewWorkload(tco.Set("heads", 64), tco.Set("kv_heads", 12))
	var e *tco.Error
	if !errors.Is(err, tco.ErrInconsistent) || !errors.As(err, &e) {
		t.Fatalf("heads 64, kv_heads 12: %v", err)
	}
	if e.ParamName != "kv_heads" || !strings.Contains(e.Message, "kv_heads") || !strings.Contains(e.Message, "heads = 64") {
		t.Errorf("ParamName %q, message %q", e.ParamName, e.Message)
	}
	if p, _ := tco.ParamByName("kv_heads"); e.Param != p.Key {
		t.Errorf("Param %d, kv_heads is %d", e.Param, p.Key)
	}
	// A scenario routes the options to the workload: the same error.
	if _, err := tco.NewScenario(tco.Set("heads", 64), tco.Set("kv_heads", 12)); !errors.As(err, &e) ||
		e.ParamName != "kv_heads" {
		t.Errorf("scenario: %v", err)
	}
	w, err := tco.NewWorkload(tco.Set("heads", 64), tco.Set("kv_heads", 8)) // 8 groups of 8
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
}

// The flags are read into Flags, named by the library, in bit order.
func TestFlagsAreTheLibrarys(t *testing.T) {
	flags := tco.EstimateFlags()
	if len(flags) < 15 {
		t.Fatalf("%d flags", len(flags))
	}
	for i, f := range flags {
		if f.Bit == 0 || f.Bit&(f.Bit-1) != 0 || (i > 0 && f.Bit <= flags[i-1].Bit) {
			t.Errorf("flag %d: bit %#x", i, f.Bit)
		}
		if f.Name == "" || f.Name != cref.EstimateFlagName(f.Bit) || f.Description != cref.EstimateFlagDescription(f.Bit) {
			t.Errorf("bit %#x: %q (%q), the library's %q (%q)", f.Bit, f.Name, f.Description,
				cref.EstimateFlagName(f.Bit), cref.EstimateFlagDescription(f.Bit))
		}
	}
	for i := 0; i < 64; i++ { // every bit the library names is listed
		bit := uint64(1) << i
		listed := slices.ContainsFunc(flags, func(f tco.Flag) bool { return f.Bit == bit })
		if listed != (cref.EstimateFlagName(bit) != "") {
			t.Errorf("bit %d: listed %v, the library's name %q", i, listed, cref.EstimateFlagName(bit))
		}
	}
	flags[0].Name = "changed" // the caller's copy is its own
	if tco.EstimateFlags()[0].Name == "changed" {
		t.Error("EstimateFlags shares its slice")
	}

	e := estimate(t)
	if e.Flags == 0 || e.Flags != e.Uint64Fields()["flags"] {
		t.Fatalf("Flags %#x, the flags field %#x", e.Flags, e.Uint64Fields()["flags"])
	}
	var want []string
	for i := 0; i < 64; i++ {
		if e.Flags>>i&1 != 0 {
			want = append(want, cref.EstimateFlagName(uint64(1)<<i))
		}
	}
	if got := e.Assumptions(); !slices.Equal(got, want) || !slices.Contains(got, "attention_omitted") {
		t.Errorf("Assumptions() = %v, want %v", got, want)
	}
	// With the shape given, the attention term counts; its width, not
	// given, follows from N = 12 L d^2.
	shaped := estimate(t, tco.Set("layers", 80))
	if hasFlag(t, shaped, "attention_omitted") || !hasFlag(t, shaped, "hidden_derived") {
		t.Errorf("layers 80: assumptions %v", shaped.Assumptions())
	}
	if (&tco.Estimate{}).Assumptions() != nil {
		t.Error("no flags, yet assumptions")
	}

	// A sweep's estimates carry their flags; ComputeInto refills them.
	s := scenario(t)
	r, err := s.Sweep("count_failures", []float64{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	off := estimate(t, tco.SetBool("count_failures", false))
	for i, want := range []uint64{e.Flags, off.Flags} {
		got, err := r.Estimate(i)
		if err != nil || got.Flags != want {
			t.Errorf("sweep %d: flags %#x, want %#x (%v)", i, got.Flags, want, err)
		}
	}
	if !hasFlag(t, off, "failures_off") || off.Fields["expected_failures"] != 0 || off.Fields["lost_work_hours"] != 0 {
		t.Errorf("count_failures 0: %v, %g failures", off.Assumptions(), off.Fields["expected_failures"])
	}
	into := tco.Estimate{Flags: off.Flags}
	if err := tco.ComputeInto(&into, s.Topology, s.Workload, s.Pricing); err != nil || into.Flags != e.Flags {
		t.Errorf("ComputeInto: flags %#x, want %#x (%v)", into.Flags, e.Flags, err)
	}
}

// With the shape given, tensor parallelism (8 in a node) exchanges
// activations over the intra-node link: a slower one exposes more of the
// exchange and lowers the MFU the layout allows, which is flagged, not
// enforced (mfu still sets the time).
func TestIntraNodeLinkBoundsTheLayout(t *testing.T) {
	shape := []tco.Option{tco.Set("layers", 80), tco.Set("hidden_size", 8192)}
	fast := estimate(t, shape...)
	slow := estimate(t, append(shape, tco.Set("intra_node_gbps", 50))...)
	if !(slow.Fields["comm_exposed_share"] > fast.Fields["comm_exposed_share"] && fast.Fields["comm_exposed_share"] > 0) {
		t.Errorf("exposed %g at 50 GB/s, %g at the default", slow.Fields["comm_exposed_share"],
			fast.Fields["comm_exposed_share"])
	}
	if !(slow.Fields["mfu_ceiling"] < fast.Fields["mfu_ceiling"]) {
		t.Errorf("ceiling %g at 50 GB/s, %g at the default", slow.Fields["mfu_ceiling"], fast.Fields["mfu_ceiling"])
	}
	if !hasFlag(t, slow, "mfu_above_ceiling") || hasFlag(t, fast, "mfu_above_ceiling") {
		t.Errorf("assumptions %v at 50 GB/s, %v at the default", slow.Assumptions(), fast.Assumptions())
	}
	if !same(slow.Total, fast.Total) {
		t.Errorf("total %v at 50 GB/s, %v at the default", slow.Total, fast.Total)
	}
}
