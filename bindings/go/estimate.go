package tco

// #cgo noescape tcogo_estimate
// #cgo nocallback tcogo_estimate
// #include "tco_go.h"
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

// FieldType is the kind of a field of an estimate (tco_field_type).
type FieldType int32

// Field types.
const (
	FieldDouble     FieldType = 1
	FieldUint64     FieldType = 2
	FieldCategories FieldType = 3 // the costs by category
	FieldWastes     FieldType = 4 // the waste by kind
)

// FieldInfo describes one field of an estimate, as the library lists them
// (tco_estimate_field_at): the names are the keys of Estimate.Fields and of
// result files.
type FieldInfo struct {
	Name        string
	Unit        string // "h", "cur", "FLOP"... ("1" for counts and shares)
	Description string
	Type        FieldType
	offset      uintptr
}

// Category is a cost category: its name (the key of Estimate.Costs) and
// description.
type Category struct {
	Name        string
	Description string
}

// layout is what the loaded library says of tco_estimate, read once.
type layout struct {
	fields     []FieldInfo
	categories []Category
	wastes     []string
	doubles    int // how many FieldDouble fields
	uints      int
}

var (
	layoutOnce sync.Once
	est        layout
)

func estimateLayout() *layout {
	layoutOnce.Do(func() {
		var raw C.tco_estimate
		size := unsafe.Sizeof(raw)
		n := int(C.tco_estimate_field_count())
		for i := 0; i < n; i++ {
			var f C.tco_field_info
			f.size = C.size_t(unsafe.Sizeof(f))
			if C.tco_estimate_field_at(&f, C.size_t(i), nil) != 0 {
				continue
			}
			fi := FieldInfo{
				Name:        C.GoString(f.name),
				Unit:        C.GoString(f.unit),
				Description: C.GoString(f.description),
				Type:        FieldType(f._type),
				offset:      uintptr(f.offset),
			}
			// A newer library may list fields past the end of the struct
			// this package was compiled with: they cannot be read here.
			width := uintptr(8)
			switch fi.Type {
			case FieldCategories:
				width = 8 * C.TCO_CATEGORY_SLOTS
			case FieldWastes:
				width = 8 * C.TCO_WASTE_SLOTS
			case FieldDouble:
				est.doubles++
			case FieldUint64:
				est.uints++
			default:
				continue
			}
			if fi.offset%8 != 0 || fi.offset+width > size {
				continue
			}
			est.fields = append(est.fields, fi)
		}
		for c := 0; c < int(C.tco_category_count()) && c < C.TCO_CATEGORY_SLOTS; c++ {
			est.categories = append(est.categories, Category{
				Name:        C.GoString(C.tco_category_name(C.int32_t(c))),
				Description: C.GoString(C.tco_category_description(C.int32_t(c))),
			})
		}
		for w := 0; w < int(C.tco_waste_count()) && w < C.TCO_WASTE_SLOTS; w++ {
			est.wastes = append(est.wastes, C.GoString(C.tco_waste_name(C.int32_t(w))))
		}
	})
	return &est
}

// Flag is one bit of Estimate.Flags as the loaded library names it
// (tco_estimate_flag_name, tco_estimate_flag_description): something the
// estimate assumed, or the input that set a figure.
type Flag struct {
	Bit         uint64 // the bit in Estimate.Flags (TCO_FLAG_*)
	Name        string // "attention_omitted", "time_from_mfu"...
	Description string // one line
}

var (
	flagsOnce sync.Once
	flagTable []Flag
)

// estimateFlags reads the names of the flag bits once: every bit of the
// 64 the library names, in bit order.
func estimateFlags() []Flag {
	flagsOnce.Do(func() {
		for i := 0; i < 64; i++ {
			bit := uint64(1) << i
			name := C.tco_estimate_flag_name(C.uint64_t(bit))
			if name == nil {
				continue
			}
			flagTable = append(flagTable, Flag{
				Bit:         bit,
				Name:        C.GoString(name),
				Description: C.GoString(C.tco_estimate_flag_description(C.uint64_t(bit))),
			})
		}
	})
	return flagTable
}

// EstimateFlags lists the bits of Estimate.Flags the loaded library knows,
// in bit order, with their names and descriptions.
func EstimateFlags() []Flag { return append([]Flag(nil), estimateFlags()...) }

// EstimateFields lists the fields of an estimate as the loaded library
// describes them.
func EstimateFields() []FieldInfo { return append([]FieldInfo(nil), estimateLayout().fields...) }

// Categories lists the cost categories of the loaded library, in order.
func Categories() []Category { return append([]Category(nil), estimateLayout().categories...) }

// byCategory names the values of a by-category C array (money as float64
// or Cents) by the categories the library lists.
func byCategory[T float64 | Cents, E C.double | C.int64_t](v *[C.TCO_CATEGORY_SLOTS]E) map[string]T {
	cats := estimateLayout().categories
	m := make(map[string]T, len(cats))
	for c, cat := range cats {
		m[cat.Name] = T(v[c])
	}
	return m
}

// WasteKinds lists the names of the kinds of waste, in order.
func WasteKinds() []string { return append([]string(nil), estimateLayout().wastes...) }

// Estimate is what a training scenario costs. Amounts are in the pricing
// table's currency, times in hours.
//
// The typed fields (Total, WallHours...) are always set; Cost and Field
// read any category or scalar field by the library's name. The maps are
// built on request, since building them costs several times the
// computation: FillMaps builds them, and ComputeInto, SweepResult.Estimate
// and ComputeOptimal's estimate have them built; Compute, Scenario.Estimate
// and ComputeScalars leave them nil, and a nil map reads 0 for every name.
// Every map is keyed by the library's names, read at run time (Categories,
// WasteKinds, EstimateFields), so a category or field added by a newer
// library shows up without changing this package.
type Estimate struct {
	Total float64            // the sum of Costs
	Costs map[string]float64 // by category ("compute", "power"... "waste"); nil until FillMaps
	Waste map[string]float64 // by kind ("idle", "failures"...); sums to Costs["waste"]; nil until FillMaps
	// Fixed is the part of Costs paid whether the cluster works or not, by
	// category; it sums to Fields["fixed_total"], and the rest follows use.
	// Nil until FillMaps.
	Fixed  map[string]float64
	Fields map[string]float64 // every scalar field by name ("wall_hours", "goodput"...), Total included; nil until FillMaps

	// A few fields typed for convenience (also in Fields, or in Uint64Fields
	// for the integers).
	WallHours            float64 // per run, with stalls, checkpoints and failures
	ComputeHours         float64 // per run, at MFU, without interruptions
	HeldHours            float64 // time the cluster is paid for
	AcceleratorHours     float64 // billed
	Goodput              float64 // ComputeHours / WallHours
	CostPerMillionTokens float64
	CostPerRun           float64
	ScenarioFingerprint  uint64 // of the inputs; 0 in sweep results
	// Flags are the tco_estimate_flag bits of what the estimate assumed or
	// which input set a figure (the time from mfu, hfu, achieved FLOP/s or
	// accelerator-hours; no attention term without layers...). Assumptions
	// names the bits set; EstimateFlags lists them all.
	Flags uint64

	raw C.tco_estimate
}

// reuse empties m for refilling, or makes it.
func reuse(m map[string]float64, n int) map[string]float64 {
	if m == nil {
		return make(map[string]float64, n)
	}
	clear(m)
	return m
}

// fill builds the Go form of a C estimate, reusing e's maps.
func (e *Estimate) fill(raw *C.tco_estimate) {
	e.scalars(raw)
	e.FillMaps()
}

// scalars keeps the C estimate and sets the typed fields from it.
func (e *Estimate) scalars(raw *C.tco_estimate) {
	if raw != &e.raw {
		e.raw = *raw
	}
	e.Total = float64(raw.total)
	e.WallHours = float64(raw.wall_hours)
	e.ComputeHours = float64(raw.compute_hours)
	e.HeldHours = float64(raw.held_hours)
	e.AcceleratorHours = float64(raw.accelerator_hours)
	e.Goodput = float64(raw.goodput)
	e.CostPerMillionTokens = float64(raw.cost_per_million_tokens)
	e.CostPerRun = float64(raw.cost_per_run)
	e.ScenarioFingerprint = uint64(raw.scenario_fingerprint)
	e.Flags = uint64(raw.flags)
}

// FillMaps builds Costs, Fixed, Waste and Fields from the estimate
// computed, reusing e's maps: what Compute and ComputeScalars leave out,
// when it is wanted after all. ComputeInto has called it already.
func (e *Estimate) FillMaps() {
	l := estimateLayout()
	raw := &e.raw
	base := unsafe.Pointer(raw)
	e.Costs = reuse(e.Costs, len(l.categories))
	for i, c := range l.categories {
		e.Costs[c.Name] = float64(raw.cost[i])
	}
	e.Fixed = reuse(e.Fixed, len(l.categories))
	for i, c := range l.categories {
		e.Fixed[c.Name] = float64(raw.fixed[i])
	}
	e.Waste = reuse(e.Waste, len(l.wastes))
	for i, w := range l.wastes {
		e.Waste[w] = float64(raw.waste[i])
	}
	e.Fields = reuse(e.Fields, l.doubles)
	for i := range l.fields {
		f := &l.fields[i]
		if f.Type == FieldDouble {
			e.Fields[f.Name] = *(*float64)(unsafe.Add(base, f.offset))
		}
	}
}

// Assumptions are the names of the bits set in Flags, in bit order, as the
// library spells them ("attention_omitted", "time_from_mfu"...; see
// EstimateFlags for their descriptions). The names are read from the
// library once; each call allocates the slice it returns, so a tight loop
// should test Flags against a Flag's Bit instead.
func (e *Estimate) Assumptions() []string {
	var out []string
	for _, f := range estimateFlags() {
		if e.Flags&f.Bit != 0 {
			out = append(out, f.Name)
		}
	}
	return out
}

// Uint64Fields are the fields of integer type (scenario_fingerprint,
// flags), by name.
func (e *Estimate) Uint64Fields() map[string]uint64 {
	l := estimateLayout()
	out := make(map[string]uint64, l.uints)
	base := unsafe.Pointer(&e.raw)
	for i := range l.fields {
		if f := &l.fields[i]; f.Type == FieldUint64 {
			out[f.Name] = *(*uint64)(unsafe.Add(base, f.offset))
		}
	}
	return out
}

// Cost is the cost of one category ("compute"...; Categories lists them),
// read from the estimate without the maps.
func (e *Estimate) Cost(category string) (float64, error) {
	if err := e.computed(); err != nil {
		return 0, err
	}
	c, err := categoryIndex(category)
	if err != nil {
		return 0, err
	}
	return float64(e.raw.cost[c]), nil
}

// Field is one scalar field by its EstimateFields name ("wall_hours"...),
// read from the estimate without the maps.
func (e *Estimate) Field(name string) (float64, error) {
	if err := e.computed(); err != nil {
		return 0, err
	}
	off, err := doubleField(name)
	if err != nil {
		return 0, err
	}
	return *(*float64)(unsafe.Add(unsafe.Pointer(&e.raw), off)), nil
}

// computed is nil for an estimate this package computed, else the error
// (a zero Estimate would read 0 for everything).
func (e *Estimate) computed() error {
	if e == nil {
		return errArg(StatusNull, "estimate", "the estimate must not be nil")
	}
	if e.raw.size == 0 {
		return errArg(StatusSize, "estimate", "the estimate was not computed by this package")
	}
	return nil
}

// categoryIndex is the slot of a category in the C arrays, or the error
// naming it.
func categoryIndex(category string) (int, error) {
	for c, cat := range estimateLayout().categories {
		if cat.Name == category {
			return c, nil
		}
	}
	return 0, errArg(StatusUnknownParam, category, "no cost category is named \""+category+"\"")
}

// doubleField is the offset of a FieldDouble field in tco_estimate, or the
// error naming it.
func doubleField(name string) (uintptr, error) {
	for _, f := range estimateLayout().fields {
		if f.Name == name && f.Type == FieldDouble {
			return f.offset, nil
		}
	}
	return 0, errArg(StatusUnknownParam, name, "no numeric estimate field is named \""+name+"\"")
}

// Compute prices a training scenario: the cost by category, the waste, the
// time and the unit economics. It sets the typed fields and leaves the maps
// nil (Cost and Field read any category or field without them; FillMaps
// builds them, or ComputeInto). The three handles may be shared with other
// goroutines.
func Compute(t *Topology, w *Workload, p *Pricing) (*Estimate, error) {
	e := &Estimate{}
	if err := compute(e, t, w, p); err != nil {
		return nil, err
	}
	return e, nil
}

// ComputeInto is Compute into an Estimate the caller owns. Its maps are
// cleared and refilled rather than made again, so a loop that reuses one
// Estimate allocates nothing.
func ComputeInto(e *Estimate, t *Topology, w *Workload, p *Pricing) error {
	if err := compute(e, t, w, p); err != nil {
		return err
	}
	e.FillMaps()
	return nil
}

// ComputeScalars is ComputeInto without the maps, Compute into an
// Estimate the caller owns: Costs, Fixed, Waste and Fields are left nil
// until FillMaps builds them from this estimate. On failure e is unchanged.
func ComputeScalars(e *Estimate, t *Topology, w *Workload, p *Pricing) error {
	if err := compute(e, t, w, p); err != nil {
		return err
	}
	e.Costs, e.Fixed, e.Waste, e.Fields = nil, nil, nil, nil
	return nil
}

// compute prices the scenario into e's C struct and typed fields.
func compute(e *Estimate, t *Topology, w *Workload, p *Pricing) error {
	if e == nil {
		return errArg(StatusNull, "estimate", "the estimate must not be nil")
	}
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return err
	}
	// Straight into e's C struct (no copy of it): C leaves it untouched on
	// failure, and the size is put back.
	raw, size := &e.raw, e.raw.size
	raw.size = C.size_t(unsafe.Sizeof(*raw))
	rc := C.tcogo_estimate(raw, cHandle(unsafe.Pointer(ct)), cHandle(unsafe.Pointer(cw)), cHandle(unsafe.Pointer(cp)), nil)
	if rc != 0 {
		// Again for the message: the computation is pure, so it fails the
		// same way, and the success path passes no error struct.
		ce := newCErr()
		rc = C.tcogo_estimate(raw, cHandle(unsafe.Pointer(ct)), cHandle(unsafe.Pointer(cw)), cHandle(unsafe.Pointer(cp)), &ce)
		runtime.KeepAlive(t)
		runtime.KeepAlive(w)
		runtime.KeepAlive(p)
		raw.size = size
		return failure(rc, &ce)
	}
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	e.scalars(raw)
	return nil
}

// Total is the total cost of a scenario alone, without an Estimate: for
// loops that only compare totals.
func Total(t *Topology, w *Workload, p *Pricing) (float64, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return 0, err
	}
	var raw C.tco_estimate
	raw.size = C.size_t(unsafe.Sizeof(raw))
	rc := C.tcogo_estimate(&raw, cHandle(unsafe.Pointer(ct)), cHandle(unsafe.Pointer(cw)), cHandle(unsafe.Pointer(cp)), nil)
	if rc != 0 {
		ce := newCErr()
		rc = C.tcogo_estimate(&raw, cHandle(unsafe.Pointer(ct)), cHandle(unsafe.Pointer(cw)), cHandle(unsafe.Pointer(cp)), &ce)
		err = failure(rc, &ce)
	}
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	return float64(raw.total), err
}

// MarshalCBOR encodes the estimate as a result file (a map keyed by the
// EstimateFields names; doc/format.md), byte for byte what the C library
// and the tco command write.
func (e *Estimate) MarshalCBOR() ([]byte, error) {
	if err := e.computed(); err != nil {
		return nil, err
	}
	raw := e.raw
	var n C.size_t
	ce := newCErr()
	if rc := C.tco_estimate_save_cbor(nil, 0, &n, &raw, &ce); rc != 0 {
		return nil, failure(rc, &ce)
	}
	buf := make([]byte, int(n))
	if rc := C.tco_estimate_save_cbor((*C.uint8_t)(unsafe.Pointer(&buf[0])), n, &n, &raw, &ce); rc != 0 {
		return nil, failure(rc, &ce)
	}
	return buf[:int(n)], nil
}

// SweepResult holds the estimates of a parameter sweep, one per variation,
// with a status each: a variation whose values are out of range or
// inconsistent has a non-zero status and no estimate.
type SweepResult struct {
	Status []Status // per variation: StatusOK or the reason it was not priced
	raw    []C.tco_estimate
	first  error // the first refused variation's error, naming the input (the library's err)
	at     int   // its index
}

// Len is the number of variations.
func (r *SweepResult) Len() int { return len(r.Status) }

// Err is nil if variation i was priced, else an error with its code; the
// first refused variation's names the input and its range, as the
// library's message does.
func (r *SweepResult) Err(i int) error {
	if i < 0 || i >= len(r.Status) {
		return errArg(StatusIndex, "i", "variation index out of range")
	}
	if i == r.at && r.first != nil {
		return r.first
	}
	return r.Status[i].Err()
}

// Estimate is variation i's estimate (its ScenarioFingerprint is 0), or its
// error.
func (r *SweepResult) Estimate(i int) (*Estimate, error) {
	if err := r.Err(i); err != nil {
		return nil, err
	}
	e := &Estimate{}
	e.fill(&r.raw[i])
	return e, nil
}

// Totals is the total cost of every variation (0 where it failed).
func (r *SweepResult) Totals() []float64 {
	out := make([]float64, len(r.raw))
	for i := range r.raw {
		out[i] = float64(r.raw[i].total)
	}
	return out
}

// Field is one scalar field (an EstimateFields name) of every variation,
// as a column (0 where a variation failed).
func (r *SweepResult) Field(name string) ([]float64, error) {
	off, err := doubleField(name)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(r.raw))
	for i := range r.raw {
		out[i] = *(*float64)(unsafe.Add(unsafe.Pointer(&r.raw[i]), off))
	}
	return out, nil
}

// Cost is one category's cost ("compute"...) of every variation.
func (r *SweepResult) Cost(category string) ([]float64, error) {
	c, err := categoryIndex(category)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(r.raw))
	for i := range r.raw {
		out[i] = float64(r.raw[i].cost[c])
	}
	return out, nil
}

// Sweep prices len(values) variations of a scenario in one call, variation
// i with the parameter name set to values[i] (any handle's parameter but a
// TEXT; a CHOICE by its value, which ChoiceValue gives for a name). The error is for arguments that make the whole sweep unusable;
// variations that fail have their Status.
func Sweep(t *Topology, w *Workload, p *Pricing, name string, values []float64) (*SweepResult, error) {
	return SweepMany(t, w, p, []string{name}, values)
}

// SweepMany prices variations that set several parameters: variation i sets
// names[j] to values[i*len(names)+j], so len(values) must be a multiple of
// len(names).
func SweepMany(t *Topology, w *Workload, p *Pricing, names []string, values []float64) (*SweepResult, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return nil, err
	}
	keys := make([]C.int32_t, len(names))
	for j, name := range names {
		row, err := lookup(name)
		if err != nil {
			return nil, err
		}
		keys[j] = C.int32_t(row.Key)
	}
	n := 0
	if len(names) == 0 {
		if len(values) != 0 {
			return nil, errArg(StatusSize, "values", "values given without a parameter name")
		}
	} else {
		if len(values)%len(names) != 0 {
			return nil, errArg(StatusSize, "values", "len(values) is not a multiple of len(names)")
		}
		n = len(values) / len(names)
	}
	r := &SweepResult{Status: make([]Status, n), raw: make([]C.tco_estimate, n)}
	if n == 0 {
		return r, nil
	}
	var keyp *C.int32_t
	var valp *C.double
	if len(keys) > 0 {
		keyp, valp = &keys[0], (*C.double)(unsafe.Pointer(&values[0]))
	}
	ce := newCErr()
	rc := C.tco_estimate_sweep(&r.raw[0], C.size_t(unsafe.Sizeof(r.raw[0])),
		(*C.int32_t)(unsafe.Pointer(&r.Status[0])), C.size_t(n), keyp, C.size_t(len(keys)), valp,
		ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	for i, s := range r.Status {
		if s != StatusOK {
			r.first, r.at = failure(C.int(s), &ce), i
			break
		}
	}
	return r, nil
}
