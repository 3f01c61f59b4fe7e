package tco

// #include "tco_go.h"
import "C"

import (
	"time"
	"unsafe"
)

// The waste in usage records (doc/model.md, section 17): idle and
// over-sized accelerators, overruns, failures run again, checkpoints and
// datasets kept too long or twice, storage a finished project left, and
// the cluster's idle capacity.

// FindingKind is what a finding is (tco_finding_kind).
type FindingKind int32

// The kinds of finding.
const (
	FindingIdleCapacity FindingKind = C.TCO_FINDING_IDLE_CAPACITY
	FindingIdleHeld     FindingKind = C.TCO_FINDING_IDLE_HELD
	FindingOversized    FindingKind = C.TCO_FINDING_OVERSIZED
	FindingOverrun      FindingKind = C.TCO_FINDING_OVERRUN
	FindingRerun        FindingKind = C.TCO_FINDING_RERUN
	FindingRetained     FindingKind = C.TCO_FINDING_RETAINED
	FindingDuplicate    FindingKind = C.TCO_FINDING_DUPLICATE
	FindingOrphaned     FindingKind = C.TCO_FINDING_ORPHANED
)

// String is the library's name of the kind ("idle_capacity"...), or ""
// for a kind it does not know.
func (k FindingKind) String() string {
	if s := C.tco_finding_kind_name(C.int32_t(k)); s != nil {
		return C.GoString(s)
	}
	return ""
}

// Action is what to do about a finding of the kind, one sentence.
func (k FindingKind) Action() string {
	if s := C.tco_finding_action(C.int32_t(k)); s != nil {
		return C.GoString(s)
	}
	return ""
}

// WasteRequest holds the thresholds (tco_waste_request). Start from
// DefaultWasteRequest: its zero value finds nothing idle. A threshold of 0
// turns its finding off (MaxRuntimeHours, RerunHours, RetentionDays,
// OrphanDays).
type WasteRequest struct {
	IdleUtilisation      float64 // 0 to 1: below it a record's accelerators are idle
	IdleHours            float64 // for this long or longer
	OversizedUtilisation float64 // IdleUtilisation to 1: below it, over-sized
	MaxRuntimeHours      float64 // longer runs overrun
	RerunHours           float64 // a failure run again within it was wasted
	RetentionDays        float64 // checkpoints and datasets kept longer
	OrphanDays           float64 // storage of a project whose jobs ended this long before
}

// DefaultWasteRequest is the library's defaults (tco_waste_request_init).
func DefaultWasteRequest() WasteRequest {
	var q C.tco_waste_request
	C.tco_waste_request_init(&q)
	return WasteRequest{
		IdleUtilisation: float64(q.idle_utilisation), IdleHours: float64(q.idle_hours),
		OversizedUtilisation: float64(q.oversized_utilisation), MaxRuntimeHours: float64(q.max_runtime_hours),
		RerunHours: float64(q.rerun_hours), RetentionDays: float64(q.retention_days),
		OrphanDays: float64(q.orphan_days),
	}
}

// Finding is one finding (tco_finding). Money is in the pricing table's
// currency, within the period, not rounded.
type Finding struct {
	Kind FindingKind
	// Group is the record's value of the request's By[0] ("" for records
	// without that tag and for the cluster's idle capacity).
	Group string
	// Record is the index of the record it is about (Records.Record), -1
	// for the cluster's idle capacity; Other the record it re-runs or
	// copies, else -1.
	Record, Other    int
	Since, Until     time.Time
	Cost             float64 // the waste within the period
	PerDay           float64 // Cost per day while it lasts
	AcceleratorHours float64 // wasted (0 for storage)
	GB               float64 // stored (0 for accelerators)
}

// Waste is what FindWaste found: the findings, costliest first, and their
// total.
type Waste struct {
	Findings []Finding
	Total    float64
}

// FindWaste attributes the records as Attribute does and finds the waste
// in them (tco_find_waste): each record is the subject of one finding on
// its accelerators and one on its storage at most, so the findings add up
// without counting money twice.
func FindWaste(r *Records, req AttributionRequest, wreq WasteRequest, t *Topology, w *Workload, p *Pricing) (*Waste, error) {
	q := wasteRequest(wreq)
	var out *Waste
	err := withAttribution(r, req, t, w, p, func(a *C.tco_attribution, cr *C.tco_records) error {
		var npairs C.size_t
		pairs := C.tco_records_tag_pairs(cr, &npairs)
		var f *C.tco_findings
		ce := newCErr()
		if rc := C.tco_find_waste(&f, a, C.tco_records_data(cr), C.tco_records_count(cr), pairs, npairs,
			C.tco_records_tags(cr), &q, &ce); rc != 0 {
			return failure(rc, &ce)
		}
		defer C.tco_findings_free(f)
		var err error
		out, err = findingsOf(f, a, r.tagTexts(cr))
		return err
	})
	return out, err
}

// wasteRequest is wreq as the library reads it.
func wasteRequest(wreq WasteRequest) C.tco_waste_request {
	var q C.tco_waste_request
	q.size = C.size_t(unsafe.Sizeof(q))
	q.idle_utilisation = C.double(wreq.IdleUtilisation)
	q.idle_hours = C.double(wreq.IdleHours)
	q.oversized_utilisation = C.double(wreq.OversizedUtilisation)
	q.max_runtime_hours = C.double(wreq.MaxRuntimeHours)
	q.rerun_hours = C.double(wreq.RerunHours)
	q.retention_days = C.double(wreq.RetentionDays)
	q.orphan_days = C.double(wreq.OrphanDays)
	return q
}

// findingsOf copies the findings f of attribution a into Go, each group
// named by its By[0] value (texts: the records', see valueText).
func findingsOf(f *C.tco_findings, a *C.tco_attribution, texts []string) (*Waste, error) {
	n := int(C.tco_findings_count(f))
	out := &Waste{Findings: make([]Finding, 0, n), Total: float64(C.tco_findings_total(f))}
	index := func(v C.uint32_t) int {
		if v == C.uint32_t(C.UINT32_MAX) {
			return -1
		}
		return int(v)
	}
	ce := newCErr()
	for i := 0; i < n; i++ {
		var x C.tco_finding
		x.size = C.size_t(unsafe.Sizeof(x))
		if rc := C.tco_findings_at(&x, f, C.size_t(i), &ce); rc != 0 {
			return nil, failure(rc, &ce)
		}
		found := Finding{
			Kind: FindingKind(x.kind), Record: index(x.record), Other: index(x.other),
			Since: fromSeconds(float64(x.since)), Until: fromSeconds(float64(x.until)),
			Cost: float64(x.cost), PerDay: float64(x.per_day),
			AcceleratorHours: float64(x.accelerator_hours), GB: float64(x.gb),
		}
		if x.group != C.uint32_t(C.UINT32_MAX) {
			var g C.tco_group
			g.size = C.size_t(unsafe.Sizeof(g))
			if rc := C.tco_attribution_group_at(&g, a, C.size_t(x.group), &ce); rc != 0 {
				return nil, failure(rc, &ce)
			}
			found.Group = valueText(a, texts, g.value[0])
		}
		out.Findings = append(out.Findings, found)
	}
	return out, nil
}

// FindWaste finds the waste in the records priced by the scenario
// (FindWaste).
func (s *Scenario) FindWaste(r *Records, req AttributionRequest, wreq WasteRequest) (*Waste, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	return FindWaste(r, req, wreq, s.Topology, s.Workload, s.Pricing)
}
