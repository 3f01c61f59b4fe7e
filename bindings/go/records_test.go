package tco_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"libtco.dev/tco"
)

// usageCSV is doc/records.md's CSV with a bad row (line 4) and a record
// without a project.
const usageCSV = "start,end,accelerators,utilisation,price_class,state,storage_hot_gb_hours,tag.project,tag.user\n" +
	"2026-11-01T00:00:00Z,2026-11-01T02:00:00Z,8,0.62,on_demand,completed,1200,llama,alice\n" +
	"2026-11-01T01:30:00Z,2026-11-01T03:00:00Z,16,,spot,failed,,\"vision, eval\",bob\n" +
	"2026-11-01T04:00:00Z,2026-11-01T05:00:00Z,-8,,,,,llama,carol\n" +
	"2026-11-01T06:00:00Z,2026-11-01T10:00:00Z,32,0.9,owned,running,,,alice\n"

// usageSacct is one job allocation and its batch step, which is skipped.
const usageSacct = "123|train|llama|alice|gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T02:00:00|7200|" +
	"billing=64,cpu=64,gres/gpu=8,mem=500G,node=1\n" +
	"123.batch|batch||||COMPLETED|2026-11-01T00:00:00|2026-11-01T02:00:00|7200|cpu=64\n"

var nov1 = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func readUsage(t *testing.T) *tco.Records {
	t.Helper()
	rs, err := tco.ReadCSV([]byte(usageCSV), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	return rs
}

func record(t *testing.T, rs *tco.Records, i int) tco.Record {
	t.Helper()
	r, err := rs.Record(i)
	if err != nil {
		t.Fatalf("Record(%d): %v", i, err)
	}
	return r
}

func TestReadCSV(t *testing.T) {
	rs := readUsage(t)
	if rs.Len() != 3 {
		t.Fatalf("Len = %d, want 3", rs.Len())
	}
	r := record(t, rs, 0)
	if !r.Start.Equal(nov1) || !r.End.Equal(nov1.Add(2*time.Hour)) || r.Start.Location() != time.UTC {
		t.Errorf("window %v to %v", r.Start, r.End)
	}
	if r.Accelerators != 8 || r.Utilisation != 0.62 || r.PriceClass != tco.OnDemand || r.State != tco.JobCompleted ||
		r.StorageGBHours != [3]float64{1200, 0, 0} || r.TrafficGB != [3]float64{} {
		t.Errorf("record 0 = %+v", r)
	}
	if len(r.Tags) != 2 || r.Tags["project"] != "llama" || r.Tags["user"] != "alice" {
		t.Errorf("record 0 tags %v", r.Tags)
	}
	r = record(t, rs, 1)
	if r.Utilisation != -1 || r.PriceClass != tco.Spot || r.State != tco.JobFailed || r.State.String() != "failed" ||
		r.Tags["project"] != "vision, eval" {
		t.Errorf("record 1 = %+v", r)
	}
	// The bad row is skipped: the third record is line 5's.
	r = record(t, rs, 2)
	if r.Accelerators != 32 || r.PriceClass.String() != "owned" || r.State != tco.JobRunning ||
		len(r.Tags) != 1 || r.Tags["user"] != "alice" {
		t.Errorf("record 2 = %+v", r)
	}
	bad := rs.Bad()
	if len(bad) != 1 || bad[0].Line != 4 || !strings.Contains(bad[0].Reason, `accelerators = "-8"`) {
		t.Errorf("Bad = %+v", bad)
	}
	if _, err := rs.Record(3); !errors.Is(err, tco.ErrIndex) {
		t.Errorf("Record(3): %v, want ErrIndex", err)
	}
	if _, err := rs.Record(-1); !errors.Is(err, tco.ErrIndex) {
		t.Errorf("Record(-1): %v, want ErrIndex", err)
	}
}

func TestReadStrict(t *testing.T) {
	rs, err := tco.ReadCSV([]byte(usageCSV), true)
	var e *tco.Error
	if rs != nil || !errors.Is(err, tco.ErrRange) || !errors.As(err, &e) || e.ParamName != "accelerators" ||
		!strings.HasPrefix(e.Message, "line 4: ") {
		t.Errorf("strict read: %v, %#v", rs, err)
	}
	// Without the bad row, strict reads it all.
	good := strings.Replace(usageCSV, "2026-11-01T04:00:00Z,2026-11-01T05:00:00Z,-8,,,,,llama,carol\n", "", 1)
	rs, err = tco.ReadCSV([]byte(good), true)
	if err != nil || rs.Len() != 3 || rs.Bad() != nil {
		t.Fatalf("strict read of good rows: %v", err)
	}
	rs.Close()
	// A header that is not the format's fails whatever the mode.
	for _, strict := range []bool{false, true} {
		if _, err := tco.ReadCSV([]byte("start,end,accelerators,gpus\n"), strict); !errors.Is(err, tco.ErrUnknownParam) {
			t.Errorf("unknown column (strict %v): %v", strict, err)
		}
		if _, err := tco.ReadCSV([]byte("start,end\n"), strict); !errors.Is(err, tco.ErrType) {
			t.Errorf("missing column (strict %v): %v", strict, err)
		}
		if _, err := tco.ReadCSV(nil, strict); !errors.Is(err, tco.ErrType) {
			t.Errorf("empty text (strict %v): %v", strict, err)
		}
	}
}

func TestReadSacct(t *testing.T) {
	rs, err := tco.ReadSacct([]byte(usageSacct), true)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	if rs.Len() != 1 || rs.Bad() != nil {
		t.Fatalf("Len = %d, Bad = %v", rs.Len(), rs.Bad())
	}
	r := record(t, rs, 0)
	want := map[string]string{"job_id": "123", "job_name": "train", "account": "llama", "project": "llama",
		"user": "alice", "partition": "gpu"}
	if !r.Start.Equal(nov1) || !r.End.Equal(nov1.Add(2*time.Hour)) || r.Accelerators != 8 ||
		r.Utilisation != -1 || r.PriceClass != tco.Owned || r.State != tco.JobCompleted || len(r.Tags) != len(want) {
		t.Errorf("record = %+v", r)
	}
	for k, v := range want {
		if r.Tags[k] != v {
			t.Errorf("tag %s = %q, want %q", k, r.Tags[k], v)
		}
	}
	// A GPU count that is no whole number: reported leniently, fatal when strict.
	bad := usageSacct + "124|eval|llama|bob|gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=x\n"
	lenient, err := tco.ReadSacct([]byte(bad), false)
	if err != nil {
		t.Fatal(err)
	}
	defer lenient.Close()
	if b := lenient.Bad(); lenient.Len() != 1 || len(b) != 1 || b[0].Line != 3 {
		t.Errorf("lenient: %d records, bad %+v", lenient.Len(), b)
	}
	if _, err := tco.ReadSacct([]byte(bad), true); !errors.Is(err, tco.ErrType) || !strings.Contains(err.Error(), "line 3: ") {
		t.Errorf("strict: %v", err)
	}
}

func TestRecordsClosed(t *testing.T) {
	rs, err := tco.ReadCSV([]byte(usageCSV), false)
	if err != nil {
		t.Fatal(err)
	}
	rs.Close()
	rs.Close()
	if rs.Len() != 0 || rs.Bad() != nil {
		t.Error("a closed set still has records")
	}
	if _, err := rs.Record(0); !errors.Is(err, tco.ErrClosed) {
		t.Errorf("Record on closed: %v", err)
	}
	s := cluster64(t)
	if _, err := s.Attribute(rs, tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: nov1.Add(time.Hour),
		By: []string{"project"}}); !errors.Is(err, tco.ErrClosed) {
		t.Errorf("Attribute on closed: %v", err)
	}
	var none *tco.Records
	if none.Len() != 0 || none.Close() != nil {
		t.Error("nil records")
	}
}

func cluster64(t *testing.T) *tco.Scenario {
	t.Helper()
	s, err := tco.NewScenario(append(rates10, tco.Set("accelerators", 64))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// checkSums checks every sum a bill promises, to the cent.
func checkSums(t *testing.T, a *tco.Attribution, keys int) {
	t.Helper()
	b := a.Bill
	var total, direct, idle, shared, cats tco.Cents
	for _, c := range tco.Categories() {
		cats += b.Category[c.Name]
	}
	if cats != b.Total || b.Direct+b.Idle+b.Shared != b.Total || len(b.Category) != len(tco.Categories()) {
		t.Errorf("bill %v: categories sum to %v, direct+idle+shared %v", b.Total, cats, b.Direct+b.Idle+b.Shared)
	}
	byCat := map[string]tco.Cents{}
	var records uint64
	for _, g := range a.Groups {
		if len(g.Values) != keys {
			t.Errorf("group %q: %d values, want %d", g.Values, len(g.Values), keys)
		}
		var gc tco.Cents
		for name, c := range g.Category {
			gc += c
			byCat[name] += c
		}
		if gc != g.Total || g.Direct+g.Idle+g.Shared != g.Total {
			t.Errorf("group %q: total %v, categories %v, direct+idle+shared %v", g.Values, g.Total, gc,
				g.Direct+g.Idle+g.Shared)
		}
		total += g.Total
		direct += g.Direct
		idle += g.Idle
		shared += g.Shared
		records += g.Records
	}
	// Bill.Records counts the records read, the groups those in the period.
	if total != b.Total || direct != b.Direct || idle != b.Idle || shared != b.Shared ||
		records+b.RecordsOutside != b.Records {
		t.Errorf("groups sum to %v (%v, %v, %v; %d records), bill %+v", total, direct, idle, shared, records, b)
	}
	for name, c := range b.Category {
		if byCat[name] != c {
			t.Errorf("%s: groups sum to %v, bill %v", name, byCat[name], c)
		}
	}
}

func TestAttribute(t *testing.T) {
	rs := readUsage(t)
	s := cluster64(t)
	day := tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: nov1.Add(24 * time.Hour), By: []string{"project"}}
	for _, req := range []tco.AttributionRequest{
		day,
		{PeriodStart: nov1, PeriodEnd: nov1.Add(24 * time.Hour), By: []string{"project", "user"}},
		{PeriodStart: nov1, PeriodEnd: nov1.Add(24 * time.Hour), By: []string{"user"}, Idle: "even", Shared: "usage"},
		{PeriodStart: nov1, PeriodEnd: nov1.Add(24 * time.Hour), By: []string{"project"}, Idle: "owner", Owner: "llama",
			Shared: "owner"},
		{PeriodStart: nov1, PeriodEnd: nov1.Add(24 * time.Hour), By: []string{"project"}, Idle: "owner", Shared: "even"},
		// Clipped: the second record is half in the period.
		{PeriodStart: nov1, PeriodEnd: nov1.Add(150 * time.Minute), By: []string{"project"}},
	} {
		a, err := s.Attribute(rs, req)
		if err != nil {
			t.Fatalf("%+v: %v", req, err)
		}
		if a.Bill.Total <= 0 || a.Bill.Records != 3 || len(a.Groups) == 0 || len(a.Bill.Category) == 0 {
			t.Errorf("%+v: bill %+v, %d groups", req, a.Bill, len(a.Groups))
		}
		checkSums(t, a, len(req.By))
	}

	a, err := s.Attribute(rs, day)
	if err != nil {
		t.Fatal(err)
	}
	// Three groups, largest first: the record without a project, llama, vision.
	want := []struct {
		value string
		held  float64
	}{{"", 128}, {"llama", 16}, {"vision, eval", 24}}
	if len(a.Groups) != len(want) {
		t.Fatalf("%d groups", len(a.Groups))
	}
	for i, w := range want {
		g := a.Groups[i]
		if g.Values[0] != w.value || g.HeldAcceleratorHours != w.held || g.Records != 1 {
			t.Errorf("group %d = %+v, want %q holding %g", i, g, w.value, w.held)
		}
		if i > 0 && g.Total > a.Groups[i-1].Total {
			t.Errorf("group %d is larger than the one before", i)
		}
	}
	if b := a.Bill; b.PeriodHours != 24 || b.CapacityAcceleratorHours != 64*24 || b.HeldAcceleratorHours != 168 ||
		b.RecordsOutside != 0 || b.ClippedAcceleratorHours != 0 {
		t.Errorf("bill %+v", b)
	}
	// All idle capacity to llama.
	a, err = s.Attribute(rs, tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: nov1.Add(24 * time.Hour),
		By: []string{"project"}, Idle: "owner", Owner: "llama"})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range a.Groups {
		if (g.Values[0] == "llama") != (g.Idle == a.Bill.Idle) || (g.Values[0] != "llama" && g.Idle != 0) {
			t.Errorf("group %q has idle %v of %v", g.Values[0], g.Idle, a.Bill.Idle)
		}
	}
}

func TestAttributeErrors(t *testing.T) {
	rs := readUsage(t)
	s := cluster64(t)
	end := nov1.Add(24 * time.Hour)
	for _, c := range []struct {
		req  tco.AttributionRequest
		want error
		says string
	}{
		{tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: nov1, By: []string{"project"}}, tco.ErrRange, "period_end"},
		{tco.AttributionRequest{PeriodStart: end, PeriodEnd: nov1, By: []string{"project"}}, tco.ErrRange, "period_end"},
		{tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: end, By: []string{"project", "user", "job"}}, tco.ErrRange,
			"allowed 1"},
		{tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: end}, tco.ErrRange, "allowed 1"},
		{tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: end, By: []string{"team"}}, tco.ErrIndex, `"team"`},
		// A text of the table that is a value, not a key.
		{tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: end, By: []string{"project", "alice"}}, tco.ErrIndex,
			`By[1] = "alice"`},
		{tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: end, By: []string{"project"}, Idle: "fair"}, tco.ErrRange,
			`allowed "usage", "even", "owner" ("" is "usage")`},
		{tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: end, By: []string{"project"}, Shared: "Even"}, tco.ErrRange,
			`Shared = "Even"`},
		{tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: end, By: []string{"project"}, Idle: "owner", Owner: "nobody"},
			tco.ErrIndex, `Owner = "nobody"`},
		// bob is a user, never a project.
		{tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: end, By: []string{"project"}, Shared: "owner", Owner: "bob"},
			tco.ErrInconsistent, `Owner = "bob"`},
		// No record in the period.
		{tco.AttributionRequest{PeriodStart: end, PeriodEnd: end.Add(time.Hour), By: []string{"project"}},
			tco.ErrInconsistent, "no record"},
	} {
		a, err := s.Attribute(rs, c.req)
		if a != nil || !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v, want %v saying %s", c.req, err, c.want, c.says)
		}
	}
}

func TestCents(t *testing.T) {
	for c, want := range map[tco.Cents]string{0: "0.00", 5: "0.05", 123456: "1234.56", -105: "-1.05",
		-9223372036854775808: "-92233720368547758.08"} {
		if got := c.String(); got != want {
			t.Errorf("Cents(%d) = %s, want %s", int64(c), got, want)
		}
	}
	if tco.Cents(250).Amount() != 2.5 {
		t.Error("Amount")
	}
}

func TestJobStateNames(t *testing.T) {
	states := []tco.JobState{tco.JobCompleted, tco.JobFailed, tco.JobCancelled, tco.JobRunning}
	for i, want := range []string{"completed", "failed", "cancelled", "running"} {
		if got := states[i].String(); got != want {
			t.Errorf("JobState(%d) = %q, want %q", i, got, want)
		}
	}
	if got := tco.JobState(9).String(); got != "JobState(9)" {
		t.Errorf("JobState(9) = %q", got)
	}
}

// Records are immutable: any number of goroutines read them and attribute
// them at once, and get the same answers.
func TestRecordsShared(t *testing.T) {
	rs := readUsage(t)
	s := cluster64(t)
	req := tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: nov1.Add(24 * time.Hour), By: []string{"project", "user"}}
	want, err := s.Attribute(rs, req)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if r, err := rs.Record(i % rs.Len()); err != nil || r.Tags["user"] == "" {
					t.Errorf("Record: %+v, %v", r, err)
				}
				a, err := s.Attribute(rs, req)
				if err != nil || a.Bill.Total != want.Bill.Total || len(a.Groups) != len(want.Groups) {
					t.Errorf("Attribute: %v", err)
				}
			}
		}()
	}
	wg.Wait()
}
