package tco_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"libtco.dev/tco"
)

// monthDir holds the example month (examples/month): five teams' records
// for 2026-11 and the 128-accelerator cluster of cluster.json.
const monthDir = "../../examples/month"

func month(t *testing.T) (*tco.Records, *tco.Scenario, tco.AttributionRequest) {
	t.Helper()
	text, err := os.ReadFile(monthDir + "/month.csv")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := tco.ReadCSV(text, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	// cluster.json, set here (the Go binding loads CBOR scenarios only).
	s, err := tco.NewScenario(append(rates10, tco.Set("accelerators", 128), tco.Set("reserved_share", 0.75),
		tco.Set("storage_hot_per_gb_month", 0.1))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	req := tco.AttributionRequest{PeriodStart: nov1, PeriodEnd: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		By: []string{"team"}}
	return rs, s, req
}

func TestFindWaste(t *testing.T) {
	rs, s, req := month(t)
	w, err := s.FindWaste(rs, req, tco.DefaultWasteRequest())
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[tco.FindingKind]bool{}
	sum := 0.0
	for i, f := range w.Findings {
		kinds[f.Kind] = true
		sum += f.Cost
		if i > 0 && f.Cost > w.Findings[i-1].Cost {
			t.Errorf("finding %d costs more than the one before", i)
		}
		if f.Kind.Action() == "" || f.Kind.String() == "" {
			t.Errorf("finding %d: kind %d has no name or action", i, f.Kind)
		}
	}
	if len(kinds) != 8 || math.Abs(sum-w.Total) > 1e-6*w.Total {
		t.Errorf("%d kinds, total %v against %v", len(kinds), w.Total, sum)
	}
	if f := w.Findings[0]; f.Kind != tco.FindingIdleCapacity || f.Record != -1 || f.Group != "" {
		t.Errorf("first finding %+v, want the idle capacity", f)
	}
	// The deadline overrun, hand-worked: 32 reserved accelerators at 2.5
	// from its deadline, 2026-11-20T18:00Z, to midnight: 6 x 32 x 2.5.
	for _, f := range w.Findings {
		if f.Kind != tco.FindingOverrun {
			continue
		}
		r, err := rs.Record(f.Record)
		if err != nil {
			t.Fatal(err)
		}
		if f.Group != "llm" || math.Abs(f.Cost-480) > 1e-9 || !f.Since.Equal(time.Date(2026, 11, 20, 18, 0, 0, 0, time.UTC)) ||
			r.Tags["job_name"] != "llama-ft-final" {
			t.Errorf("overrun %+v of %v", f, r.Tags)
		}
	}

	off := tco.DefaultWasteRequest()
	off.RerunHours = 0
	w, err = s.FindWaste(rs, req, off)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range w.Findings {
		if f.Kind == tco.FindingRerun {
			t.Fatal("RerunHours = 0 still finds reruns")
		}
	}
	bad := tco.DefaultWasteRequest()
	bad.IdleHours = -1
	var e *tco.Error
	if _, err := s.FindWaste(rs, req, bad); !errors.As(err, &e) || e.Code != tco.StatusRange ||
		e.ParamName != "request.idle_hours" {
		t.Errorf("IdleHours -1: %v", err)
	}
}

func TestFOCUS(t *testing.T) {
	rs, s, req := month(t)
	a, err := s.Attribute(rs, req)
	if err != nil {
		t.Fatal(err)
	}
	text, err := s.FOCUS(rs, req, tco.FocusRequest{BillingAccountID: "gpu-1", RegionID: "eu-west"})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	// The rows re-summed per team are each group's cents, exactly.
	cents := map[string]tco.Cents{}
	for _, row := range rows[1:] {
		v, err := strconv.ParseFloat(row[col["BilledCost"]], 64)
		if err != nil {
			t.Fatal(err)
		}
		cents[row[col["SubAccountId"]]] += tco.Cents(math.Round(v * 100))
		if row[col["BillingAccountId"]] != "gpu-1" || row[col["RegionId"]] != "eu-west" {
			t.Fatalf("row %v", row)
		}
	}
	for _, g := range a.Groups {
		if cents[g.Values[0]] != g.Total {
			t.Errorf("%s: rows %v, group %v", g.Values[0], cents[g.Values[0]], g.Total)
		}
	}
	if _, err := s.FOCUS(rs, req, tco.FocusRequest{ProviderName: "a\nb"}); err == nil {
		t.Error("a provider name with a line break is accepted")
	}
}
