package tco

// #include "tco_go.h"
import "C"

import (
	"runtime"
	"strconv"
	"sync/atomic"
	"unsafe"
)

// Option sets one parameter of a handle under construction: Set, SetInt,
// SetBool and SetText make them. Parameter names are the library's (see
// Params); a name of another handle's parameter fails with ErrWrongHandle,
// an unknown name with ErrUnknownParam.
type Option struct {
	name   string
	value  float64
	text   string
	isText bool
	isBool bool // from SetBool: only a BOOL parameter takes it
}

// Set sets a number: a REAL, an INT, a BOOL (0 or 1), or a CHOICE by its
// value.
func Set(name string, value float64) Option { return Option{name: name, value: value} }

// SetInt sets a whole number.
func SetInt(name string, value int) Option { return Option{name: name, value: float64(value)} }

// SetBool sets a BOOL parameter.
func SetBool(name string, value bool) Option {
	o := Option{name: name, isBool: true}
	if value {
		o.value = 1
	}
	return o
}

// SetText sets a TEXT parameter, or a CHOICE by its name ("B200",
// "liquid", "fp8"; exact and case-sensitive).
func SetText(name, text string) Option { return Option{name: name, text: text, isText: true} }

// Name is the parameter the option sets.
func (o Option) Name() string { return o.name }

func (o Option) String() string {
	if o.isText {
		return o.name + "=" + strconv.Quote(o.text)
	}
	return o.name + "=" + strconv.FormatFloat(o.value, 'g', -1, 64)
}

// handle is what the three handle types share: the C pointer (nil once
// closed, swapped atomically so that Close is idempotent even when called
// concurrently) and the cleanup that frees it if Close never is.
type handle struct {
	_       noCopy
	ptr     unsafe.Pointer
	kind    HandleKind
	cleanup runtime.Cleanup
}

// noCopy makes go vet's copylocks check report a handle copied by value:
// two copies would free the same C handle.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

func (h *handle) load() unsafe.Pointer { return atomic.LoadPointer(&h.ptr) }

func (h *handle) close() {
	if p := atomic.SwapPointer(&h.ptr, nil); p != nil {
		h.cleanup.Stop()
		C.tcogo_free(C.int(h.kind), p)
	}
}

func freeHandle(kind HandleKind) func(unsafe.Pointer) {
	return func(p unsafe.Pointer) { C.tcogo_free(C.int(kind), p) }
}

// newC makes an unfrozen C handle of a kind, from defaults or as a clone.
func newC(kind HandleKind, src unsafe.Pointer) (unsafe.Pointer, error) {
	if versionErr != nil {
		return nil, versionErr
	}
	var p unsafe.Pointer
	e := newCErr()
	var rc C.int
	if src == nil {
		rc = C.tcogo_new(C.int(kind), &p, &e)
	} else {
		rc = C.tcogo_clone(C.int(kind), &p, src, &e)
	}
	if rc != C.TCO_OK {
		return nil, failure(rc, &e)
	}
	return p, nil
}

// configure sets the options on an unfrozen C handle and freezes it; on
// failure it frees the handle.
func configure(kind HandleKind, p unsafe.Pointer, opts []Option) error {
	for _, o := range opts {
		if err := setOne(kind, p, o); err != nil {
			C.tcogo_free(C.int(kind), p)
			return err
		}
	}
	e := newCErr()
	if rc := C.tcogo_freeze(C.int(kind), p, &e); rc != C.TCO_OK {
		C.tcogo_free(C.int(kind), p)
		return failure(rc, &e)
	}
	return nil
}

func setOne(kind HandleKind, p unsafe.Pointer, o Option) error {
	row, err := lookup(o.name)
	if err != nil {
		return err
	}
	if o.isBool && row.Type != TypeBool { // a bool is no number, as in C and Python
		return &Error{Code: StatusType, Param: row.Key, ParamName: row.Name,
			Message: row.Name + " is a " + row.Type.String() + " parameter: SetBool sets only a bool one"}
	}
	e := newCErr()
	var rc C.int
	if o.isText {
		s, err := cText(o.text, row.Name, row.Key)
		if err != nil {
			return err
		}
		rc = C.tcogo_set_text(C.int(kind), p, C.int32_t(row.Key), s, &e)
		C.free(unsafe.Pointer(s))
	} else {
		rc = C.tcogo_set(C.int(kind), p, C.int32_t(row.Key), C.double(o.value), &e)
	}
	return failure(rc, &e)
}

// build makes a frozen handle of a kind from src (nil: the defaults) and
// the options, and registers its cleanup on owner.
func (h *handle) build(kind HandleKind, src unsafe.Pointer, opts []Option) error {
	p, err := newC(kind, src)
	if err != nil {
		return err
	}
	if err := configure(kind, p, opts); err != nil {
		return err
	}
	h.adopt(kind, p)
	return nil
}

// adopt takes ownership of a frozen C handle. The cleanup is registered on
// the handle struct, which lives inside the Go wrapper: a wrapper that is
// dropped without Close is freed by the garbage collector.
func (h *handle) adopt(kind HandleKind, p unsafe.Pointer) {
	h.kind = kind
	h.ptr = p
	h.cleanup = runtime.AddCleanup(h, freeHandle(kind), p)
}

func (h *handle) get(name string) (float64, error) {
	row, err := lookup(name)
	if err != nil {
		return 0, err
	}
	p := h.load()
	if p == nil {
		return 0, errClosed(h.kind.String())
	}
	var v C.double
	e := newCErr()
	rc := C.tcogo_get(C.int(h.kind), p, C.int32_t(row.Key), &v, &e)
	runtime.KeepAlive(h)
	if rc != C.TCO_OK {
		return 0, failure(rc, &e)
	}
	return float64(v), nil
}

func (h *handle) getText(name string) (string, error) {
	row, err := lookup(name)
	if err != nil {
		return "", err
	}
	p := h.load()
	if p == nil {
		return "", errClosed(h.kind.String())
	}
	var buf [C.TCO_TEXT_MAX]C.char
	e := newCErr()
	rc := C.tcogo_get_text(C.int(h.kind), p, C.int32_t(row.Key), &buf[0], &e)
	runtime.KeepAlive(h)
	if rc != C.TCO_OK {
		return "", failure(rc, &e)
	}
	return C.GoString(&buf[0]), nil
}

// values reads every parameter of the handle's kind.
func (h *handle) values() (map[string]any, error) {
	out := map[string]any{}
	for _, row := range params().list {
		if row.Handle != h.kind {
			continue
		}
		var v any
		var err error
		if row.Type == TypeText || row.Type == TypeChoice {
			v, err = h.getText(row.Name)
		} else {
			v, err = h.get(row.Name)
		}
		if err != nil {
			return nil, err
		}
		out[row.Name] = v
	}
	return out, nil
}

// Topology is a frozen cluster topology: accelerators, nodes, fabric,
// storage, power and cooling, reliability, and how the cluster is paid for.
// It is immutable, so any number of goroutines may use it at once. Close
// frees it; if it is never closed, the garbage collector frees it.
type Topology struct{ h handle }

// Workload is a frozen workload profile: the model, the data, parallelism,
// checkpoints, monitoring and the runs. Immutable and shareable; see
// Topology.
type Workload struct{ h handle }

// Pricing is a frozen pricing table: rates, purchase prices, energy,
// transfer and storage prices, staff, and the budget. Immutable and
// shareable; see Topology.
type Pricing struct{ h handle }

// NewTopology makes a topology from the built-in defaults and the options,
// and freezes it.
func NewTopology(opts ...Option) (*Topology, error) {
	t := &Topology{}
	if err := t.h.build(KindTopology, nil, opts); err != nil {
		return nil, err
	}
	return t, nil
}

// NewWorkload makes a workload profile from the built-in defaults and the
// options, and freezes it.
func NewWorkload(opts ...Option) (*Workload, error) {
	w := &Workload{}
	if err := w.h.build(KindWorkload, nil, opts); err != nil {
		return nil, err
	}
	return w, nil
}

// NewPricing makes a pricing table from the built-in defaults and the
// options, and freezes it.
func NewPricing(opts ...Option) (*Pricing, error) {
	p := &Pricing{}
	if err := p.h.build(KindPricing, nil, opts); err != nil {
		return nil, err
	}
	return p, nil
}

// With returns a new frozen topology: a copy of t with the options applied.
// t is unchanged; close both.
func (t *Topology) With(opts ...Option) (*Topology, error) {
	src, err := t.ptr()
	if err != nil {
		return nil, err
	}
	c := &Topology{}
	err = c.h.build(KindTopology, unsafe.Pointer(src), opts)
	runtime.KeepAlive(t)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// With returns a new frozen workload: a copy of w with the options applied.
func (w *Workload) With(opts ...Option) (*Workload, error) {
	src, err := w.ptr()
	if err != nil {
		return nil, err
	}
	c := &Workload{}
	err = c.h.build(KindWorkload, unsafe.Pointer(src), opts)
	runtime.KeepAlive(w)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// With returns a new frozen pricing table: a copy of p with the options
// applied.
func (p *Pricing) With(opts ...Option) (*Pricing, error) {
	src, err := p.ptr()
	if err != nil {
		return nil, err
	}
	c := &Pricing{}
	err = c.h.build(KindPricing, unsafe.Pointer(src), opts)
	runtime.KeepAlive(p)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Close frees the topology. It may be called more than once; calls after
// the first do nothing, and every other method then returns an error
// matching ErrClosed. Close must not run while another goroutine is still
// using the topology.
func (t *Topology) Close() error {
	if t != nil {
		t.h.close()
	}
	return nil
}

// Close frees the workload; see Topology.Close.
func (w *Workload) Close() error {
	if w != nil {
		w.h.close()
	}
	return nil
}

// Close frees the pricing table; see Topology.Close.
func (p *Pricing) Close() error {
	if p != nil {
		p.h.close()
	}
	return nil
}

// Get reads a number (or a CHOICE's value) by parameter name.
func (t *Topology) Get(name string) (float64, error) {
	if t == nil {
		return 0, errClosed(KindTopology.String())
	}
	return t.h.get(name)
}

// GetText reads a TEXT parameter, or a CHOICE's name.
func (t *Topology) GetText(name string) (string, error) {
	if t == nil {
		return "", errClosed(KindTopology.String())
	}
	return t.h.getText(name)
}

// Values reads every parameter of the topology: float64 for numbers,
// string for TEXT and CHOICE parameters.
func (t *Topology) Values() (map[string]any, error) {
	if t == nil {
		return nil, errClosed(KindTopology.String())
	}
	return t.h.values()
}

// Get reads a number (or a CHOICE's value) by parameter name.
func (w *Workload) Get(name string) (float64, error) {
	if w == nil {
		return 0, errClosed(KindWorkload.String())
	}
	return w.h.get(name)
}

// GetText reads a TEXT parameter, or a CHOICE's name.
func (w *Workload) GetText(name string) (string, error) {
	if w == nil {
		return "", errClosed(KindWorkload.String())
	}
	return w.h.getText(name)
}

// Values reads every parameter of the workload; see Topology.Values.
func (w *Workload) Values() (map[string]any, error) {
	if w == nil {
		return nil, errClosed(KindWorkload.String())
	}
	return w.h.values()
}

// Get reads a number (or a CHOICE's value) by parameter name.
func (p *Pricing) Get(name string) (float64, error) {
	if p == nil {
		return 0, errClosed(KindPricing.String())
	}
	return p.h.get(name)
}

// GetText reads a TEXT parameter ("currency"), or a CHOICE's name.
func (p *Pricing) GetText(name string) (string, error) {
	if p == nil {
		return "", errClosed(KindPricing.String())
	}
	return p.h.getText(name)
}

// Values reads every parameter of the pricing table; see Topology.Values.
func (p *Pricing) Values() (map[string]any, error) {
	if p == nil {
		return nil, errClosed(KindPricing.String())
	}
	return p.h.values()
}

// ptr is the C handle, or an error if t is nil or closed. The caller keeps
// t alive (runtime.KeepAlive) until C is done with the pointer.
func (t *Topology) ptr() (*C.tco_topology, error) {
	if t == nil {
		return nil, errClosed(KindTopology.String())
	}
	p := t.h.load()
	if p == nil {
		return nil, errClosed(KindTopology.String())
	}
	return (*C.tco_topology)(p), nil
}

func (w *Workload) ptr() (*C.tco_workload, error) {
	if w == nil {
		return nil, errClosed(KindWorkload.String())
	}
	p := w.h.load()
	if p == nil {
		return nil, errClosed(KindWorkload.String())
	}
	return (*C.tco_workload)(p), nil
}

func (p *Pricing) ptr() (*C.tco_pricing, error) {
	if p == nil {
		return nil, errClosed(KindPricing.String())
	}
	q := p.h.load()
	if q == nil {
		return nil, errClosed(KindPricing.String())
	}
	return (*C.tco_pricing)(q), nil
}

// cHandle is a C handle as the integer the hot calls take (tco_go.h says
// why). Only C memory goes through it, never Go memory.
func cHandle(p unsafe.Pointer) C.uintptr_t { return C.uintptr_t(uintptr(p)) }

// handles returns the three C handles, or the error of the first that is
// nil or closed.
func handles(t *Topology, w *Workload, p *Pricing) (*C.tco_topology, *C.tco_workload, *C.tco_pricing, error) {
	ct, err := t.ptr()
	if err != nil {
		return nil, nil, nil, err
	}
	cw, err := w.ptr()
	if err != nil {
		return nil, nil, nil, err
	}
	cp, err := p.ptr()
	if err != nil {
		return nil, nil, nil, err
	}
	return ct, cw, cp, nil
}
