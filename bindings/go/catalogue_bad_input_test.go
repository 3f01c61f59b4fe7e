package tco_test

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"libtco.dev/tco"
)

// The bad-input catalogue (tests/catalogue/requests.json) through the Go
// binding: the expectations tests/api/test_catalogue.c checks in C and
// bindings/python/tests/test_catalogue.py in Python.

type catField struct {
	Field  string            `json:"field"`
	Go     string            `json:"go"`
	Type   string            `json:"type"`
	Lo     float64           `json:"lo"`
	Hi     *float64          `json:"hi"`
	LoOpen bool              `json:"lo_open"`
	Only   []string          `json:"only"`
	Bad    map[string]string `json:"bad"`
}

type catalogue struct {
	Scenario struct {
		Topology           map[string]float64 `json:"topology"`
		Workload           map[string]float64 `json:"workload"`
		Pricing            map[string]float64 `json:"pricing"`
		RecordsCSV         string             `json:"records_csv"`
		PeriodEpoch        [2]int64           `json:"period_epoch"`
		By                 string             `json:"by"`
		Rate               []float64          `json:"rate"`
		SizingDeadlineDays float64            `json:"sizing_deadline_days"`
		Pool               struct {
			PriceClass          tco.PriceClass `json:"price_class"`
			AcceleratorsPerNode int32          `json:"accelerators_per_node"`
			FreeAccelerators    int32          `json:"free_accelerators"`
			RatePerAccelHour    float64        `json:"rate_per_accel_hour"`
		} `json:"pool"`
		Job struct {
			Accelerators          int32   `json:"accelerators"`
			DurationHours         float64 `json:"duration_hours"`
			CommShare             float64 `json:"comm_share"`
			CheckpointBytes       float64 `json:"checkpoint_bytes"`
			TrafficGBPerAccelHour float64 `json:"traffic_gb_per_accel_hour"`
			DelayCostPerHour      float64 `json:"delay_cost_per_hour"`
		} `json:"job"`
	} `json:"scenario"`
	Arguments []struct {
		Entry    string            `json:"entry"`
		Argument string            `json:"argument"`
		Lo       float64           `json:"lo"`
		Hi       *float64          `json:"hi"`
		LoOpen   bool              `json:"lo_open"`
		Bad      map[string]string `json:"bad"`
	} `json:"arguments"`
	Uncertain struct {
		Param string             `json:"param"`
		Valid map[string]float64 `json:"valid"`
		Cases []struct {
			Set    map[string]any `json:"set"`
			Status string         `json:"status"`
		} `json:"cases"`
	} `json:"uncertain"`
	Texts struct {
		Prefix string      `json:"prefix"`
		Fields [][2]string `json:"fields"`
		Cases  []struct {
			Class  string `json:"class"`
			Text   string `json:"text"`
			Repeat int    `json:"repeat"`
			Status string `json:"status"`
		} `json:"cases"`
	} `json:"texts"`
	Readers struct {
		Header []string `json:"header"`
		Row    []string `json:"row"`
		Cases  []struct {
			Column string `json:"column"`
			Text   string `json:"text"`
			Status string `json:"status"`
			Repeat int    `json:"repeat"`
		} `json:"cases"`
		Texts []struct {
			Name   string `json:"name"`
			Text   string `json:"text"`
			Status string `json:"status"`
			Param  string `json:"param"`
		} `json:"texts"`
	} `json:"readers"`
	Entries []struct {
		Entry  string     `json:"entry"`
		Prefix string     `json:"prefix"`
		Fields []catField `json:"fields"`
	} `json:"entries"`
	Sacct struct {
		Fields []string `json:"fields"`
		Row    []string `json:"row"`
		Cases  []struct {
			Column string `json:"column"`
			Text   string `json:"text"`
			Status string `json:"status"`
			Repeat int    `json:"repeat"`
		} `json:"cases"`
		Texts []struct {
			Name   string `json:"name"`
			Text   string `json:"text"`
			Status string `json:"status"`
			Param  string `json:"param"`
		} `json:"texts"`
	} `json:"sacct"`
	Variants struct {
		Sweep []struct {
			Param string            `json:"param"`
			Bad   map[string]string `json:"bad"`
		} `json:"sweep"`
		Compare struct {
			Option int `json:"option"`
			Cases  []struct {
				Set    map[string]any `json:"set"`
				Status string         `json:"status"`
				Param  string         `json:"param"`
			} `json:"cases"`
		} `json:"compare"`
	} `json:"variants"`
}

// catValue is the value of a bad class for a field, as gen_catalogue.py
// makes it for C (tests/catalogue/README.md).
func catValue(cls string, f catField) float64 {
	if v, err := strconv.ParseFloat(cls, 64); err == nil && cls != "nan" && cls != "inf" && cls != "-inf" {
		return v // a class that is a number is that value
	}
	hi := math.NaN()
	if f.Hi != nil {
		hi = *f.Hi
	}
	if f.Type == "int32" {
		return map[string]float64{"below": f.Lo - 1, "above": hi + 1, "negative": -1, "zero": 0,
			"huge": math.MaxInt32, "-huge": math.MinInt32}[cls]
	}
	below := math.Nextafter(f.Lo, math.Inf(-1))
	if f.LoOpen {
		below = f.Lo
	}
	v, ok := map[string]float64{"nan": math.NaN(), "inf": math.Inf(1), "-inf": math.Inf(-1), "zero": 0,
		"negative": -1, "subnormal": 5e-324, "huge": 1e308, "-huge": -1e308, "below": below,
		"above": math.Nextafter(hi, math.Inf(1)), "fractional": math.Floor(f.Lo) + 1.5}[cls]
	if !ok {
		panic("unknown class " + cls)
	}
	return v
}

// catKind is the kind of the Go field of that name in an entry's request.
func catKind(calls map[string]func(func(any)) error, entry, name string) reflect.Kind {
	kind := reflect.Invalid
	calls[entry](func(req any) { kind = reflect.ValueOf(req).Elem().FieldByName(name).Kind() })
	return kind
}

// setField sets the request's field of that Go name to v.
func setField(req any, name string, v float64) {
	f := reflect.ValueOf(req).Elem().FieldByName(name)
	if f.Kind() == reflect.Float64 {
		f.SetFloat(v)
	} else {
		f.SetInt(int64(v))
	}
}

// catScenario is the catalogue's scenario, frozen.
func catScenario(t *testing.T, cat *catalogue) *tco.Scenario {
	var opts []tco.Option
	for _, m := range []map[string]float64{cat.Scenario.Topology, cat.Scenario.Workload, cat.Scenario.Pricing} {
		for k, v := range m {
			opts = append(opts, tco.Set(k, v))
		}
	}
	s, err := tco.NewScenario(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// catCalls is each entry as the binding calls it: a valid request, then
// set changes one field of it.
func catCalls(t *testing.T, cat *catalogue) map[string]func(set func(req any)) error {
	sc := cat.Scenario
	s := catScenario(t, cat)
	rs, err := tco.ReadCSV([]byte(sc.RecordsCSV), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	pool := sc.Pool
	pools, err := tco.NewPoolsOf(tco.Pool{Class: pool.PriceClass, AcceleratorsPerNode: pool.AcceleratorsPerNode,
		FreeAccelerators: pool.FreeAccelerators, RatePerAccelHour: pool.RatePerAccelHour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pools.Close() })
	areq := tco.AttributionRequest{PeriodStart: time.Unix(sc.PeriodEpoch[0], 0).UTC(),
		PeriodEnd: time.Unix(sc.PeriodEpoch[1], 0).UTC(), By: []string{sc.By}}
	return map[string]func(func(any)) error{
		"waste": func(set func(any)) error {
			q := tco.DefaultWasteRequest()
			set(&q)
			_, err := s.FindWaste(rs, areq, q)
			return err
		},
		"lifetime": func(set func(any)) error {
			q := tco.DefaultLifetimeRequest()
			set(&q)
			_, err := s.Lifetime(q)
			return err
		},
		"serving": func(set func(any)) error {
			q := tco.DefaultServeRequest()
			q.Rate = sc.Rate
			set(&q)
			_, err := s.Serve(q)
			return err
		},
		"pipeline": func(set func(any)) error {
			q := tco.DefaultPipelineRequest()
			set(&q)
			_, err := s.DataPipeline(q)
			return err
		},
		"tradeoffs": func(set func(any)) error {
			q := tco.DefaultSaving(0, 0)
			set(&q)
			_, err := s.Tradeoffs(&q)
			return err
		},
		"sizing": func(set func(any)) error {
			q := tco.Target{Solve: tco.SolveAccelerators, DeadlineDays: sc.SizingDeadlineDays}
			set(&q)
			_, err := s.Size(q)
			return err
		},
		"job": func(set func(any)) error {
			j := sc.Job
			q := tco.Job{Accelerators: j.Accelerators, DurationHours: j.DurationHours, CommShare: j.CommShare,
				CheckpointBytes: j.CheckpointBytes, TrafficGBPerAccelHour: j.TrafficGBPerAccelHour,
				DelayCostPerHour: j.DelayCostPerHour}
			set(&q)
			_, err := pools.Price(s.Topology, s.Pricing, &q,
				&tco.Placement{Parts: []tco.Part{{Pool: 0, Accelerators: j.Accelerators}}})
			return err
		},
		"programme": func(set func(any)) error {
			q := tco.Stage{Kind: tco.StagePretraining, After: -1, Workload: s.Workload}
			set(&q)
			_, err := tco.ComputeProgramme([]tco.Stage{q}, s.Topology, s.Pricing)
			return err
		},
		"scaling_law": func(set func(any)) error {
			law, err := tco.PublishedLaw(tco.FitHoffmann2022)
			if err != nil {
				return err
			}
			set(&law)
			_, err = tco.LossAt(&law, 7e10, 1.4e12)
			return err
		},
	}
}

var catCodes = map[string]tco.Status{"NOT_FINITE": tco.StatusNotFinite, "RANGE": tco.StatusRange,
	"INCONSISTENT": tco.StatusInconsistent, "SIZE": tco.StatusSize, "TYPE": tco.StatusType,
	"UNKNOWN_PARAM": tco.StatusUnknownParam}

func readCatalogue(t *testing.T) *catalogue {
	text, err := os.ReadFile("../../tests/catalogue/requests.json")
	if err != nil {
		t.Fatal(err)
	}
	var cat catalogue
	if err := json.Unmarshal(text, &cat); err != nil {
		t.Fatal(err)
	}
	return &cat
}

// latin1 is the bytes of a catalogue text: one byte a character.
func latin1(s string) []byte {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r))
	}
	return b
}

func TestRequestCatalogue(t *testing.T) {
	cat := readCatalogue(t)
	calls := catCalls(t, cat)
	codes := catCodes
	cases := 0
	for _, e := range cat.Entries {
		call, ok := calls[e.Entry]
		if !ok {
			if e.Entry == "attribution" { // its fields are C's and Python's only
				continue
			}
			t.Fatalf("no call for entry %q", e.Entry)
		}
		// The valid request prices: a catalogue whose base fails would pass on any code.
		if err := call(func(any) {}); err != nil {
			t.Fatalf("%s: the valid request fails: %v", e.Entry, err)
		}
		for _, f := range e.Fields {
			if f.Only != nil && !slices.Contains(f.Only, "go") {
				continue // not a value the binding can be given (a time.Time is never NaN)
			}
			name := e.Prefix + f.Field
			for cls, status := range f.Bad {
				want, ok := codes[status]
				if !ok {
					t.Fatalf("%s: unknown status %q", name, status)
				}
				v := catValue(cls, f)
				err := call(func(req any) { setField(req, f.Go, v) })
				var te *tco.Error
				if !errors.As(err, &te) {
					t.Errorf("%s = %s (%g): got %v, want %v", name, cls, v, err, want)
					continue
				}
				if te.Code != want || te.ParamName != name || !strings.Contains(te.Message, name) {
					t.Errorf("%s = %s (%g): got %v naming %q (%s), want %v naming it", name, cls, v, te.Code,
						te.ParamName, te.Message, want)
				}
				cases++
			}
			// A Go int past int32 is never truncated into range.
			if f.Type == "int32" && reflect.TypeOf(0).Kind() == catKind(calls, e.Entry, f.Go) {
				err := call(func(req any) { reflect.ValueOf(req).Elem().FieldByName(f.Go).SetInt(1<<32 + int64(f.Lo)) })
				if !errors.Is(err, tco.ErrRange) {
					t.Errorf("%s = 2^32 + %g: got %v, want %v", name, f.Lo, err, tco.StatusRange)
				}
			}
		}
	}
	if cases == 0 {
		t.Fatal("no case checked")
	}
}

// TestArgumentCatalogue gives each scalar argument of the catalogue its bad
// classes.
func TestArgumentCatalogue(t *testing.T) {
	cat := readCatalogue(t)
	sc := cat.Scenario
	s := catScenario(t, cat)
	calls := map[string]func(float64) error{
		"share":  func(v float64) error { _, err := s.Sensitivity(v); return err },
		"budget": func(v float64) error { _, err := s.ComputeOptimal(nil, v); return err },
		"params": func(v float64) error { _, err := tco.LossAt(nil, v, 1.4e12); return err },
		"tokens": func(v float64) error { _, err := tco.LossAt(nil, 7e10, v); return err },
		"interval_hours": func(v float64) error {
			_, err := tco.CapacitySplit(sc.Rate, v, s.Topology, s.Workload, s.Pricing)
			return err
		},
		"interval_days": func(v float64) error { _, err := tco.ComputeBudget(sc.Rate, v, nil, s.Pricing); return err },
	}
	for _, a := range cat.Arguments {
		f := catField{Type: "real", Lo: a.Lo, Hi: a.Hi, LoOpen: a.LoOpen}
		for cls, status := range a.Bad {
			v := catValue(cls, f)
			err := calls[a.Argument](v)
			var te *tco.Error
			if !errors.As(err, &te) || te.Code != catCodes[status] || te.ParamName != a.Argument ||
				!strings.Contains(te.Message, a.Argument) {
				t.Errorf("%s: %s = %s (%g): got %v, want %s naming it", a.Entry, a.Argument, cls, v, err, status)
			}
		}
	}
}

// TestReaderCatalogue reads the catalogue's bad CSV texts: refused with the
// code and the field named, strictly; a bad row reported and skipped
// otherwise.
func TestReaderCatalogue(t *testing.T) {
	cat := readCatalogue(t)
	rd := cat.Readers
	check := func(what string, text []byte, param, status string, row bool) {
		_, err := tco.ReadCSV(text, true)
		var te *tco.Error
		if !errors.As(err, &te) || te.Code != catCodes[status] || te.ParamName != param ||
			!strings.Contains(te.Message, param) || (row && !strings.Contains(te.Message, "line 2")) {
			t.Errorf("%s: got %v, want %s naming %q", what, err, status, param)
			return
		}
		if !row {
			return
		}
		rs, err := tco.ReadCSV(text, false)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		defer rs.Close()
		bad := rs.Bad()
		if rs.Len() != 0 || len(bad) != 1 || bad[0].Line != 2 || !strings.Contains(bad[0].Reason, param) {
			t.Errorf("%s: %d records and bad rows %v, want the row refused naming %s", what, rs.Len(), bad, param)
		}
	}
	for _, c := range rd.Cases {
		row := append([]string{}, rd.Row...)
		for k, h := range rd.Header {
			if h == c.Column {
				row[k] = strings.Repeat(c.Text, max(c.Repeat, 1))
			}
		}
		text := latin1(strings.Join(rd.Header, ",") + "\n" + strings.Join(row, ",") + "\n")
		check(c.Column+" = "+c.Text, text, c.Column, c.Status, true)
	}
	for _, c := range rd.Texts {
		check(c.Name, latin1(c.Text), c.Param, c.Status, false)
	}
}

// TestFocusTextCatalogue gives each bad text of the catalogue to each field
// of the FOCUS export's names.
func TestFocusTextCatalogue(t *testing.T) {
	cat := readCatalogue(t)
	sc := cat.Scenario
	s := catScenario(t, cat)
	rs, err := tco.ReadCSV([]byte(sc.RecordsCSV), true)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	areq := tco.AttributionRequest{PeriodStart: time.Unix(sc.PeriodEpoch[0], 0).UTC(),
		PeriodEnd: time.Unix(sc.PeriodEpoch[1], 0).UTC(), By: []string{sc.By}}
	if _, err := s.FOCUS(rs, areq, tco.FocusRequest{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range cat.Texts.Fields {
		for _, c := range cat.Texts.Cases {
			var names tco.FocusRequest
			reflect.ValueOf(&names).Elem().FieldByName(f[1]).SetString(string(latin1(strings.Repeat(c.Text, max(c.Repeat, 1)))))
			_, err := s.FOCUS(rs, areq, names)
			name := cat.Texts.Prefix + f[0]
			var te *tco.Error
			if !errors.As(err, &te) || te.Code != catCodes[c.Status] || te.ParamName != name ||
				!strings.Contains(te.Message, name) {
				t.Errorf("%s = %s: got %v, want %s naming %s", name, c.Class, err, c.Status, name)
			}
		}
	}
}

// TestUncertainCatalogue draws Monte Carlo inputs the catalogue makes bad
// (a uniform distribution, as the catalogue's valid input).
func TestUncertainCatalogue(t *testing.T) {
	mc := readCatalogue(t).Uncertain
	number := func(x any) float64 {
		switch x := x.(type) {
		case float64:
			return x
		case string:
			return map[string]float64{"nan": math.NaN(), "inf": math.Inf(1), "-inf": math.Inf(-1)}[x]
		}
		t.Fatalf("not a number: %v", x)
		return 0
	}
	draw := func(v map[string]float64) error {
		_, err := tco.MonteCarloDraw([]tco.Uncertain{{Param: mc.Param, Distribution: tco.Uniform, A: v["a"], B: v["b"],
			Lo: v["lo"], Hi: v["hi"]}}, 0, 0, 4)
		return err
	}
	if err := draw(mc.Valid); err != nil {
		t.Fatal(err)
	}
	for _, c := range mc.Cases {
		v := map[string]float64{}
		for k, x := range mc.Valid {
			v[k] = x
		}
		for k, x := range c.Set {
			v[k] = number(x)
		}
		err := draw(v)
		var te *tco.Error
		if !errors.As(err, &te) || te.Code != catCodes[c.Status] || te.ParamName != mc.Param ||
			!strings.Contains(te.Message, "inputs[0]") {
			t.Errorf("%v: got %v, want %s naming %s and inputs[0]", c.Set, err, c.Status, mc.Param)
		}
	}
}

// TestSacctCatalogue reads the catalogue's bad Slurm rows and texts:
// refused with the code and the field named, strictly; a bad row reported
// and skipped otherwise.
func TestSacctCatalogue(t *testing.T) {
	sa := readCatalogue(t).Sacct
	check := func(what string, text []byte, param, status string, row bool) {
		_, err := tco.ReadSacct(text, true)
		var te *tco.Error
		if !errors.As(err, &te) || te.Code != catCodes[status] || te.ParamName != param ||
			!strings.Contains(te.Message, param) || (row && !strings.Contains(te.Message, "line 1:")) {
			t.Errorf("%s: got %v, want %s naming %q", what, err, status, param)
			return
		}
		if !row {
			return
		}
		rs, err := tco.ReadSacct(text, false)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		defer rs.Close()
		bad := rs.Bad()
		if rs.Len() != 0 || len(bad) != 1 || bad[0].Line != 1 || !strings.Contains(bad[0].Reason, param) {
			t.Errorf("%s: %d records and bad rows %v, want the row refused naming %s", what, rs.Len(), bad, param)
		}
	}
	for _, c := range sa.Cases {
		row := append([]string{}, sa.Row...)
		row[slices.Index(sa.Fields, c.Column)] = strings.Repeat(c.Text, max(c.Repeat, 1))
		check(c.Column+" = "+c.Text, latin1(strings.Join(row, "|")+"\n"), c.Column, c.Status, true)
	}
	for _, c := range sa.Texts {
		check(c.Name, latin1(c.Text), c.Param, c.Status, false)
	}
}

// TestSweepCatalogue sweeps two variations, the second set to each bad
// class of a parameter (made from the parameter table's bounds): it alone
// is refused, its error naming the parameter.
func TestSweepCatalogue(t *testing.T) {
	cat := readCatalogue(t)
	s := catScenario(t, cat)
	for _, sw := range cat.Variants.Sweep {
		p, err := tco.ParamByName(sw.Param)
		if err != nil {
			t.Fatal(err)
		}
		get := map[tco.HandleKind]func(string) (float64, error){tco.KindTopology: s.Topology.Get,
			tco.KindWorkload: s.Workload.Get, tco.KindPricing: s.Pricing.Get}[p.Handle]
		valid, err := get(sw.Param)
		if err != nil {
			t.Fatal(err)
		}
		for cls, status := range sw.Bad {
			v := catValue(cls, catField{Type: "real", Lo: p.Min, Hi: &p.Max})
			r, err := tco.SweepMany(s.Topology, s.Workload, s.Pricing, []string{sw.Param}, []float64{valid, v})
			if err != nil {
				t.Fatalf("%s = %s: %v", sw.Param, cls, err)
			}
			var te *tco.Error
			if r.Err(0) != nil || !errors.As(r.Err(1), &te) || te.Code != catCodes[status] || te.ParamName != sw.Param ||
				!strings.Contains(te.Message, sw.Param) {
				t.Errorf("sweep %s = %s (%g): got %v and %v, want the second %s naming it", sw.Param, cls, v, r.Err(0),
					r.Err(1), status)
			}
		}
	}
}

// TestCompareCatalogue compares three options, the last with the case's
// parameters set: refused naming the parameter and the option.
func TestCompareCatalogue(t *testing.T) {
	cat := readCatalogue(t)
	cmp := cat.Variants.Compare
	for _, c := range cmp.Cases {
		options := make([]*tco.Scenario, cmp.Option+1)
		for k := range options {
			options[k] = catScenario(t, cat)
		}
		if _, err := tco.Compare(options...); err != nil {
			t.Fatalf("the valid options fail: %v", err)
		}
		var opts []tco.Option
		for _, m := range []map[string]float64{cat.Scenario.Topology, cat.Scenario.Workload, cat.Scenario.Pricing} {
			for k, v := range m {
				opts = append(opts, tco.Set(k, v))
			}
		}
		for k, v := range c.Set {
			if text, ok := v.(string); ok {
				opts = append(opts, tco.SetText(k, text))
			} else {
				opts = append(opts, tco.Set(k, v.(float64)))
			}
		}
		last, err := tco.NewScenario(opts...)
		if err != nil {
			t.Fatal(err)
		}
		defer last.Close()
		options[cmp.Option] = last
		_, err = tco.Compare(options...)
		var te *tco.Error
		if !errors.As(err, &te) || te.Code != catCodes[c.Status] || te.ParamName != c.Param ||
			!strings.Contains(te.Message, "option "+strconv.Itoa(cmp.Option)) {
			t.Errorf("compare, %v set: got %v, want %s naming %s and option %d", c.Set, err, c.Status, c.Param, cmp.Option)
		}
	}
}
