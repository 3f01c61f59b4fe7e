package tco

// #include "tco_go.h"
import "C"

import (
	"runtime"
	"strconv"
	"sync/atomic"
	"unsafe"
)

// Attribution in parts (doc/model.md, section 16): records too many for
// one call, or spread over machines, attributed share by share, merged
// and settled into exactly the bill Attribute gives for all of them.

// AttributionPart is a share of the records attributed apart
// (tco_attribution_part): each group's sums by the texts of its values,
// not its records. Parts merge in any order and any grouping into the
// same bill, to the cent. Merge changes the part and must not run while
// another goroutine uses it or merges from it; the other methods may run
// at once from any number of goroutines. Close frees it; if it is never
// closed, the garbage collector does.
type AttributionPart struct {
	_       noCopy
	ptr     unsafe.Pointer // *C.tco_attribution_part; nil once closed
	cleanup runtime.Cleanup
	by      []string // the grouping keys, for the groups' Values
}

// AttributePart attributes a share of the records as Attribute does, but
// stops before spreading idle capacity and shared services, which need
// every share (tco_attribute_part). Every share must be given the same
// request: the whole's period, keys, rules and owner. The keys and the
// owner are texts that the share's records need not carry, so By is not
// checked against them (a key no record of any share has makes groups of
// ""). The records of one job_id must be in one share: their overlaps are
// found within it. Errors are Attribute's, but for the checks of By and
// Owner against the records.
func AttributePart(r *Records, req AttributionRequest, t *Topology, w *Workload, p *Pricing) (*AttributionPart, error) {
	cr, err := r.c()
	if err != nil {
		return nil, err
	}
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(r)
	q, tags, err := shareRequest(cr, &req)
	if err != nil {
		return nil, err
	}
	if tags != C.tco_records_tags(cr) {
		defer C.tco_tags_free(tags)
	}
	var npairs C.size_t
	pairs := C.tco_records_tag_pairs(cr, &npairs)
	var part *C.tco_attribution_part
	ce := newCErr()
	rc := C.tco_attribute_part(&part, C.tco_records_data(cr), C.tco_records_count(cr), pairs, npairs, tags, &q,
		ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return nil, requestFailure(failure(rc, &ce), &q, &req)
	}
	return adoptPart(part, append([]string(nil), req.By...)), nil
}

// AttributePart attributes a share of the records priced by the scenario
// (AttributePart).
func (s *Scenario) AttributePart(r *Records, req AttributionRequest) (*AttributionPart, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	return AttributePart(r, req, s.Topology, s.Workload, s.Pricing)
}

// shareRequest is req as the library reads it for a share of the records:
// the keys and the owner as ids of the records' tags table, or, when some
// text is none of it, of a copy of that table with the texts added (the
// caller frees the table returned unless it is the records').
func shareRequest(cr *C.tco_records, req *AttributionRequest) (C.tco_attribution_request, *C.tco_tags, error) {
	var q C.tco_attribution_request
	q.size = C.size_t(unsafe.Sizeof(q))
	q.period_start = C.double(seconds(req.PeriodStart))
	q.period_end = C.double(seconds(req.PeriodEnd))
	if len(req.By) != 1 && len(req.By) != 2 {
		return q, nil, errArg(StatusRange, "By", "By holds "+strconv.Itoa(len(req.By))+
			" keys: allowed 1 (one key) or 2 (pairs)")
	}
	q.by_count = C.uint32_t(len(req.By))
	var err error
	if q.idle_rule, err = spreadRule("Idle", req.Idle); err != nil {
		return q, nil, err
	}
	if q.shared_rule, err = spreadRule("Shared", req.Shared); err != nil {
		return q, nil, err
	}
	type text struct {
		s, field string
		to       *C.uint32_t
	}
	texts := make([]text, 0, 3)
	for k, key := range req.By {
		texts = append(texts, text{key, "By[" + strconv.Itoa(k) + "]", &q.by_key[k]})
	}
	q.owner_value = C.TCO_TAG_NONE
	if req.Owner != "" && (q.idle_rule == C.TCO_SPREAD_OWNER || q.shared_rule == C.TCO_SPREAD_OWNER) {
		texts = append(texts, text{req.Owner, "Owner", &q.owner_value})
	}
	tags := C.tco_records_tags(cr)
	var missing []text
	for _, t := range texts {
		id, ok, err := findTag(cr, t.s, t.field)
		if err != nil {
			return q, nil, err
		}
		if !ok {
			missing = append(missing, t)
			continue
		}
		*t.to = id
	}
	if len(missing) == 0 {
		return q, tags, nil
	}
	var own *C.tco_tags
	ce := newCErr()
	if rc := C.tcogo_tags_copy(&own, tags, &ce); rc != 0 {
		return q, nil, failure(rc, &ce)
	}
	for _, t := range missing {
		s, _ := cText(t.s, t.field, 0) // findTag refused a NUL already
		rc := C.tco_tags_intern(own, s, C.size_t(len(t.s)), t.to, &ce)
		C.free(unsafe.Pointer(s))
		if rc != 0 {
			C.tco_tags_free(own)
			e := failure(rc, &ce).(*Error)
			e.ParamName = t.field
			e.Message = t.field + " = " + strconv.Quote(t.s) + ": " + e.Message
			return q, nil, e
		}
	}
	return q, own, nil
}

func adoptPart(p *C.tco_attribution_part, by []string) *AttributionPart {
	a := &AttributionPart{ptr: unsafe.Pointer(p), by: by}
	a.cleanup = runtime.AddCleanup(a, func(p *C.tco_attribution_part) { C.tco_attribution_part_free(p) }, p)
	return a
}

func (a *AttributionPart) c() (*C.tco_attribution_part, error) {
	if a == nil {
		return nil, errClosed("attribution part")
	}
	p := atomic.LoadPointer(&a.ptr)
	if p == nil {
		return nil, errClosed("attribution part")
	}
	return (*C.tco_attribution_part)(p), nil
}

// Close frees the part. It may be called more than once; other methods
// then return an error matching ErrClosed. It must not run while another
// goroutine is still using the part.
func (a *AttributionPart) Close() error {
	if a == nil {
		return nil
	}
	if p := atomic.SwapPointer(&a.ptr, nil); p != nil {
		a.cleanup.Stop()
		C.tco_attribution_part_free((*C.tco_attribution_part)(p))
	}
	return nil
}

// By is the keys the part groups by (the request's By).
func (a *AttributionPart) By() []string { return append([]string(nil), a.by...) }

// Merge adds from's records to a's (tco_attribution_part_merge); from is
// unchanged. Both must come from the same inputs, period, keys, rules and
// owner, else ErrInconsistent naming what differs; sums past what an
// exact sum holds fail with ErrRange. On failure a is unchanged.
func (a *AttributionPart) Merge(from *AttributionPart) error {
	into, err := a.c()
	if err != nil {
		return err
	}
	f, err := from.c()
	if err != nil {
		return err
	}
	ce := newCErr()
	rc := C.tco_attribution_part_merge(into, f, &ce)
	runtime.KeepAlive(a)
	runtime.KeepAlive(from)
	return failure(rc, &ce)
}

// MarshalBinary encodes the part as bytes to ship between processes
// (tco_attribution_part_save): this library version's format,
// little-endian, the same on every platform. LoadAttributionPart reads
// them back.
func (a *AttributionPart) MarshalBinary() ([]byte, error) {
	p, err := a.c()
	if err != nil {
		return nil, err
	}
	b, err := saveCBOR(func(buf *C.uint8_t, cap C.size_t, n *C.size_t, e *C.tco_error) C.int {
		return C.tco_attribution_part_save(buf, cap, n, p, e)
	})
	runtime.KeepAlive(a)
	return b, err
}

// LoadAttributionPart reads a part MarshalBinary wrote (in this process or
// another). Every byte is checked: truncated, altered or inconsistent
// bytes fail with ErrType, naming what is wrong.
func LoadAttributionPart(data []byte) (*AttributionPart, error) {
	if versionErr != nil {
		return nil, versionErr
	}
	var p *C.tco_attribution_part
	ce := newCErr()
	rc := C.tco_attribution_part_load(&p, bptr(data), C.size_t(len(data)), &ce)
	runtime.KeepAlive(data)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	var by []string
	for k := C.size_t(0); ; k++ {
		key := C.tco_attribution_part_key(p, k)
		if key == nil {
			break
		}
		by = append(by, C.GoString(key))
	}
	return adoptPart(p, by), nil
}

// Settle is the attribution of every record merged into the part
// (tco_attribute_parts): what Attribute gives for all of them at once, to
// the cent, groups in the same order. t, w and p must be the inputs the
// parts were priced with, else ErrInconsistent.
func (a *AttributionPart) Settle(t *Topology, w *Workload, p *Pricing) (*Attribution, error) {
	var out *Attribution
	err := a.settled(t, w, p, func(c *C.tco_attribution) error {
		var err error
		out, err = attributionOf(c, nil, len(a.by))
		return err
	})
	return out, err
}

// settled settles the part and calls use with the library's attribution
// (whose group values are texts of its own table) before freeing it.
func (a *AttributionPart) settled(t *Topology, w *Workload, p *Pricing, use func(*C.tco_attribution) error) error {
	part, err := a.c()
	if err != nil {
		return err
	}
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return err
	}
	var c *C.tco_attribution
	ce := newCErr()
	rc := C.tco_attribute_parts(&c, part, ct, cw, cp, &ce)
	runtime.KeepAlive(a)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return failure(rc, &ce)
	}
	defer C.tco_attribution_free(c)
	return use(c)
}

// IdleWaste is the cluster's idle capacity as a finding of the whole the
// part settles into (tco_find_waste with no records): the one finding
// FindWastePart leaves out. t, w and p are Settle's.
func (a *AttributionPart) IdleWaste(wreq WasteRequest, t *Topology, w *Workload, p *Pricing) (*Waste, error) {
	q := wasteRequest(wreq)
	var out *Waste
	err := a.settled(t, w, p, func(c *C.tco_attribution) error {
		var f *C.tco_findings
		ce := newCErr()
		if rc := C.tco_find_waste(&f, c, nil, 0, nil, 0, C.tco_attribution_tags(c), &q, &ce); rc != 0 {
			return failure(rc, &ce)
		}
		defer C.tco_findings_free(f)
		var err error
		out, err = findingsOf(f, c, nil)
		return err
	})
	return out, err
}

// FindWastePart finds the waste in a share of the records of whole, the
// parts of every share merged (tco_find_waste_part): the findings
// FindWaste gives for these records among all of them, Record and Other
// numbered within the share, Group the By[0] value in whole, and without
// the cluster's idle capacity (whole.IdleWaste gives it). Findings that
// relate records (reruns, copies, a project's storage left behind) are
// found within the share: the records of one project, one job_name, one
// fingerprint or one name must be in one share. t, w and p must be
// whole's inputs, and every record in a group of whole, else
// ErrInconsistent. whole is settled on each call.
func FindWastePart(r *Records, whole *AttributionPart, wreq WasteRequest, t *Topology, w *Workload,
	p *Pricing) (*Waste, error) {
	cr, err := r.c()
	if err != nil {
		return nil, err
	}
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(r)
	q := wasteRequest(wreq)
	var out *Waste
	err = whole.settled(t, w, p, func(c *C.tco_attribution) error {
		var npairs C.size_t
		pairs := C.tco_records_tag_pairs(cr, &npairs)
		var f *C.tco_findings
		ce := newCErr()
		rc := C.tco_find_waste_part(&f, c, C.tco_records_data(cr), C.tco_records_count(cr), pairs, npairs,
			C.tco_records_tags(cr), &q, ct, cw, cp, &ce)
		runtime.KeepAlive(t)
		runtime.KeepAlive(w)
		runtime.KeepAlive(p)
		if rc != 0 {
			return failure(rc, &ce)
		}
		defer C.tco_findings_free(f)
		var err error
		out, err = findingsOf(f, c, nil)
		return err
	})
	return out, err
}

// FindWastePart finds the waste in a share of the records priced by the
// scenario (FindWastePart).
func (s *Scenario) FindWastePart(r *Records, whole *AttributionPart, wreq WasteRequest) (*Waste, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	return FindWastePart(r, whole, wreq, s.Topology, s.Workload, s.Pricing)
}
