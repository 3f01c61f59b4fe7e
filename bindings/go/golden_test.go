package tco_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"libtco.dev/tco"
)

// goldenDir holds the golden scenarios of the C test suite (tests/golden in
// the repository). Outside the repository the test is skipped.
const goldenDir = "../../tests/golden"

// TestGolden loads every golden scenario, checks that it saves back to the
// same bytes, prices it, and checks the result against the committed
// NAME.result.cbor byte for byte (as tests/golden/test_golden.c does) and against
// every value of NAME.result.json bit for bit.
func TestGolden(t *testing.T) {
	results, _ := filepath.Glob(filepath.Join(goldenDir, "*.result.cbor"))
	if len(results) == 0 {
		if _, err := os.Stat(goldenDir); err != nil {
			t.Skipf("no golden files (%v): run inside the libtco repository", err)
		}
		t.Fatalf("no *.result.cbor in %s", goldenDir)
	}
	for _, res := range results {
		name := strings.TrimSuffix(filepath.Base(res), ".result.cbor")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join(goldenDir, name+".cbor"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(res)
			if err != nil {
				t.Fatal(err)
			}
			s, err := tco.LoadScenarioCBOR(in)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			out, err := s.MarshalCBOR()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, in) {
				t.Fatalf("%s.cbor does not save back to the same bytes", name)
			}
			e, err := s.Estimate()
			if err != nil {
				t.Fatal(err)
			}
			e.FillMaps()
			fp, err := s.Fingerprint()
			if err != nil || fp != e.ScenarioFingerprint {
				t.Errorf("fingerprint %x, estimate's %x (%v)", fp, e.ScenarioFingerprint, err)
			}
			got, err := e.MarshalCBOR()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("the result differs from %s.result.cbor (%d and %d bytes); if the change is meant, "+
					"run tests/golden/regenerate.sh", name, len(got), len(want))
			}
			checkResultJSON(t, filepath.Join(goldenDir, name+".result.json"), e)
			checkScenarioJSON(t, filepath.Join(goldenDir, name+".json"), s)
		})
	}
}

// checkResultJSON compares every value of a result file (tco report
// --format json: its schema, currency and units besides) with the estimate.
func checkResultJSON(t *testing.T, path string, e *tco.Estimate) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Logf("no %s: %v", path, err)
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	num := func(v any) float64 {
		f, err := v.(json.Number).Float64()
		if err != nil {
			t.Fatalf("%v: %v", v, err)
		}
		return f
	}
	if doc["schema"] != "libtco-report" || doc["currency"] == "" {
		t.Errorf("schema %v, currency %v", doc["schema"], doc["currency"])
	}
	if fp, _ := doc["scenario_fingerprint"].(string); fp != fmt.Sprintf("%016x", e.ScenarioFingerprint) {
		t.Errorf("scenario_fingerprint %q in the file, %016x in Go", fp, e.ScenarioFingerprint)
	}
	units, _ := doc["units"].(map[string]any)
	if v, _ := doc["schema_version"].(json.Number); v.String() != "1" {
		t.Errorf("schema_version %v", doc["schema_version"])
	}
	delete(doc, "units")
	delete(doc, "schema_version")
	seen := 0
	for k, v := range doc {
		if _, ok := units[k]; !ok && k != "schema" && k != "currency" {
			t.Errorf("%s has no unit", k)
		}
		switch x := v.(type) {
		case map[string]any:
			m := map[string]map[string]float64{"cost": e.Costs, "waste": e.Waste, "fixed": e.Fixed}[k]
			if len(x) != len(m) {
				t.Errorf("%s: %d entries in the file, %d in Go", k, len(x), len(m))
			}
			for c, y := range x {
				if !same(m[c], num(y)) {
					t.Errorf("%s.%s = %v in Go, %v in the file", k, c, m[c], y)
				}
			}
		case json.Number:
			if g, ok := e.Fields[k]; ok {
				if !same(g, num(x)) {
					t.Errorf("%s = %v in Go, %v in the file", k, g, x)
				}
				seen++
			} else if u, ok := e.Uint64Fields()[k]; ok {
				if x.String() != formatUint(u) {
					t.Errorf("%s = %d in Go, %v in the file", k, u, x)
				}
			} else {
				t.Errorf("%s is in the file but not in the estimate", k)
			}
		}
	}
	if seen != len(e.Fields) {
		t.Errorf("%d of %d fields in the file", seen, len(e.Fields))
	}
}

func formatUint(u uint64) string {
	b, _ := json.Marshal(u)
	return string(b)
}

// checkScenarioJSON compares every parameter of the JSON form of the
// scenario with the handles loaded from its CBOR form.
func checkScenarioJSON(t *testing.T, path string, s *tco.Scenario) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Logf("no %s: %v", path, err)
		return
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, h := range []struct {
		name   string
		values func() (map[string]any, error)
	}{{tco.KindTopology.String(), s.Topology.Values}, {tco.KindWorkload.String(), s.Workload.Values},
		{tco.KindPricing.String(), s.Pricing.Values}} {
		file, _ := doc[h.name].(map[string]any)
		got, err := h.values()
		if err != nil {
			t.Fatal(err)
		}
		if len(file) != len(got) {
			t.Errorf("%s: %d parameters in the file, %d in Go", h.name, len(file), len(got))
		}
		for k, v := range file {
			switch x := v.(type) {
			case bool:
				want := 0.0
				if x {
					want = 1
				}
				if got[k] != want {
					t.Errorf("%s.%s = %v in Go, %v in the file", h.name, k, got[k], v)
				}
			case float64:
				if g, ok := got[k].(float64); !ok || !same(g, x) {
					t.Errorf("%s.%s = %v in Go, %v in the file", h.name, k, got[k], v)
				}
			default:
				if got[k] != v {
					t.Errorf("%s.%s = %v in Go, %v in the file", h.name, k, got[k], v)
				}
			}
		}
	}
}
