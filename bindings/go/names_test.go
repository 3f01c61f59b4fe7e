package tco_test

import (
	"bytes"
	"strings"
	"testing"

	"libtco.dev/tco"
	"libtco.dev/tco/internal/cref"
)

// TestNamesAreTheLibrarys checks that the names of the handle kinds and of
// the parameter types, and the scenario format, are the library's
// (tco_handle_kind_name, tco_param_type_name, tco_scenario_format_name), and
// that they read as they always have.
func TestNamesAreTheLibrarys(t *testing.T) {
	kinds := []tco.HandleKind{tco.KindTopology, tco.KindWorkload, tco.KindPricing}
	for i, want := range []string{"topology", "workload", "pricing"} {
		k := kinds[i]
		if got, c := k.String(), cref.HandleKindName(int32(k)); got != c || got != want {
			t.Errorf("HandleKind(%d).String() = %q, the library's name %q, want %q", k, got, c, want)
		}
	}
	types := []tco.ParamType{tco.TypeReal, tco.TypeInt, tco.TypeBool, tco.TypeChoice, tco.TypeText}
	for i, want := range []string{"REAL", "INT", "BOOL", "CHOICE", "TEXT"} {
		ty := types[i]
		if got, c := ty.String(), cref.ParamTypeName(int32(ty)); got != strings.ToUpper(c) || got != want {
			t.Errorf("ParamType(%d).String() = %q, the library's name %q, want %q", ty, got, c, want)
		}
	}
	for _, v := range []int32{0, 4, -1} {
		if got := tco.HandleKind(v).String(); got != "unknown handle" || cref.HandleKindName(v) != "" {
			t.Errorf("HandleKind(%d).String() = %q", v, got)
		}
	}
	for _, v := range []int32{0, 6, -1} {
		if got := tco.ParamType(v).String(); got != "UNKNOWN" || cref.ParamTypeName(v) != "" {
			t.Errorf("ParamType(%d).String() = %q", v, got)
		}
	}
	for _, p := range tco.Params() {
		if p.Handle.String() != cref.HandleKindName(int32(p.Handle)) ||
			p.Type.String() != strings.ToUpper(cref.ParamTypeName(int32(p.Type))) {
			t.Errorf("%s: handle %v, type %v", p.Name, p.Handle, p.Type)
		}
	}

	// A closed or nil handle's error names its kind as the library does.
	s := scenario(t)
	s.Close()
	var nilT *tco.Topology
	var nilW *tco.Workload
	var nilP *tco.Pricing
	for _, c := range []struct {
		kind tco.HandleKind
		call func() error
	}{
		{tco.KindTopology, func() error { _, err := s.Topology.Get("accelerators"); return err }},
		{tco.KindTopology, func() error { _, err := s.Topology.MarshalCBOR(); return err }},
		{tco.KindTopology, func() error { _, err := nilT.Fingerprint(); return err }},
		{tco.KindWorkload, func() error { _, err := s.Workload.GetText("precision"); return err }},
		{tco.KindWorkload, func() error { _, err := s.Workload.Fingerprint(); return err }},
		{tco.KindWorkload, func() error { _, err := nilW.Values(); return err }},
		{tco.KindPricing, func() error { _, err := s.Pricing.MarshalCBOR(); return err }},
		{tco.KindPricing, func() error { _, err := nilP.GetText("currency"); return err }},
		{tco.KindTopology, func() error { _, err := tco.Compute(s.Topology, nil, nil); return err }},
	} {
		want := "tco: the " + cref.HandleKindName(int32(c.kind)) + " is closed or nil"
		if err := c.call(); err == nil || err.Error() != want {
			t.Errorf("%v: %v, want %q", c.kind, err, want)
		}
	}

	// The format name is the one in the library's scenario files.
	name := cref.ScenarioFormatName()
	if name != "libtco-scenario" {
		t.Errorf("tco_scenario_format_name() = %q", name)
	}
	b, err := scenario(t).MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(name)) {
		t.Errorf("the scenario's CBOR does not hold %q", name)
	}
}
