package tco_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"libtco.dev/tco"
)

func TestVersion(t *testing.T) {
	if err := tco.CheckVersion(); err != nil {
		t.Fatal(err)
	}
	v := tco.VersionNumber()
	if v/10000 != tco.HeaderMajor {
		t.Fatalf("loaded libtco %d, want major %d", v, tco.HeaderMajor)
	}
	if !strings.HasPrefix(tco.Version(), "1.") || !strings.HasPrefix(tco.HeaderVersion(), "1.") {
		t.Fatalf("versions %q (loaded) and %q (header)", tco.Version(), tco.HeaderVersion())
	}
}

func TestParams(t *testing.T) {
	ps := tco.Params()
	if len(ps) < 100 {
		t.Fatalf("only %d parameters", len(ps))
	}
	seen := map[string]bool{}
	kinds := map[tco.HandleKind]int{}
	for _, p := range ps {
		if p.Name == "" || seen[p.Name] {
			t.Fatalf("parameter %+v: empty or repeated name", p)
		}
		seen[p.Name] = true
		kinds[p.Handle]++
		if int(p.Key)/1000 != int(p.Handle) {
			t.Errorf("%s: key %d is not in its handle's thousand (%v)", p.Name, p.Key, p.Handle)
		}
		if p.Type == tco.TypeChoice && len(p.Choices) == 0 {
			t.Errorf("%s: a CHOICE without choices", p.Name)
		}
		standIn := p.Default < p.Min && p.DefaultText == "the accelerator's list price"
		if p.Type != tco.TypeText && p.Type != tco.TypeChoice && !standIn && !(p.Min <= p.Default && p.Default <= p.Max) {
			t.Errorf("%s: default %g outside [%g, %g]", p.Name, p.Default, p.Min, p.Max)
		}
	}
	for _, k := range []tco.HandleKind{tco.KindTopology, tco.KindWorkload, tco.KindPricing} {
		if kinds[k] == 0 {
			t.Errorf("no %v parameters", k)
		}
	}
	p, err := tco.ParamByName("accelerator_model")
	if err != nil {
		t.Fatal(err)
	}
	if p.Handle != tco.KindTopology || p.Type != tco.TypeChoice || p.DefaultText != "H100-SXM" {
		t.Errorf("accelerator_model: %+v", p)
	}
	names := []string{}
	for _, c := range p.Choices {
		names = append(names, c.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "B200") {
		t.Errorf("accelerator_model choices %v lack B200", names)
	}
	// The caller's copy is its own.
	p.Choices[0].Name = "changed"
	if q, _ := tco.ParamByName("accelerator_model"); q.Choices[0].Name == "changed" {
		t.Error("ParamByName shares its choices with the cache")
	}
	if _, err := tco.ParamByName("no_such"); !errors.Is(err, tco.ErrUnknownParam) {
		t.Errorf("unknown name: %v", err)
	}
}

func TestHandles(t *testing.T) {
	top, err := tco.NewTopology(tco.Set("accelerators", 2048), tco.SetText("accelerator_model", "B200"),
		tco.SetText("cooling", "liquid"))
	if err != nil {
		t.Fatal(err)
	}
	defer top.Close()
	if v, err := top.Get("accelerators"); err != nil || v != 2048 {
		t.Errorf("accelerators = %v, %v", v, err)
	}
	if s, err := top.GetText("accelerator_model"); err != nil || s != "B200" {
		t.Errorf("accelerator_model = %q, %v", s, err)
	}
	if s, err := top.GetText("cooling"); err != nil || s != "liquid" {
		t.Errorf("cooling = %q, %v", s, err)
	}

	// With: a copy with changes; the original is unchanged.
	big, err := top.With(tco.SetInt("accelerators", 4096))
	if err != nil {
		t.Fatal(err)
	}
	defer big.Close()
	if v, _ := big.Get("accelerators"); v != 4096 {
		t.Errorf("copy: accelerators = %v", v)
	}
	if v, _ := top.Get("accelerators"); v != 2048 {
		t.Errorf("original: accelerators = %v", v)
	}
	if s, _ := big.GetText("accelerator_model"); s != "B200" {
		t.Errorf("copy lost accelerator_model: %q", s)
	}

	pr, err := tco.NewPricing(tco.SetText("currency", "EUR"), tco.SetBool("budget_amount", false))
	if err == nil {
		pr.Close()
		t.Fatal("budget_amount = 0 accepted")
	}
	pr, err = tco.NewPricing(tco.SetText("currency", "EUR"))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	if s, _ := pr.GetText("currency"); s != "EUR" {
		t.Errorf("currency = %q", s)
	}
	vals, err := pr.Values()
	if err != nil || vals["currency"] != "EUR" || vals["electricity_per_kwh"] == nil {
		t.Errorf("Values: %v, %v", vals, err)
	}

	wl, err := tco.NewWorkload(tco.SetBool("checkpoint_async", true), tco.SetText("precision", "fp8"))
	if err != nil {
		t.Fatal(err)
	}
	defer wl.Close()
	if v, _ := wl.Get("checkpoint_async"); v != 1 {
		t.Errorf("checkpoint_async = %v", v)
	}
	if s, _ := wl.GetText("precision"); s != "fp8" {
		t.Errorf("precision = %q", s)
	}
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		name  string
		make  func() error
		want  error
		param string
	}{
		{"out of range", func() error { _, err := tco.NewTopology(tco.Set("accelerators", 0)); return err },
			tco.ErrRange, "accelerators"},
		{"not whole", func() error { _, err := tco.NewTopology(tco.Set("accelerators", 1000.5)); return err },
			tco.ErrRange, "accelerators"},
		{"NaN", func() error { _, err := tco.NewWorkload(tco.Set("mfu", math.NaN())); return err },
			tco.ErrNotFinite, "mfu"},
		{"infinite", func() error { _, err := tco.NewWorkload(tco.Set("tokens", math.Inf(1))); return err },
			tco.ErrNotFinite, "tokens"},
		{"wrong handle", func() error { _, err := tco.NewTopology(tco.Set("mfu", 0.5)); return err },
			tco.ErrWrongHandle, "mfu"},
		{"unknown", func() error { _, err := tco.NewTopology(tco.Set("acceleratorz", 1)); return err },
			tco.ErrUnknownParam, "acceleratorz"},
		{"no such choice", func() error { _, err := tco.NewTopology(tco.SetText("cooling", "water")); return err },
			tco.ErrRange, "cooling"},
		{"text for a number", func() error { _, err := tco.NewTopology(tco.SetText("pue", "1.2")); return err },
			tco.ErrType, "pue"},
		{"number for a text", func() error { _, err := tco.NewPricing(tco.Set("currency", 1)); return err },
			tco.ErrType, "currency"},
		{"NUL in a text", func() error { _, err := tco.NewPricing(tco.SetText("currency", "EU\x00R")); return err },
			tco.ErrRange, "currency"},
		{"text too long", func() error {
			_, err := tco.NewPricing(tco.SetText("price_source", strings.Repeat("x", 200)))
			return err
		}, tco.ErrRange, "price_source"},
		{"inconsistent handle", func() error {
			_, err := tco.NewTopology(tco.Set("reserved_share", 0.7), tco.Set("spot_share", 0.7))
			return err
		}, tco.ErrInconsistent, ""},
		{"inconsistent scenario", func() error {
			s, err := tco.NewScenario(tco.Set("accelerators", 512), tco.Set("tensor_parallel", 3),
				tco.Set("pipeline_parallel", 1))
			if err != nil {
				return err
			}
			defer s.Close()
			_, err = s.Estimate()
			return err
		}, tco.ErrInconsistent, "tensor_parallel"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.make()
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			var e *tco.Error
			if !errors.As(err, &e) {
				t.Fatalf("%v is not a *tco.Error", err)
			}
			if c.param != "" && e.ParamName != c.param {
				t.Errorf("ParamName = %q, want %q (%v)", e.ParamName, c.param, err)
			}
			if e.Message == "" || !strings.HasPrefix(err.Error(), "tco: ") {
				t.Errorf("message %q", err.Error())
			}
			if errors.Is(err, tco.ErrClosed) {
				t.Errorf("%v matches ErrClosed", err)
			}
		})
	}
	// The parameter's key comes with its name.
	_, err := tco.NewTopology(tco.Set("pue", 9))
	var e *tco.Error
	if !errors.As(err, &e) || e.Param != 1015 || e.Code != tco.StatusRange || e.Code.String() != "TCO_E_RANGE" {
		t.Errorf("pue = 9: %#v", e)
	}
}

func TestClosed(t *testing.T) {
	s := scenario(t)
	top, wl, pr := s.Topology, s.Workload, s.Pricing
	if err := top.Close(); err != nil {
		t.Fatal(err)
	}
	if err := top.Close(); err != nil { // twice is fine
		t.Fatal(err)
	}
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, tco.ErrClosed) || !errors.Is(err, tco.ErrNull) {
			t.Errorf("%s on a closed handle: %v", what, err)
		}
	}
	_, err := top.Get("accelerators")
	check("Get", err)
	_, err = top.GetText("cooling")
	check("GetText", err)
	_, err = top.With()
	check("With", err)
	_, err = top.MarshalCBOR()
	check("MarshalCBOR", err)
	_, err = top.Fingerprint()
	check("Fingerprint", err)
	_, err = tco.Compute(top, wl, pr)
	check("Compute", err)
	_, err = tco.Sweep(top, wl, pr, "mfu", []float64{0.3})
	check("Sweep", err)
	_, err = tco.CapacitySplit([]float64{1}, 1, top, wl, pr)
	check("CapacitySplit", err)
	_, err = tco.ComputeBandwidth(top, wl, pr)
	check("Bandwidth", err)
	_, err = s.MarshalCBOR()
	check("Scenario.MarshalCBOR", err)
	ps := pools(t, []tco.Pool{{Class: tco.OnDemand, AcceleratorsPerNode: 8, FreeAccelerators: 64, RatePerAccelHour: 2}})
	_, err = ps.Price(top, pr, &tco.Job{Accelerators: 8, DurationHours: 1}, &tco.Placement{Parts: []tco.Part{{0, 8}}})
	check("Price", err)
	var out tco.BatchResult
	err = ps.PriceBatch(top, pr, nil, &tco.Batch{MaxParts: 1}, &out)
	check("PriceBatch", err)

	// nil handles too.
	var nilTop *tco.Topology
	_, err = nilTop.Get("accelerators")
	check("nil Get", err)
	_, err = tco.Compute(nil, wl, pr)
	check("nil Compute", err)
	if err := nilTop.Close(); err != nil {
		t.Fatal(err)
	}
	ps.Close()
	ps.Close()
	_, err = ps.Add(tco.Pool{})
	check("Pools.Add", err)
	check("Pools.Freeze", ps.Freeze())
	if ps.Len() != 0 {
		t.Error("closed pools have a length")
	}
	s.Close()
	s.Close()
}

func TestEstimate(t *testing.T) {
	s := scenario(t)
	e, err := s.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	e.FillMaps()
	cats := tco.Categories()
	if len(cats) < 12 || cats[0].Name != "compute" || cats[len(cats)-1].Name != "waste" {
		t.Fatalf("categories %v", cats)
	}
	if len(e.Costs) != len(cats) || len(e.Waste) != len(tco.WasteKinds()) {
		t.Fatalf("%d costs, %d wastes", len(e.Costs), len(e.Waste))
	}
	sum, waste := 0.0, 0.0
	for _, c := range cats {
		sum += e.Costs[c.Name]
	}
	for _, w := range tco.WasteKinds() {
		waste += e.Waste[w]
	}
	if math.Abs(sum-e.Total) > 1e-9*e.Total || math.Abs(waste-e.Costs["waste"]) > 1e-9*e.Total {
		t.Errorf("total %g, sum %g; waste %g, sum %g", e.Total, sum, e.Costs["waste"], waste)
	}
	// Every scalar field the library lists, and the typed ones agree.
	nfields := 0
	for _, f := range tco.EstimateFields() {
		if f.Type == tco.FieldDouble {
			nfields++
			if _, ok := e.Fields[f.Name]; !ok {
				t.Errorf("field %s missing", f.Name)
			}
		}
	}
	if nfields != len(e.Fields) || nfields < 40 {
		t.Errorf("%d fields listed, %d in the map", nfields, len(e.Fields))
	}
	if e.Fields["total"] != e.Total || e.Fields["wall_hours"] != e.WallHours ||
		e.Fields["goodput"] != e.Goodput || e.Fields["cost_per_run"] != e.CostPerRun {
		t.Error("typed fields differ from Fields")
	}
	if !(e.Goodput > 0 && e.Goodput <= 1) || e.WallHours < e.ComputeHours {
		t.Errorf("goodput %g, wall %g, compute %g", e.Goodput, e.WallHours, e.ComputeHours)
	}
	fp, err := s.Fingerprint()
	if err != nil || fp == 0 || fp != e.ScenarioFingerprint || e.Uint64Fields()["scenario_fingerprint"] != fp {
		t.Errorf("fingerprint %x, estimate's %x (%v)", fp, e.ScenarioFingerprint, err)
	}
	total, err := tco.Total(s.Topology, s.Workload, s.Pricing)
	if err != nil || !same(total, e.Total) {
		t.Errorf("Total = %v, %v; Compute's %v", total, err, e.Total)
	}
	var again tco.Estimate
	if err := tco.ComputeInto(&again, s.Topology, s.Workload, s.Pricing); err != nil || !same(again.Total, e.Total) {
		t.Errorf("ComputeInto: %v, %v", again.Total, err)
	}
	// More accelerators at the same work cost more in compute.
	s2, err := s.With(tco.Set("accelerators", 2048))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	e2, err := s2.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	if e2.ScenarioFingerprint == e.ScenarioFingerprint || e2.Total == e.Total {
		t.Error("a changed scenario gives the same estimate")
	}
}

// A sweep varies a CHOICE by its value; ChoiceValue gives a name's, as
// tco_param_choice_at lists them (precision: bf16 0, fp8 1), and refuses a
// name that is no choice as SetText does, with the same message.
func TestSweepChoiceByName(t *testing.T) {
	s := scenario(t)
	bf16, err1 := tco.ChoiceValue("precision", "bf16")
	fp8, err2 := tco.ChoiceValue("precision", "fp8")
	if err1 != nil || err2 != nil || bf16 != 0 || fp8 != 1 {
		t.Fatalf("bf16 %v (%v), fp8 %v (%v)", bf16, err1, fp8, err2)
	}
	r, err := s.Sweep("precision", []float64{bf16, fp8})
	if err != nil || r.Err(0) != nil || r.Err(1) != nil {
		t.Fatalf("sweep: %v, %v", err, r.Status)
	}
	for i, name := range []string{"bf16", "fp8"} {
		one, err := s.With(tco.SetText("precision", name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := one.Estimate()
		one.Close()
		if err != nil || !same(r.Totals()[i], want.Total) {
			t.Errorf("precision = %s: sweep %v, single %v (%v)", name, r.Totals()[i], want.Total, err)
		}
	}
	if r.Totals()[0] == r.Totals()[1] {
		t.Error("fp8 priced as bf16")
	}
	_, err = tco.ChoiceValue("cooling", "water")
	_, set := tco.NewTopology(tco.SetText("cooling", "water"))
	var e, want *tco.Error
	if !errors.As(err, &e) || !errors.As(set, &want) || !errors.Is(err, tco.ErrRange) || e.ParamName != "cooling" ||
		e.Message != want.Message || e.Param != want.Param {
		t.Errorf("water: %v, SetText gives %v", err, set)
	}
	if _, err := tco.ChoiceValue("mfu", "high"); !errors.Is(err, tco.ErrType) {
		t.Errorf("mfu is no choice: %v", err)
	}
	if _, err := tco.ChoiceValue("no_such", "air"); !errors.Is(err, tco.ErrUnknownParam) {
		t.Errorf("unknown parameter: %v", err)
	}
}

func TestSweep(t *testing.T) {
	s := scenario(t)
	values := []float64{0.2, 0.3, 0.4, 2, math.NaN(), 0.6}
	r, err := s.Sweep("mfu", values)
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != len(values) {
		t.Fatalf("%d results", r.Len())
	}
	totals := r.Totals()
	for i, v := range values {
		if i == 3 || i == 4 {
			if r.Status[i] == tco.StatusOK || r.Err(i) == nil {
				t.Errorf("mfu = %g priced", v)
			}
			if _, err := r.Estimate(i); err == nil {
				t.Errorf("mfu = %g gave an estimate", v)
			}
			continue
		}
		// Each variation is what a handle with that value gives, bit for bit.
		one, err := s.With(tco.Set("mfu", v))
		if err != nil {
			t.Fatal(err)
		}
		want, err := one.Estimate()
		one.Close()
		if err != nil {
			t.Fatal(err)
		}
		want.FillMaps()
		got, err := r.Estimate(i)
		if err != nil {
			t.Fatal(err)
		}
		if !same(got.Total, want.Total) || !same(totals[i], want.Total) || got.ScenarioFingerprint != 0 {
			t.Errorf("mfu = %g: sweep %v, single %v", v, got.Total, want.Total)
		}
		for k, x := range want.Fields {
			if !same(got.Fields[k], x) {
				t.Errorf("mfu = %g: %s %v != %v", v, k, got.Fields[k], x)
			}
		}
	}
	if !errors.Is(r.Err(3), tco.ErrRange) || !errors.Is(r.Err(4), tco.ErrNotFinite) {
		t.Errorf("statuses %v", r.Status)
	}
	if totals[0] <= totals[2] {
		t.Error("a lower MFU does not cost more")
	}
	col, err := r.Field("wall_hours")
	if err != nil || len(col) != len(values) || col[0] <= col[2] {
		t.Errorf("wall_hours column %v, %v", col, err)
	}
	if c, err := r.Cost("compute"); err != nil || c[1] == 0 {
		t.Errorf("compute column %v, %v", c, err)
	}
	if _, err := r.Field("nope"); err == nil {
		t.Error("unknown field accepted")
	}
	if _, err := r.Cost("nope"); err == nil {
		t.Error("unknown category accepted")
	}

	// Two parameters at once; values a multiple of the names.
	m, err := tco.SweepMany(s.Topology, s.Workload, s.Pricing, []string{"mfu", "tokens"},
		[]float64{0.3, 1e12, 0.3, 2e12})
	if err != nil || m.Len() != 2 || m.Status[0] != tco.StatusOK {
		t.Fatalf("SweepMany: %v, %v", m, err)
	}
	if c, _ := m.Cost("compute"); !(c[1] > c[0]) {
		t.Errorf("compute %v", c)
	}
	for _, bad := range []struct {
		names  []string
		values []float64
		want   error
	}{
		{[]string{"mfu", "tokens"}, []float64{0.3}, tco.ErrSize},
		{nil, []float64{0.3}, tco.ErrSize},
		{[]string{"nope"}, []float64{1}, tco.ErrUnknownParam},
		{[]string{"currency"}, []float64{1}, tco.ErrType},
	} {
		if _, err := tco.SweepMany(s.Topology, s.Workload, s.Pricing, bad.names, bad.values); !errors.Is(err, bad.want) {
			t.Errorf("SweepMany(%v, %v): %v, want %v", bad.names, bad.values, err, bad.want)
		}
	}
	if r, err := s.Sweep("mfu", nil); err != nil || r.Len() != 0 {
		t.Errorf("empty sweep: %v, %v", r, err)
	}
}

func TestCapacity(t *testing.T) {
	demand := []float64{100, 120, 80, 300, 90, 110, 100, 95}
	st, err := tco.ComputeDemandStats(demand, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st.Peak != 300 || st.Minimum != 80 || st.Points != 8 || st.Mean != 124.375 || st.AcceleratorHours != 995 {
		t.Errorf("stats %+v", st)
	}
	pc, err := tco.DemandPercentiles(demand, []float64{0, 50, 100})
	if err != nil || pc[0] != 80 || pc[2] != 300 || pc[1] != 100 {
		t.Errorf("percentiles %v, %v", pc, err)
	}
	above, err := tco.DemandTimeAbove(demand, []float64{100, 299}, 0.5)
	if err != nil || above[0] != 1.5 || above[1] != 0.5 {
		t.Errorf("time above %v, %v", above, err)
	}
	c, err := tco.CapacityForUnmet(demand, 0, 1)
	if err != nil || c != 300 {
		t.Errorf("capacity for none unmet %v, %v", c, err)
	}
	s := scenario(t)
	sp, err := tco.CapacitySplit(demand, 1, s.Topology, s.Workload, s.Pricing)
	if err != nil {
		t.Fatal(err)
	}
	at, err := tco.CapacitySplitAt(sp.Baseline, demand, 1, s.Topology, s.Workload, s.Pricing)
	if err != nil || !same(at.TotalCost, sp.TotalCost) {
		t.Errorf("split at the optimum %v, %v; optimum %v", at.TotalCost, err, sp.TotalCost)
	}
	if sp.TotalCost > sp.AllOnDemandCost || sp.TotalCost > sp.ReservePeakCost {
		t.Errorf("split %+v", sp)
	}

	bad := []struct {
		name string
		err  error
		want error
	}{}
	add := func(name string, err error, want error) {
		bad = append(bad, struct {
			name string
			err  error
			want error
		}{name, err, want})
	}
	_, err = tco.ComputeDemandStats(nil, 1)
	add("stats of nothing", err, tco.ErrRange)
	_, err = tco.ComputeDemandStats([]float64{}, 1)
	add("stats of empty", err, tco.ErrRange)
	_, err = tco.ComputeDemandStats([]float64{1, -1}, 1)
	add("negative demand", err, tco.ErrRange)
	_, err = tco.ComputeDemandStats([]float64{1, math.NaN()}, 1)
	add("NaN demand", err, tco.ErrNotFinite)
	_, err = tco.ComputeDemandStats(demand, 0)
	add("zero interval", err, tco.ErrRange)
	_, err = tco.DemandPercentiles(demand, []float64{101})
	add("percentile 101", err, tco.ErrRange)
	_, err = tco.DemandPercentiles(nil, []float64{50})
	add("percentile of nothing", err, tco.ErrRange)
	_, err = tco.DemandTimeAbove(nil, []float64{1}, 1)
	add("time above nothing", err, tco.ErrRange)
	_, err = tco.CapacityForUnmet(demand, 2, 1)
	add("unmet share 2", err, tco.ErrRange)
	_, err = tco.CapacitySplit(nil, 1, s.Topology, s.Workload, s.Pricing)
	add("split of nothing", err, tco.ErrRange)
	_, err = tco.CapacitySplitAt(-1, demand, 1, s.Topology, s.Workload, s.Pricing)
	add("negative baseline", err, tco.ErrRange)
	_, err = tco.ComputeBudget(nil, 1, nil, s.Pricing)
	add("budget of nothing", err, tco.ErrRange)
	_, err = tco.ComputeBudget([]float64{1}, 1, []float64{}, s.Pricing)
	add("empty previous", err, tco.ErrRange)
	for _, b := range bad {
		if !errors.Is(b.err, b.want) {
			t.Errorf("%s: %v, want %v", b.name, b.err, b.want)
		}
	}
	// Empty percentiles with a good series: nothing to compute.
	if pc, err := tco.DemandPercentiles(demand, nil); err != nil || len(pc) != 0 {
		t.Errorf("no percentiles: %v, %v", pc, err)
	}
}

func TestScenarioFunctions(t *testing.T) {
	s := scenario(t)
	bw, err := tco.ComputeBandwidth(s.Topology, s.Workload, s.Pricing)
	if err != nil || !(bw.StepSeconds > 0) || !(bw.NetworkCapacityGbps > 0) {
		t.Errorf("bandwidth %+v, %v", bw, err)
	}
	lc, err := tco.ComputeLifecycle(s.Topology, s.Workload, s.Pricing)
	if err != nil || !(lc.KeepHotCost >= lc.PolicyCost) || lc.GBMonths[tco.DataDataset][tco.TierHot] <= 0 {
		t.Errorf("lifecycle %+v, %v", lc, err)
	}
	lg, err := tco.CompareLogging(30, 30, s.Topology, s.Workload, s.Pricing)
	if err != nil || !(lg.ProposedSamplesPerMonth < lg.SamplesPerMonth) {
		t.Errorf("logging %+v, %v", lg, err)
	}
	if _, err := tco.CompareLogging(0, 30, s.Topology, s.Workload, s.Pricing); err == nil {
		t.Error("a sampling interval of 0 accepted")
	}
	budget, _ := s.Pricing.Get("budget_amount")
	period, _ := s.Pricing.Get("budget_period_days")
	spend := make([]float64, 10)
	for i := range spend {
		spend[i] = budget / period * 2 // twice the even rate
	}
	b, err := tco.ComputeBudget(spend, 1, spend[:5], s.Pricing)
	if err != nil {
		t.Fatal(err)
	}
	if b.ProjectedStatus != tco.BudgetExhausted || b.Spent != 20*budget/period && math.Abs(b.Spent-20*budget/period) > 1e-6 {
		t.Errorf("budget %+v", b)
	}
	if b.ProjectedStatus.String() != "exhausted" {
		t.Errorf("status name %q", b.ProjectedStatus)
	}
}

// Figures without a value (doc/model.md, section 11): nothing spent never
// runs out; 10 a day after a previous period of nothing is growth from
// nothing (abnormal); no previous period, no growth. 10 a day against 5:
// growth 10 / 5 - 1 = 1, and 1000 - 20 left at 10 a day lasts 98 days.
func TestBudgetWithoutAValue(t *testing.T) {
	p, err := tco.NewPricing(tco.Set("budget_amount", 1000), tco.Set("budget_period_days", 30))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	none, err := tco.ComputeBudget([]float64{0, 0}, 1, nil, p)
	if err != nil || none.ExhaustionDefined || none.DaysToExhaustion != 0 || none.GrowthDefined || none.Growth != 0 {
		t.Errorf("nothing spent: %+v, %v", none, err)
	}
	fresh, err := tco.ComputeBudget([]float64{10, 10}, 1, []float64{0, 0}, p)
	if err != nil || fresh.GrowthDefined || fresh.Growth != 0 || !fresh.AbnormalGrowth ||
		!fresh.ExhaustionDefined || fresh.DaysToExhaustion != 98 {
		t.Errorf("growth from nothing: %+v, %v", fresh, err)
	}
	doubled, err := tco.ComputeBudget([]float64{10, 10}, 1, []float64{5, 5}, p)
	if err != nil || !doubled.GrowthDefined || doubled.Growth != 1 {
		t.Errorf("growth 1: %+v, %v", doubled, err)
	}
}

func TestCBOR(t *testing.T) {
	s := scenario(t, tco.Set("accelerators", 2048), tco.SetText("accelerator_model", "B200"),
		tco.Set("tokens", 15e12), tco.SetText("currency", "EUR"))
	data, err := s.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	back, err := tco.LoadScenarioCBOR(data)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	again, err := back.MarshalCBOR()
	if err != nil || !bytes.Equal(again, data) {
		t.Fatalf("scenario does not save back to the same bytes (%v)", err)
	}
	f1, _ := s.Fingerprint()
	f2, _ := back.Fingerprint()
	if f1 != f2 || f1 == 0 {
		t.Errorf("fingerprints %x and %x", f1, f2)
	}
	if v, _ := back.Topology.Get("accelerators"); v != 2048 {
		t.Errorf("accelerators %v", v)
	}

	// Each handle alone.
	tb, err := s.Topology.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	top, err := tco.LoadTopologyCBOR(tb)
	if err != nil {
		t.Fatal(err)
	}
	defer top.Close()
	ft1, _ := s.Topology.Fingerprint()
	ft2, _ := top.Fingerprint()
	if ft1 != ft2 {
		t.Errorf("topology fingerprints %x and %x", ft1, ft2)
	}
	wb, _ := s.Workload.MarshalCBOR()
	wl, err := tco.LoadWorkloadCBOR(wb)
	if err != nil {
		t.Fatal(err)
	}
	defer wl.Close()
	pb, _ := s.Pricing.MarshalCBOR()
	pr, err := tco.LoadPricingCBOR(pb)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	if c, _ := pr.GetText("currency"); c != "EUR" {
		t.Errorf("currency %q", c)
	}
	fp, _ := tco.ScenarioFingerprint(top, wl, pr)
	if fp != f1 {
		t.Errorf("scenario of loaded handles %x, want %x", fp, f1)
	}
	// A handle's bytes are not another handle's.
	if _, err := tco.LoadWorkloadCBOR(tb); err == nil {
		t.Error("a topology loaded as a workload")
	}

	// Bad data: an error, never a crash.
	for name, b := range map[string][]byte{
		"nil": nil, "empty": {}, "one byte": {0xa1}, "not a map": {0x01},
		"truncated": data[:len(data)/2], "trailing": append(append([]byte{}, data...), 0),
		"garbage": bytes.Repeat([]byte{0xff}, 64),
	} {
		if _, err := tco.LoadScenarioCBOR(b); err == nil {
			t.Errorf("%s scenario loaded", name)
		} else {
			var e *tco.Error
			if !errors.As(err, &e) {
				t.Errorf("%s: %v", name, err)
			}
		}
		if _, err := tco.LoadTopologyCBOR(b); err == nil {
			t.Errorf("%s topology loaded", name)
		}
	}
	e, err := s.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	if r, err := e.MarshalCBOR(); err != nil || len(r) < 100 {
		t.Errorf("result %d bytes, %v", len(r), err)
	}
	if _, err := (&tco.Estimate{}).MarshalCBOR(); err == nil {
		t.Error("an empty estimate encoded")
	}
}

// SetBool sets only a bool parameter: a bool is no number, as in C and
// Python (issue: one set of rules in every binding).
func TestSetBoolOnlyForBools(t *testing.T) {
	if _, err := tco.NewWorkload(tco.SetBool("mfu", true)); err == nil {
		t.Error("SetBool(\"mfu\", true) accepted")
	} else if e := (*tco.Error)(nil); !errors.As(err, &e) || e.Code != tco.StatusType || e.ParamName != "mfu" {
		t.Errorf("SetBool on a real: %v", err)
	}
	w, err := tco.NewWorkload(tco.SetBool("count_failures", false))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if v, _ := w.Get("count_failures"); v != 0 {
		t.Errorf("count_failures = %v", v)
	}
}
