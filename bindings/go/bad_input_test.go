package tco_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"libtco.dev/tco"
)

// TestBadInputCatalogue gives every parameter of the library's table every
// class of bad value, with the expectations of the C suite
// (tests/api/test_params.c) and the Python one (test_bad_input.py): NaN and
// infinities are not finite, the nearest values past each bound and
// fractions of whole numbers are out of range, a text is no number, a
// number no text (a choice takes its name or its value), a bool no number,
// a NUL or a control character no text.
func TestBadInputCatalogue(t *testing.T) {
	build := func(p tco.Param, o tco.Option) error {
		var err error
		switch p.Handle {
		case tco.KindTopology:
			var h *tco.Topology
			if h, err = tco.NewTopology(o); err == nil {
				h.Close()
			}
		case tco.KindWorkload:
			var h *tco.Workload
			if h, err = tco.NewWorkload(o); err == nil {
				h.Close()
			}
		default:
			var h *tco.Pricing
			if h, err = tco.NewPricing(o); err == nil {
				h.Close()
			}
		}
		return err
	}
	refused := func(p tco.Param, o tco.Option, code tco.Status) {
		t.Helper()
		err := build(p, o)
		var e *tco.Error
		if !errors.As(err, &e) || e.Code != code || (e.ParamName != p.Name && !strings.Contains(e.Message, p.Name)) {
			t.Errorf("%s: %v gives %v, want %v naming it", p.Name, o, err, code)
		}
	}
	checked := 0
	for _, p := range tco.Params() {
		switch p.Type {
		case tco.TypeText, tco.TypeChoice:
			refused(p, tco.SetText(p.Name, "a\x00b"), tco.StatusRange)
			refused(p, tco.SetText(p.Name, "tab\there"), tco.StatusRange)
			if p.Type == tco.TypeChoice {
				refused(p, tco.SetText(p.Name, "not-a-choice"), tco.StatusRange)
			} else {
				refused(p, tco.Set(p.Name, 1), tco.StatusType)
				refused(p, tco.SetText(p.Name, strings.Repeat("x", 64)), tco.StatusRange)
			}
		default:
			for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				refused(p, tco.Set(p.Name, v), tco.StatusNotFinite)
			}
			refused(p, tco.Set(p.Name, math.Nextafter(p.Min, math.Inf(-1))), tco.StatusRange)
			refused(p, tco.Set(p.Name, math.Nextafter(p.Max, math.Inf(1))), tco.StatusRange)
			if p.Type != tco.TypeReal {
				refused(p, tco.Set(p.Name, p.Min+0.5), tco.StatusRange)
			}
			refused(p, tco.SetText(p.Name, "1"), tco.StatusType)
			if p.Type != tco.TypeBool {
				refused(p, tco.SetBool(p.Name, true), tco.StatusType)
			}
		}
		checked++
	}
	if checked < 150 {
		t.Fatalf("only %d parameters checked", checked)
	}
}
