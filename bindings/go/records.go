package tco

// #include "tco_go.h"
import "C"

import (
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Usage records and attribution (doc/records.md; doc/model.md, section
// 16): who used what, read from Slurm accounting or a plain CSV, and the
// bill of a period split among the records' tags, to the cent.

// JobState is how a record's job ended (tco_job_state).
type JobState int32

// Job states.
const (
	JobCompleted JobState = 0
	JobFailed    JobState = 1 // ended before it finished: failed, timed out, out of memory, preempted...
	JobCancelled JobState = 2
	JobRunning   JobState = 3 // still running at the end of the records
)

// String is the library's name of the state ("completed", "failed"...).
func (s JobState) String() string {
	if name := C.tco_job_state_name(C.int32_t(s)); name != nil {
		return C.GoString(name)
	}
	return "JobState(" + strconv.Itoa(int(s)) + ")"
}

// Cents is an amount in hundredths of the pricing table's currency
// ("cents", whatever the currency's own minor unit): the unit of a Bill,
// whose figures are integers that add up exactly.
type Cents int64

// Amount is c in the currency's units (c / 100), as the other results of
// this package give amounts.
func (c Cents) Amount() float64 { return float64(c) / 100 }

// String is c in the currency's units with two decimals ("-1234.05"),
// exactly.
func (c Cents) String() string {
	u := uint64(c)
	sign := ""
	if c < 0 {
		sign, u = "-", -u
	}
	frac := strconv.FormatUint(u%100, 10)
	if len(frac) < 2 {
		frac = "0" + frac
	}
	return sign + strconv.FormatUint(u/100, 10) + "." + frac
}

// Record is one usage record (tco_record): a window of time, the
// accelerators held in it and how much of them was used, the price class,
// storage and traffic, and tags.
type Record struct {
	Start, End   time.Time // UTC
	Accelerators float64   // held over the window
	// Utilisation is the share of the held accelerator time used, 0 to 1;
	// -1: unknown (as for every Slurm record).
	Utilisation    float64
	PriceClass     PriceClass
	State          JobState
	StorageGBHours [3]float64 // by tier: hot, warm, cold
	TrafficGB      [3]float64 // within a region, across regions, to the internet
	// Tags are the record's tags, key to value; with several tags of one
	// key, the first (the one attribution counts).
	Tags map[string]string
}

// BadRow is a row the reader refused: the 1-based line where it starts and
// the reason, which names the field and shows its value (printable ASCII).
type BadRow struct {
	Line   uint64
	Reason string
}

// Records are usage records read from a text: the records in the order of
// their lines, their tags and the rows refused. They are immutable, so any
// number of goroutines may read them at once. Close frees them; if they
// are never closed, the garbage collector does.
type Records struct {
	_       noCopy
	ptr     unsafe.Pointer // *C.tco_records; nil once closed
	cleanup runtime.Cleanup
	once    sync.Once
	texts   []string // the tags table's texts by id, read once
	isKey   []bool   // by text id: a key of some record's tag
}

// noText stands in for the data of an empty text, so that the library
// reports the empty text rather than a NULL.
var noText [1]C.char

// ReadSacct reads Slurm accounting as
//
//	TZ=UTC sacct --parsable2 --noheader --format=JobID,JobName,Account,User,Partition,State,Start,End,ElapsedRaw,AllocTRES
//
// prints it (doc/records.md): job steps and jobs that never started and
// hold no GPU are skipped; every record is owned, utilisation unknown,
// tagged job_id, job_name, account, project, user and partition. A row
// that cannot be a record is kept among Bad, with its line and reason, or,
// when strict, fails the read (ErrType if malformed, ErrRange if out of
// range; the message is "line N: <reason>", ParamName the field).
func ReadSacct(text []byte, strict bool) (*Records, error) { return readRecords(true, text, strict) }

// ReadCSV reads the plain CSV of doc/records.md: a header row naming the
// columns (start, end and accelerators required; utilisation, price_class,
// state, storage_*_gb_hours, traffic_*_gb and tag.<key> columns optional),
// then one record a row. Bad rows are as for ReadSacct. A header that is
// not the format's fails the read whatever strict is: ErrUnknownParam for
// an unknown column, ErrType for a missing required one.
func ReadCSV(text []byte, strict bool) (*Records, error) { return readRecords(false, text, strict) }

func readRecords(sacct bool, text []byte, strict bool) (*Records, error) {
	if versionErr != nil {
		return nil, versionErr
	}
	var flags C.uint32_t
	if strict {
		flags = C.TCO_READ_STRICT
	}
	tp := &noText[0]
	if len(text) > 0 {
		tp = (*C.char)(unsafe.Pointer(&text[0]))
	}
	var p *C.tco_records
	ce := newCErr()
	var rc C.int
	if sacct {
		rc = C.tco_records_read_sacct(&p, tp, C.size_t(len(text)), flags, &ce)
	} else {
		rc = C.tco_records_read_csv(&p, tp, C.size_t(len(text)), flags, &ce)
	}
	runtime.KeepAlive(text)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	r := &Records{ptr: unsafe.Pointer(p)}
	r.cleanup = runtime.AddCleanup(r, func(p *C.tco_records) { C.tco_records_free(p) }, p)
	return r, nil
}

func (r *Records) c() (*C.tco_records, error) {
	if r == nil {
		return nil, errClosed("records")
	}
	p := atomic.LoadPointer(&r.ptr)
	if p == nil {
		return nil, errClosed("records")
	}
	return (*C.tco_records)(p), nil
}

// Close frees the records. It may be called more than once; other methods
// then return an error matching ErrClosed (Len and Bad: nothing). It must
// not run while another goroutine is still using the records.
func (r *Records) Close() error {
	if r == nil {
		return nil
	}
	if p := atomic.SwapPointer(&r.ptr, nil); p != nil {
		r.cleanup.Stop()
		C.tco_records_free((*C.tco_records)(p))
	}
	return nil
}

// Len is the number of records (0 once closed).
func (r *Records) Len() int {
	cr, err := r.c()
	if err != nil {
		return 0
	}
	n := int(C.tco_records_count(cr))
	runtime.KeepAlive(r)
	return n
}

// tagTexts is the tags table's texts by id, copied into Go once, with
// which of them are keys.
func (r *Records) tagTexts(cr *C.tco_records) []string {
	r.once.Do(func() {
		tags := C.tco_records_tags(cr)
		n := int(C.tco_tags_count(tags))
		r.texts = make([]string, n)
		for i := range r.texts {
			if s := C.tco_tags_text(tags, C.uint32_t(i)); s != nil {
				r.texts[i] = C.GoString(s)
			}
		}
		r.isKey = make([]bool, n)
		pairs := pairsOf(cr)
		for k := 0; k+1 < len(pairs); k += 2 {
			if id := int(pairs[k]); id < n {
				r.isKey[id] = true
			}
		}
	})
	return r.texts
}

// pairs is the records' tag pairs (key id, value id), two ids each.
func pairsOf(cr *C.tco_records) []C.uint32_t {
	var n C.size_t
	p := C.tco_records_tag_pairs(cr, &n)
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice(p, 2*int(n))
}

// Record is record i (0 to Len() - 1), in the order of the lines; i out of
// range fails with ErrIndex.
func (r *Records) Record(i int) (Record, error) {
	cr, err := r.c()
	if err != nil {
		return Record{}, err
	}
	defer runtime.KeepAlive(r)
	n := int(C.tco_records_count(cr))
	if i < 0 || i >= n {
		return Record{}, errArg(StatusIndex, "i", "record "+strconv.Itoa(i)+" is not there: allowed 0 to "+
			strconv.Itoa(n-1)+" ("+strconv.Itoa(n)+" records)")
	}
	data := C.tco_records_data(cr)
	// The records are the loaded library's, data[0].size bytes each.
	c := (*C.tco_record)(unsafe.Add(unsafe.Pointer(data), uintptr(i)*uintptr(data.size)))
	out := Record{
		Start: fromSeconds(float64(c.start)), End: fromSeconds(float64(c.end)),
		Accelerators: float64(c.accelerators), Utilisation: float64(c.utilisation),
		PriceClass: PriceClass(c.price_class), State: JobState(c.state),
	}
	for k := 0; k < 3; k++ {
		out.StorageGBHours[k] = float64(c.storage_gb_hours[k])
		out.TrafficGB[k] = float64(c.traffic_gb[k])
	}
	texts := r.tagTexts(cr)
	pairs := pairsOf(cr)
	out.Tags = make(map[string]string, int(c.tag_count))
	for k := int(c.first_tag); k < int(c.first_tag)+int(c.tag_count) && 2*k+1 < len(pairs); k++ {
		key, value := int(pairs[2*k]), int(pairs[2*k+1])
		if key >= len(texts) || value >= len(texts) {
			continue
		}
		if _, seen := out.Tags[texts[key]]; !seen {
			out.Tags[texts[key]] = texts[value]
		}
	}
	return out, nil
}

// Bad is the rows refused, in the order of the text (nil once closed).
func (r *Records) Bad() []BadRow {
	cr, err := r.c()
	if err != nil {
		return nil
	}
	defer runtime.KeepAlive(r)
	n := int(C.tco_records_bad_count(cr))
	if n == 0 {
		return nil
	}
	out := make([]BadRow, 0, n)
	for i := 0; i < n; i++ {
		var line C.uint64_t
		var reason *C.char
		if C.tco_records_bad_at(cr, C.size_t(i), &line, &reason, nil) != 0 {
			continue
		}
		out = append(out, BadRow{Line: uint64(line), Reason: C.GoString(reason)})
	}
	return out
}

// keys are the tag keys the records use, sorted (for messages).
func (r *Records) keys(cr *C.tco_records) []string {
	texts := r.tagTexts(cr)
	var out []string
	for id, k := range r.isKey {
		if k {
			out = append(out, texts[id])
		}
	}
	sort.Strings(out)
	return out
}

// fromSeconds is UTC seconds since 1970 as a time, to the nanosecond.
func fromSeconds(s float64) time.Time {
	sec := math.Floor(s)
	return time.Unix(int64(sec), int64(math.Round((s-sec)*1e9))).UTC()
}

// seconds is t as UTC seconds since 1970 (exact to the microsecond over
// the library's years, 1970 to 9999).
func seconds(t time.Time) float64 { return float64(t.Unix()) + float64(t.Nanosecond())/1e9 }

// AttributionRequest is what Attribute splits (tco_attribution_request):
// the billing period, the tag keys to group by, and how costs no record
// caused directly are spread over the groups.
type AttributionRequest struct {
	// PeriodStart (included) and PeriodEnd (excluded) are the billing
	// period, from 1970 to 9999; PeriodEnd after PeriodStart.
	PeriodStart, PeriodEnd time.Time
	// By is the tag key to group by ("project"), or two to group by pairs
	// ("project", "user"). Records without a tag of a key fall in the
	// group whose value is "".
	By []string
	// Idle and Shared are how idle accelerator capacity and shared
	// services (platform, staff, security, database, logging) are spread:
	// "usage" (by each group's direct accelerator cost; "" stands for
	// it), "even" (evenly over the groups) or "owner" (all to the groups
	// whose value of By[0] is Owner).
	Idle, Shared string
	// Owner is the value of By[0] that takes what an "owner" rule spreads;
	// "": the records without that tag. Read only with an "owner" rule.
	Owner string
}

// Bill is the bill of the period (tco_bill). Its cents are the sums of its
// groups' (category by category, direct, idle and shared); a period's bill
// has no indirect costs (migration, learning, risk premium).
type Bill struct {
	Total    Cents            // the whole bill of the period
	Category map[string]Cents // by category (Categories' names); sums to Total
	Direct   Cents            // what the records caused
	Idle     Cents            // capacity held by nobody (none when held >= capacity)
	Shared   Cents            // shared services
	// PeriodHours is the period's length; CapacityAcceleratorHours the
	// cluster's over it.
	PeriodHours              float64
	CapacityAcceleratorHours float64
	HeldAcceleratorHours     float64 // the records', within the period (may exceed capacity)
	UsedAcceleratorHours     float64 // of those, used (utilisation known, else held)
	ClippedAcceleratorHours  float64 // the records' outside the period, not billed
	Records                  uint64  // records read
	RecordsOutside           uint64  // wholly outside the period
	// Overlapping counts the records whose window in the period overlaps
	// another with the same job_id tag (each is billed).
	Overlapping uint64
}

// Group is one group of records (tco_group): one value of By[0], or one
// pair of values.
type Group struct {
	// Values are the group's tag values, one per key of By; "" for the
	// records without a tag of that key.
	Values   []string
	Total    Cents            // Direct + Idle + Shared
	Category map[string]Cents // by category; sums to Total
	Direct   Cents
	Idle     Cents
	Shared   Cents
	Share    float64 // Total / the bill's Total (0 for a bill of 0)

	HeldAcceleratorHours float64
	UsedAcceleratorHours float64
	Records              uint64
}

// Attribution is the result of Attribute: the bill and its groups,
// largest Total first (ties in the library's order of value ids).
type Attribution struct {
	Bill   Bill
	Groups []Group
}

// spreadRule is the tco_spread of a rule name (the library's,
// tco_spread_name; "" is usage), or an error naming field and the names
// allowed.
func spreadRule(field, name string) (C.int32_t, error) {
	if name == "" {
		return C.TCO_SPREAD_USAGE, nil
	}
	var names []string
	for r := C.int32_t(C.TCO_SPREAD_USAGE); C.tco_spread_name(r) != nil; r++ {
		n := C.GoString(C.tco_spread_name(r))
		if n == name {
			return r, nil
		}
		names = append(names, strconv.Quote(n))
	}
	return 0, errArg(StatusRange, field, field+" = "+strconv.Quote(name)+": allowed "+strings.Join(names, ", ")+
		` ("" is "usage")`)
}

// findTag is the id of a text of the records' tags table.
func findTag(cr *C.tco_records, text, field string) (C.uint32_t, bool, error) {
	s, err := cText(text, field, 0)
	if err != nil {
		return 0, false, err
	}
	defer C.free(unsafe.Pointer(s))
	var id C.uint32_t
	if C.tco_tags_find(C.tco_records_tags(cr), s, C.size_t(len(text)), &id, nil) != 0 {
		return 0, false, nil
	}
	return id, true, nil
}

// request is req as the library reads it: key and owner names turned into
// the records' tag ids, rule names into tco_spread.
func (r *Records) request(cr *C.tco_records, req *AttributionRequest) (C.tco_attribution_request, error) {
	var q C.tco_attribution_request
	q.size = C.size_t(unsafe.Sizeof(q))
	q.period_start = C.double(seconds(req.PeriodStart))
	q.period_end = C.double(seconds(req.PeriodEnd))
	if len(req.By) != 1 && len(req.By) != 2 {
		return q, errArg(StatusRange, "By", "By holds "+strconv.Itoa(len(req.By))+
			" keys: allowed 1 (one key) or 2 (pairs)")
	}
	q.by_count = C.uint32_t(len(req.By))
	for k, key := range req.By {
		field := "By[" + strconv.Itoa(k) + "]"
		id, ok, err := findTag(cr, key, field)
		if err != nil {
			return q, err
		}
		if r.tagTexts(cr); !ok || !r.isKey[id] {
			return q, errArg(StatusIndex, field, field+" = "+strconv.Quote(key)+
				" is no tag key of the records: they have "+keyList(r.keys(cr)))
		}
		q.by_key[k] = id
	}
	var err error
	if q.idle_rule, err = spreadRule("Idle", req.Idle); err != nil {
		return q, err
	}
	if q.shared_rule, err = spreadRule("Shared", req.Shared); err != nil {
		return q, err
	}
	q.owner_value = C.TCO_TAG_NONE
	if req.Owner != "" && (q.idle_rule == C.TCO_SPREAD_OWNER || q.shared_rule == C.TCO_SPREAD_OWNER) {
		id, ok, err := findTag(cr, req.Owner, "Owner")
		if err != nil {
			return q, err
		}
		if !ok {
			return q, errArg(StatusIndex, "Owner", "Owner = "+strconv.Quote(req.Owner)+
				" is no tag value of the records")
		}
		q.owner_value = id
	}
	return q, nil
}

// requestFailure is err with the request's tag ids the library names
// ("request.owner_value = 5") given as the texts the caller gave.
func requestFailure(err error, q *C.tco_attribution_request, req *AttributionRequest) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	c := *e
	owner := "Owner = " + strconv.Quote(req.Owner)
	c.Message = strings.ReplaceAll(c.Message, "request.owner_value = "+strconv.FormatUint(uint64(q.owner_value), 10),
		owner)
	if c.ParamName == "request.owner_value" {
		c.ParamName = "Owner"
	}
	return &c
}

func keyList(keys []string) string {
	if len(keys) == 0 {
		return "no tags"
	}
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	return strings.Join(q, ", ")
}

// Attribute splits the bill of the period among the records' groups
// (doc/model.md, section 16): each record's direct cost by category (its
// accelerator time in the period at its price class's rate, its storage,
// its traffic, clipped to the period), idle capacity and shared services
// spread by the request's rules, and the bill's total rounded to cents and
// split by the largest-remainder rule, so that the groups' Totals add up
// to the Bill's, and each group's categories (and its Direct, Idle and
// Shared) to its Total, exactly.
//
// A key of By that is no text of the records' tags, and an Owner that is
// none, fail with ErrIndex naming it; a rule name that is none of "usage",
// "even" and "owner" with ErrRange. A period that is not 1970 to 9999 with
// its end after its start fails with ErrRange; a rule that cannot spread
// (usage with no priced accelerator time in the period, no record in the
// period, an owner without records) with ErrInconsistent.
func Attribute(r *Records, req AttributionRequest, t *Topology, w *Workload, p *Pricing) (*Attribution, error) {
	var out *Attribution
	err := withAttribution(r, req, t, w, p, func(a *C.tco_attribution, cr *C.tco_records) error {
		var err error
		out, err = attributionOf(a, r.tagTexts(cr), len(req.By))
		return err
	})
	return out, err
}

// withAttribution runs the library's attribution of the records and calls
// use with it (and the records' C set) before freeing it: what FOCUS and
// FindWaste read besides the bill.
func withAttribution(r *Records, req AttributionRequest, t *Topology, w *Workload, p *Pricing,
	use func(a *C.tco_attribution, cr *C.tco_records) error) error {
	cr, err := r.c()
	if err != nil {
		return err
	}
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(r)
	q, err := r.request(cr, &req)
	if err != nil {
		return err
	}
	var npairs C.size_t
	pairs := C.tco_records_tag_pairs(cr, &npairs)
	var a *C.tco_attribution
	ce := newCErr()
	rc := C.tco_attribute(&a, C.tco_records_data(cr), C.tco_records_count(cr), pairs, npairs,
		C.tco_records_tags(cr), &q, ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return requestFailure(failure(rc, &ce), &q, &req)
	}
	defer C.tco_attribution_free(a)
	return use(a, cr)
}

// valueText is the text of a group's value id v: from the attribution's
// own table when it was settled from parts (its ids are that table's),
// else from texts, the records' table; "" for no tag.
func valueText(a *C.tco_attribution, texts []string, v C.uint32_t) string {
	if v == C.TCO_TAG_NONE {
		return ""
	}
	if own := C.tco_attribution_tags(a); own != nil {
		if s := C.tco_tags_text(own, v); s != nil {
			return C.GoString(s)
		}
		return ""
	}
	if int(v) < len(texts) {
		return texts[v]
	}
	return ""
}

// attributionOf is the bill and groups of a library attribution grouped
// by keys tag keys, value texts from texts (or its own, see valueText).
func attributionOf(a *C.tco_attribution, texts []string, keys int) (*Attribution, error) {
	ce := newCErr()
	var b C.tco_bill
	b.size = C.size_t(unsafe.Sizeof(b))
	if rc := C.tco_attribution_bill(&b, a, &ce); rc != 0 {
		return nil, failure(rc, &ce)
	}
	out := &Attribution{Bill: Bill{
		Total: Cents(b.total), Category: byCategory[Cents](&b.category),
		Direct: Cents(b.direct), Idle: Cents(b.idle), Shared: Cents(b.shared),
		PeriodHours: float64(b.period_hours), CapacityAcceleratorHours: float64(b.capacity_accelerator_hours),
		HeldAcceleratorHours: float64(b.held_accelerator_hours), UsedAcceleratorHours: float64(b.used_accelerator_hours),
		ClippedAcceleratorHours: float64(b.clipped_accelerator_hours),
		Records:                 uint64(b.records), RecordsOutside: uint64(b.records_outside),
		Overlapping: uint64(b.overlapping),
	}}
	n := int(C.tco_attribution_group_count(a))
	out.Groups = make([]Group, 0, n)
	for i := 0; i < n; i++ {
		var g C.tco_group
		g.size = C.size_t(unsafe.Sizeof(g))
		if rc := C.tco_attribution_group_at(&g, a, C.size_t(i), &ce); rc != 0 {
			return nil, failure(rc, &ce)
		}
		grp := Group{
			Values: make([]string, keys), Total: Cents(g.total),
			Category: byCategory[Cents](&g.category),
			Direct:   Cents(g.direct), Idle: Cents(g.idle), Shared: Cents(g.shared), Share: float64(g.share),
			HeldAcceleratorHours: float64(g.held_accelerator_hours),
			UsedAcceleratorHours: float64(g.used_accelerator_hours), Records: uint64(g.records),
		}
		for k := range grp.Values {
			grp.Values[k] = valueText(a, texts, g.value[k])
		}
		out.Groups = append(out.Groups, grp)
	}
	return out, nil
}

// Attribute splits the bill of the scenario's cluster for the period
// among the records' groups (Attribute).
func (s *Scenario) Attribute(r *Records, req AttributionRequest) (*Attribution, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	return Attribute(r, req, s.Topology, s.Workload, s.Pricing)
}
