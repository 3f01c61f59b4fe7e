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

// TestSeriesCatalogue gives every function that reads a series the same
// classes of bad input as the C and Python suites (test_capacity.c,
// test_bad_input.py): NaN and infinite values are not finite; negative
// values, an empty series, sums that would overflow and intervals outside
// 1e-6 to 1e6 are out of range.
func TestSeriesCatalogue(t *testing.T) {
	s, err := tco.NewScenario(tco.Set("budget_amount", 1000))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	type call func(d []float64, dt float64) error
	calls := []struct {
		name     string
		f        call
		sums, dt bool // its results are sums; it takes an interval
	}{
		{"ComputeDemandStats", func(d []float64, dt float64) error { _, e := tco.ComputeDemandStats(d, dt); return e }, true, true},
		{"DemandPercentiles", func(d []float64, dt float64) error { _, e := tco.DemandPercentiles(d, []float64{50}); return e }, false, false},
		{"DemandTimeAbove", func(d []float64, dt float64) error { _, e := tco.DemandTimeAbove(d, []float64{1}, dt); return e }, false, true},
		{"CapacityForUnmet", func(d []float64, dt float64) error { _, e := tco.CapacityForUnmet(d, 0.1, dt); return e }, true, true},
		{"CapacitySplit", func(d []float64, dt float64) error {
			_, e := tco.CapacitySplit(d, dt, s.Topology, s.Workload, s.Pricing)
			return e
		}, true, true},
		{"ComputeBudget", func(d []float64, dt float64) error { _, e := tco.ComputeBudget(d, dt, nil, s.Pricing); return e }, true, true},
	}
	code := func(err error) tco.Status {
		var e *tco.Error
		if errors.As(err, &e) {
			return e.Code
		}
		return 0
	}
	for _, c := range calls {
		if err := c.f([]float64{1, 2, 3}, 1); err != nil {
			t.Errorf("%s on a good series: %v", c.name, err)
		}
		for _, bad := range []struct {
			d    []float64
			want tco.Status
		}{
			{[]float64{math.NaN()}, tco.StatusNotFinite}, {[]float64{math.Inf(1)}, tco.StatusNotFinite},
			{[]float64{-1}, tco.StatusRange}, {[]float64{}, tco.StatusRange},
		} {
			if got := code(c.f(bad.d, 1)); got != bad.want {
				t.Errorf("%s(%v): %v, want %v", c.name, bad.d, got, bad.want)
			}
		}
		if c.sums {
			if got := code(c.f([]float64{1e308, 1e308, 1e308, 1e308}, 1)); got != tco.StatusRange {
				t.Errorf("%s on values whose sum overflows: %v", c.name, got)
			}
		}
		if c.dt {
			for _, dt := range []float64{0, -1, 1e-7, 1e7} {
				if got := code(c.f([]float64{1, 2}, dt)); got != tco.StatusRange {
					t.Errorf("%s with interval %g: %v", c.name, dt, got)
				}
			}
			if got := code(c.f([]float64{1, 2}, math.NaN())); got != tco.StatusNotFinite {
				t.Errorf("%s with a NaN interval: %v", c.name, got)
			}
		}
	}
}
