package tco

// #include "tco_go.h"
import "C"

import (
	"runtime"
	"unsafe"
)

// bptr is the data of b for C, or a stand-in for an empty b (the library
// then reports the empty input).
func bptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return (*C.uint8_t)(unsafe.Pointer(&dummy[0]))
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// saveCBOR runs a save function twice: for the size, then into a buffer of
// that size.
func saveCBOR(save func(buf *C.uint8_t, cap C.size_t, n *C.size_t, e *C.tco_error) C.int) ([]byte, error) {
	var n C.size_t
	ce := newCErr()
	if rc := save(nil, 0, &n, &ce); rc != C.TCO_OK {
		return nil, failure(rc, &ce)
	}
	buf := make([]byte, int(n)+1) // never empty, so &buf[0] exists
	if rc := save((*C.uint8_t)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), &n, &ce); rc != C.TCO_OK {
		return nil, failure(rc, &ce)
	}
	return buf[:int(n)], nil
}

func (h *handle) marshal(what HandleKind) ([]byte, error) {
	p := h.load()
	if p == nil {
		return nil, errClosed(what.String())
	}
	b, err := saveCBOR(func(buf *C.uint8_t, cap C.size_t, n *C.size_t, e *C.tco_error) C.int {
		return C.tcogo_save_cbor(C.int(h.kind), buf, cap, n, p, e)
	})
	runtime.KeepAlive(h)
	return b, err
}

func (h *handle) fingerprint(what HandleKind) (uint64, error) {
	p := h.load()
	if p == nil {
		return 0, errClosed(what.String())
	}
	var fp C.uint64_t
	ce := newCErr()
	rc := C.tcogo_fingerprint(C.int(h.kind), &fp, p, &ce)
	runtime.KeepAlive(h)
	if rc != C.TCO_OK {
		return 0, failure(rc, &ce)
	}
	return uint64(fp), nil
}

// load makes a frozen handle of a kind from CBOR.
func (h *handle) loadCBOR(kind HandleKind, data []byte) error {
	if versionErr != nil {
		return versionErr
	}
	var p unsafe.Pointer
	ce := newCErr()
	rc := C.tcogo_load_cbor(C.int(kind), &p, bptr(data), C.size_t(len(data)), &ce)
	runtime.KeepAlive(data)
	if rc != C.TCO_OK {
		return failure(rc, &ce)
	}
	if err := configure(kind, p, nil); err != nil { // freeze; frees p on failure
		return err
	}
	h.adopt(kind, p)
	return nil
}

// MarshalCBOR encodes the topology as canonical CBOR (doc/format.md): every
// parameter, keys in a fixed order, so equal topologies give equal bytes.
func (t *Topology) MarshalCBOR() ([]byte, error) {
	if t == nil {
		return nil, errClosed(KindTopology.String())
	}
	return t.h.marshal(KindTopology)
}

// MarshalCBOR encodes the workload as canonical CBOR.
func (w *Workload) MarshalCBOR() ([]byte, error) {
	if w == nil {
		return nil, errClosed(KindWorkload.String())
	}
	return w.h.marshal(KindWorkload)
}

// MarshalCBOR encodes the pricing table as canonical CBOR.
func (p *Pricing) MarshalCBOR() ([]byte, error) {
	if p == nil {
		return nil, errClosed(KindPricing.String())
	}
	return p.h.marshal(KindPricing)
}

// Fingerprint is the XXH3-64 of the topology's canonical encoding, the
// same on every platform and in every binding.
func (t *Topology) Fingerprint() (uint64, error) {
	if t == nil {
		return 0, errClosed(KindTopology.String())
	}
	return t.h.fingerprint(KindTopology)
}

// Fingerprint is the XXH3-64 of the workload's canonical encoding.
func (w *Workload) Fingerprint() (uint64, error) {
	if w == nil {
		return 0, errClosed(KindWorkload.String())
	}
	return w.h.fingerprint(KindWorkload)
}

// Fingerprint is the XXH3-64 of the pricing table's canonical encoding.
func (p *Pricing) Fingerprint() (uint64, error) {
	if p == nil {
		return 0, errClosed(KindPricing.String())
	}
	return p.h.fingerprint(KindPricing)
}

// LoadTopologyCBOR reads a topology saved by MarshalCBOR (or by any
// binding), and freezes it. Keys the data lacks keep their defaults.
func LoadTopologyCBOR(data []byte) (*Topology, error) {
	t := &Topology{}
	if err := t.h.loadCBOR(KindTopology, data); err != nil {
		return nil, err
	}
	return t, nil
}

// LoadWorkloadCBOR reads a workload, and freezes it.
func LoadWorkloadCBOR(data []byte) (*Workload, error) {
	w := &Workload{}
	if err := w.h.loadCBOR(KindWorkload, data); err != nil {
		return nil, err
	}
	return w, nil
}

// LoadPricingCBOR reads a pricing table, and freezes it.
func LoadPricingCBOR(data []byte) (*Pricing, error) {
	p := &Pricing{}
	if err := p.h.loadCBOR(KindPricing, data); err != nil {
		return nil, err
	}
	return p, nil
}

// Scenario is the three handles of one training scenario. Its methods are
// shorthands for the package functions that take the three.
type Scenario struct {
	Topology *Topology
	Workload *Workload
	Pricing  *Pricing
}

// NewScenario makes a frozen scenario from the defaults and the options;
// each option goes to the handle its parameter belongs to.
func NewScenario(opts ...Option) (*Scenario, error) {
	var byKind [4][]Option
	for _, o := range opts {
		row, err := lookup(o.name)
		if err != nil {
			return nil, err
		}
		if row.Handle >= KindTopology && row.Handle <= KindPricing {
			byKind[row.Handle] = append(byKind[row.Handle], o)
		}
	}
	s := &Scenario{}
	var err error
	if s.Topology, err = NewTopology(byKind[KindTopology]...); err != nil {
		return nil, err
	}
	if s.Workload, err = NewWorkload(byKind[KindWorkload]...); err != nil {
		s.Close()
		return nil, err
	}
	if s.Pricing, err = NewPricing(byKind[KindPricing]...); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// With returns a new scenario: copies of the three handles with the options
// applied to the handles they belong to. s is unchanged; close both.
func (s *Scenario) With(opts ...Option) (*Scenario, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	var byKind [4][]Option
	for _, o := range opts {
		row, err := lookup(o.name)
		if err != nil {
			return nil, err
		}
		if row.Handle >= KindTopology && row.Handle <= KindPricing {
			byKind[row.Handle] = append(byKind[row.Handle], o)
		}
	}
	c := &Scenario{}
	var err error
	if c.Topology, err = s.Topology.With(byKind[KindTopology]...); err != nil {
		return nil, err
	}
	if c.Workload, err = s.Workload.With(byKind[KindWorkload]...); err != nil {
		c.Close()
		return nil, err
	}
	if c.Pricing, err = s.Pricing.With(byKind[KindPricing]...); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// LoadScenarioCBOR reads a whole scenario (the three handles and the format
// version in one map), and freezes it.
func LoadScenarioCBOR(data []byte) (*Scenario, error) {
	if versionErr != nil {
		return nil, versionErr
	}
	var t *C.tco_topology
	var w *C.tco_workload
	var p *C.tco_pricing
	ce := newCErr()
	rc := C.tco_scenario_load_cbor(&t, &w, &p, bptr(data), C.size_t(len(data)), &ce)
	runtime.KeepAlive(data)
	if rc != C.TCO_OK {
		return nil, failure(rc, &ce)
	}
	err := configure(KindTopology, unsafe.Pointer(t), nil)
	if err != nil {
		C.tco_workload_free(w)
		C.tco_pricing_free(p)
		return nil, err
	}
	if err = configure(KindWorkload, unsafe.Pointer(w), nil); err != nil {
		C.tco_topology_free(t)
		C.tco_pricing_free(p)
		return nil, err
	}
	if err = configure(KindPricing, unsafe.Pointer(p), nil); err != nil {
		C.tco_topology_free(t)
		C.tco_workload_free(w)
		return nil, err
	}
	s := &Scenario{Topology: &Topology{}, Workload: &Workload{}, Pricing: &Pricing{}}
	s.Topology.h.adopt(KindTopology, unsafe.Pointer(t))
	s.Workload.h.adopt(KindWorkload, unsafe.Pointer(w))
	s.Pricing.h.adopt(KindPricing, unsafe.Pointer(p))
	return s, nil
}

// MarshalCBOR encodes the scenario as canonical CBOR: what LoadScenarioCBOR
// reads, byte for byte what the C library and the other bindings write.
func (s *Scenario) MarshalCBOR() ([]byte, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	ct, cw, cp, err := handles(s.Topology, s.Workload, s.Pricing)
	if err != nil {
		return nil, err
	}
	b, err := saveCBOR(func(buf *C.uint8_t, cap C.size_t, n *C.size_t, e *C.tco_error) C.int {
		return C.tco_scenario_save_cbor(buf, cap, n, ct, cw, cp, e)
	})
	runtime.KeepAlive(s.Topology)
	runtime.KeepAlive(s.Workload)
	runtime.KeepAlive(s.Pricing)
	return b, err
}

// ScenarioFingerprint is the fingerprint of a scenario: it combines the
// three handles' (doc/format.md), and is the ScenarioFingerprint of its
// estimate.
func ScenarioFingerprint(t *Topology, w *Workload, p *Pricing) (uint64, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return 0, err
	}
	var fp C.uint64_t
	ce := newCErr()
	rc := C.tco_scenario_fingerprint(&fp, ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != C.TCO_OK {
		return 0, failure(rc, &ce)
	}
	return uint64(fp), nil
}

// Fingerprint is the scenario's fingerprint (ScenarioFingerprint).
func (s *Scenario) Fingerprint() (uint64, error) {
	if s == nil {
		return 0, errClosed("scenario")
	}
	return ScenarioFingerprint(s.Topology, s.Workload, s.Pricing)
}

// Estimate prices the scenario (Compute: the maps are left nil until
// FillMaps).
func (s *Scenario) Estimate() (*Estimate, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	return Compute(s.Topology, s.Workload, s.Pricing)
}

// Sweep prices variations of the scenario with one parameter set to each
// of values (Sweep).
func (s *Scenario) Sweep(name string, values []float64) (*SweepResult, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	return Sweep(s.Topology, s.Workload, s.Pricing, name, values)
}

// Close closes the three handles; it may be called more than once.
func (s *Scenario) Close() error {
	if s != nil {
		s.Topology.Close()
		s.Workload.Close()
		s.Pricing.Close()
	}
	return nil
}
