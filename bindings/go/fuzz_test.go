package tco_test

import (
	"os"
	"path/filepath"
	"testing"

	"libtco.dev/tco"
)

// FuzzLoadCBOR feeds arbitrary bytes to the loaders: an error or a handle
// that saves back to what it read, never a crash. go test runs the seeds
// (the golden scenarios, each handle of the default scenario, and a few
// broken ones); go test -fuzz FuzzLoadCBOR explores further.
func FuzzLoadCBOR(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.cbor"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	s, err := tco.NewScenario()
	if err != nil {
		f.Fatal(err)
	}
	for _, m := range []interface{ MarshalCBOR() ([]byte, error) }{s, s.Topology, s.Workload, s.Pricing} {
		b, err := m.MarshalCBOR()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/3])
	}
	s.Close()
	f.Add([]byte{})
	f.Add([]byte{0xa0})
	f.Add([]byte{0xbf, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		if sc, err := tco.LoadScenarioCBOR(data); err == nil {
			if _, err := sc.MarshalCBOR(); err != nil {
				t.Errorf("a loaded scenario does not save: %v", err)
			}
			sc.Estimate() // may fail (inconsistent together), must not crash
			sc.Close()
		}
		if top, err := tco.LoadTopologyCBOR(data); err == nil {
			top.Close()
		}
		if w, err := tco.LoadWorkloadCBOR(data); err == nil {
			w.Close()
		}
		if p, err := tco.LoadPricingCBOR(data); err == nil {
			p.Close()
		}
	})
}
