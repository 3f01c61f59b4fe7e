package tco

// #include "tco_go.h"
import "C"

import (
	"unsafe"
)

// maxGoBytes is the most C.GoBytes copies (its length is a C int).
const maxGoBytes = 1<<31 - 1

// FocusRequest says who the FOCUS rows say bills whom
// (tco_focus_request); "" leaves a name at its default (doc/focus.md).
type FocusRequest struct {
	BillingAccountID   string // default "libtco"
	BillingAccountName string // default: the ID
	ProviderName       string // ProviderName, PublisherName, InvoiceIssuerName; default: the account's name
	InvoiceID          string // default: the account ID, "-" and the period's YYYY-MM
	RegionID           string // default: none
	RegionName         string // default: the region ID
}

// FOCUS attributes the records as Attribute does and returns the result as
// FinOps FOCUS 1.2 cost and usage rows, CSV with a header
// (tco_attribution_focus_csv): a row per group, category and kind of
// charge, whose BilledCost cents add up to the bill exactly.
func FOCUS(r *Records, req AttributionRequest, names FocusRequest, t *Topology, w *Workload, p *Pricing) ([]byte, error) {
	var q C.tco_focus_request
	q.size = C.size_t(unsafe.Sizeof(q))
	for _, f := range []struct {
		v, name string
		to      **C.char
	}{
		{names.BillingAccountID, "BillingAccountID", &q.billing_account_id},
		{names.BillingAccountName, "BillingAccountName", &q.billing_account_name},
		{names.ProviderName, "ProviderName", &q.provider_name},
		{names.InvoiceID, "InvoiceID", &q.invoice_id},
		{names.RegionID, "RegionID", &q.region_id},
		{names.RegionName, "RegionName", &q.region_name},
	} {
		if f.v == "" {
			continue
		}
		s, err := cText(f.v, f.name, 0)
		if err != nil {
			return nil, err
		}
		defer C.free(unsafe.Pointer(s))
		*f.to = s
	}
	var out []byte
	err := withAttribution(r, req, t, w, p, func(a *C.tco_attribution, cr *C.tco_records) error {
		ce := newCErr()
		tags := C.tco_records_tags(cr)
		var n C.size_t
		if rc := C.tco_attribution_focus_csv(a, tags, &q, nil, 0, &n, &ce); rc != 0 {
			return failure(rc, &ce)
		}
		if n > C.size_t(maxGoBytes) {
			return &Error{Code: StatusSize, Message: "the FOCUS rows pass 2 GiB: split the period"}
		}
		buf := C.malloc(n + 1)
		if buf == nil {
			return &Error{Code: StatusNoMem, Message: "no memory for the FOCUS rows"}
		}
		defer C.free(buf)
		if rc := C.tco_attribution_focus_csv(a, tags, &q, (*C.char)(buf), n+1, &n, &ce); rc != 0 {
			return failure(rc, &ce)
		}
		out = C.GoBytes(buf, C.int(n))
		return nil
	})
	return out, err
}

// FOCUS returns the FOCUS 1.2 rows of the records priced by the scenario
// (FOCUS).
func (s *Scenario) FOCUS(r *Records, req AttributionRequest, names FocusRequest) ([]byte, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	return FOCUS(r, req, names, s.Topology, s.Workload, s.Pricing)
}
