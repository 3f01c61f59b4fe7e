package tco_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"libtco.dev/tco"
)

// monthRows is the example month's CSV as rows, the header first.
func monthRows(t *testing.T) [][]string {
	t.Helper()
	text, err := os.ReadFile(monthDir + "/month.csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// readRows reads header and rows as a CSV of their own (a tags table of
// their own), strictly: record i is rows[i].
func readRows(t *testing.T, header []string, rows [][]string) *tco.Records {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(header); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	rs, err := tco.ReadCSV(b.Bytes(), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	if rs.Len() != len(rows) {
		t.Fatalf("%d records of %d rows", rs.Len(), len(rows))
	}
	return rs
}

// share is a share of the month's records, read on its own: index[i] is
// the row, so the record, among all that its record i is.
type share struct {
	records *tco.Records
	index   []int
}

// monthShares splits the month by project into three shares, the sorted
// projects dealt round (so the two speech projects, one team, go to
// different shares).
func monthShares(t *testing.T, rows [][]string) []share {
	t.Helper()
	col := -1
	for i, name := range rows[0] {
		if name == "tag.project" {
			col = i
		}
	}
	var projects []string
	seen := map[string]bool{}
	for _, r := range rows[1:] {
		if !seen[r[col]] {
			seen[r[col]] = true
			projects = append(projects, r[col])
		}
	}
	sort.Strings(projects)
	shareOf := map[string]int{}
	for i, p := range projects {
		shareOf[p] = i % 3
	}
	var parts [3][][]string
	var index [3][]int
	for i, r := range rows[1:] {
		s := shareOf[r[col]]
		parts[s] = append(parts[s], r)
		index[s] = append(index[s], i)
	}
	out := make([]share, 3)
	for s := range out {
		out[s] = share{readRows(t, rows[0], parts[s]), index[s]}
	}
	return out
}

// values is the set of values of a tag key among some records ("": a
// record without it).
func values(t *testing.T, rs *tco.Records, key string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for i := 0; i < rs.Len(); i++ {
		out[record(t, rs, i).Tags[key]] = true
	}
	return out
}

// partsRequests are the requests the parts are checked with: one key and
// a pair (deadline: a key most shares' records lack), every rule, and an
// owner some shares do not name.
func partsRequests(req tco.AttributionRequest) []tco.AttributionRequest {
	with := func(f func(*tco.AttributionRequest)) tco.AttributionRequest {
		q := req
		f(&q)
		return q
	}
	return []tco.AttributionRequest{
		req,
		with(func(q *tco.AttributionRequest) { q.By = []string{"team", "user"} }),
		with(func(q *tco.AttributionRequest) { q.By = []string{"team", "deadline"}; q.Idle = "even" }),
		with(func(q *tco.AttributionRequest) { q.Idle, q.Shared, q.Owner = "owner", "even", "speech" }),
		with(func(q *tco.AttributionRequest) {
			q.By = []string{"team", "user"}
			q.Shared, q.Owner = "owner", "research"
		}),
		with(func(q *tco.AttributionRequest) { q.By = []string{"project"}; q.PeriodEnd = nov1.AddDate(0, 0, 10) }),
	}
}

// sameAttribution checks got against want: the bill, and every group by
// its values' texts, to the cent, and in the same order.
func sameAttribution(t *testing.T, what string, got, want *tco.Attribution) {
	t.Helper()
	if !reflect.DeepEqual(got.Bill, want.Bill) {
		t.Errorf("%s: bill\n%+v\nwant\n%+v", what, got.Bill, want.Bill)
	}
	byText := func(a *tco.Attribution) map[string]tco.Group {
		m := map[string]tco.Group{}
		for _, g := range a.Groups {
			m[strings.Join(g.Values, "\x00")] = g
		}
		return m
	}
	gm, wm := byText(got), byText(want)
	if len(gm) != len(got.Groups) || len(gm) != len(wm) {
		t.Fatalf("%s: %d groups (%d texts), want %d", what, len(got.Groups), len(gm), len(wm))
	}
	for k, w := range wm {
		if g, ok := gm[k]; !ok || !reflect.DeepEqual(g, w) {
			t.Errorf("%s: group %q\n%+v\nwant\n%+v", what, w.Values, g, w)
		}
	}
	for i := range want.Groups {
		if !reflect.DeepEqual(got.Groups[i].Values, want.Groups[i].Values) {
			t.Errorf("%s: group %d is %q, want %q", what, i, got.Groups[i].Values, want.Groups[i].Values)
		}
	}
}

// partsOf attributes each share as a part and ships it through bytes.
func partsOf(t *testing.T, s *tco.Scenario, shares []share, req tco.AttributionRequest) [][]byte {
	t.Helper()
	out := make([][]byte, len(shares))
	for i, sh := range shares {
		p, err := s.AttributePart(sh.records, req)
		if err != nil {
			t.Fatalf("%+v: share %d: %v", req, i, err)
		}
		if out[i], err = p.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
		p.Close()
	}
	return out
}

func load(t *testing.T, b []byte) *tco.AttributionPart {
	t.Helper()
	p, err := tco.LoadAttributionPart(b)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// merged loads the parts' bytes and merges them in the order given.
func merged(t *testing.T, parts [][]byte, order []int) *tco.AttributionPart {
	t.Helper()
	into := load(t, parts[order[0]])
	for _, i := range order[1:] {
		if err := into.Merge(load(t, parts[i])); err != nil {
			t.Fatalf("merging part %d: %v", i, err)
		}
	}
	return into
}

// Shares of the records, each read on its own, attributed as parts,
// shipped as bytes and merged in any order settle into Attribute's result
// for all the records, to the cent.
func TestAttributeParts(t *testing.T) {
	rows := monthRows(t)
	all := readRows(t, rows[0], rows[1:])
	shares := monthShares(t, rows)
	// The split must put one group's records in several shares, and leave
	// shares whose records lack the owner and the deadline key, or the
	// merge of groups and texts goes untested.
	if a, b := values(t, shares[1].records, "team"), values(t, shares[2].records, "team"); !a["speech"] ||
		!b["speech"] || values(t, shares[0].records, "team")["speech"] {
		t.Fatalf("the speech team is not split: %v, %v", a, b)
	}
	if d := values(t, shares[0].records, "deadline"); len(d) != 1 || !d[""] {
		t.Fatalf("share 0 has deadlines: %v", d)
	}
	_, s, req := month(t)
	for _, q := range partsRequests(req) {
		want, err := s.Attribute(all, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		if len(want.Groups) < 3 {
			t.Fatalf("%+v: %d groups", q, len(want.Groups))
		}
		parts := partsOf(t, s, shares, q)
		r := rand.New(rand.NewSource(int64(len(q.By)) + int64(len(q.Owner))))
		for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}, r.Perm(3)} {
			p := merged(t, parts, order)
			if by := p.By(); !reflect.DeepEqual(by, q.By) {
				t.Errorf("By = %q, want %q", by, q.By)
			}
			got, err := p.Settle(s.Topology, s.Workload, s.Pricing)
			if err != nil {
				t.Fatalf("%+v: settle: %v", q, err)
			}
			sameAttribution(t, fmt.Sprintf("By %q idle %q shared %q owner %q, order %v", q.By, q.Idle, q.Shared,
				q.Owner, order), got, want)
		}
		// (a + b) + c and a + (b + c): a merged part ships and merges as any.
		bc := merged(t, parts, []int{1, 2})
		b, err := bc.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		a := load(t, parts[0])
		if err := a.Merge(load(t, b)); err != nil {
			t.Fatal(err)
		}
		got, err := a.Settle(s.Topology, s.Workload, s.Pricing)
		if err != nil {
			t.Fatal(err)
		}
		sameAttribution(t, fmt.Sprintf("By %q, a + (b + c)", q.By), got, want)
		// A share with no records (a machine given none) adds nothing.
		empty, err := s.AttributePart(readRows(t, rows[0], nil), q)
		if err != nil {
			t.Fatalf("empty share: %v", err)
		}
		if err := a.Merge(empty); err != nil {
			t.Fatal(err)
		}
		empty.Close()
		if got, err = a.Settle(s.Topology, s.Workload, s.Pricing); err != nil {
			t.Fatal(err)
		}
		sameAttribution(t, fmt.Sprintf("By %q, with an empty share", q.By), got, want)
	}
}

// The bill does not depend on the order of the records.
func TestAttributeRecordOrder(t *testing.T) {
	rows := monthRows(t)
	all := readRows(t, rows[0], rows[1:])
	shuffled := append([][]string(nil), rows[1:]...)
	rand.New(rand.NewSource(7)).Shuffle(len(shuffled), func(i, k int) {
		shuffled[i], shuffled[k] = shuffled[k], shuffled[i]
	})
	other := readRows(t, rows[0], shuffled)
	if r0, r1 := record(t, all, 0), record(t, other, 0); reflect.DeepEqual(r0, r1) {
		t.Fatal("the shuffle left the first record first")
	}
	_, s, req := month(t)
	for _, q := range partsRequests(req) {
		want, err := s.Attribute(all, q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Attribute(other, q)
		if err != nil {
			t.Fatal(err)
		}
		sameAttribution(t, fmt.Sprintf("By %q idle %q shared %q, shuffled", q.By, q.Idle, q.Shared), got, want)
	}
}

// wantErr checks that err is an *Error of the code whose message holds says.
func wantErr(t *testing.T, what string, err error, code tco.Status, says string) {
	t.Helper()
	var e *tco.Error
	if !errors.As(err, &e) || e.Code != code || !strings.Contains(e.Message, says) {
		t.Errorf("%s: %v, want %v saying %q", what, err, code, says)
	}
}

func TestAttributionPartRefusals(t *testing.T) {
	rows := monthRows(t)
	shares := monthShares(t, rows)
	_, s, req := month(t)
	part := func(sh int, q tco.AttributionRequest, sc *tco.Scenario) *tco.AttributionPart {
		t.Helper()
		p, err := sc.AttributePart(shares[sh].records, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	other := scenario(t, tco.Set("accelerators", 256))
	into := part(0, req, s)
	before, err := into.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	byProject, evenIdle, ownerLLM, ownerSpeech, week := req, req, req, req, req
	byProject.By = []string{"project"}
	evenIdle.Idle = "even"
	ownerLLM.Idle, ownerLLM.Owner = "owner", "llm"
	ownerSpeech.Idle, ownerSpeech.Owner = "owner", "speech"
	week.PeriodEnd = nov1.AddDate(0, 0, 7)
	for _, c := range []struct {
		what string
		from *tco.AttributionPart
		says string
	}{
		{"other keys", part(1, byProject, s), "from groups by other keys"},
		{"other rules", part(1, evenIdle, s), "from spreads by other rules"},
		{"other period", part(1, week, s), "from is of the period"},
		{"other inputs", part(1, req, other), "from was priced with other inputs"},
	} {
		err := into.Merge(c.from)
		wantErr(t, c.what, err, tco.StatusInconsistent, c.says)
		if e := (*tco.Error)(nil); errors.As(err, &e) && e.ParamName != "from" {
			t.Errorf("%s: ParamName %q", c.what, e.ParamName)
		}
	}
	// Owners are compared by text: "llm" of share 1's table against
	// "speech", which share 0 does not hold (interned for the part).
	p := part(0, ownerSpeech, s)
	wantErr(t, "other owner", p.Merge(part(1, ownerLLM, s)), tco.StatusInconsistent, "to another owner")
	if err := p.Merge(part(1, ownerSpeech, s)); err != nil {
		t.Errorf("same owner by text: %v", err)
	}
	// A failed merge leaves the part as it was.
	if after, err := into.MarshalBinary(); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the part changed in failed merges (%v)", err)
	}

	// Truncated or altered bytes.
	for _, n := range []int{0, 7, 8, 36, len(before) / 2, len(before) - 1} {
		p, err := tco.LoadAttributionPart(before[:n])
		wantErr(t, fmt.Sprintf("%d of %d bytes", n, len(before)), err, tco.StatusType, "")
		if p != nil {
			t.Errorf("%d bytes: a part", n)
		}
	}
	altered := append([]byte(nil), before...)
	altered[0] ^= 1
	if _, err := tco.LoadAttributionPart(altered); !errors.Is(err, tco.ErrType) {
		t.Errorf("altered magic: %v", err)
	}
	longer := append(append([]byte(nil), before...), 0)
	if _, err := tco.LoadAttributionPart(longer); !errors.Is(err, tco.ErrType) {
		t.Errorf("a byte past the end: %v", err)
	}

	// Settling or finding waste with other handles than the parts'.
	_, err = into.Settle(other.Topology, other.Workload, other.Pricing)
	wantErr(t, "settle with other handles", err, tco.StatusInconsistent, "other inputs")
	// The same workload (the fingerprints are of the values), another pricing table.
	_, err = into.Settle(s.Topology, other.Workload, other.Pricing)
	wantErr(t, "settle with another pricing table", err, tco.StatusInconsistent, "other inputs")
	_, err = tco.FindWastePart(shares[0].records, into, tco.DefaultWasteRequest(), other.Topology, other.Workload,
		other.Pricing)
	wantErr(t, "waste with other handles", err, tco.StatusInconsistent, "other inputs")
	// Records of a share that is not in whole.
	_, err = s.FindWastePart(shares[2].records, into, tco.DefaultWasteRequest())
	wantErr(t, "a share outside whole", err, tco.StatusInconsistent, "")

	// Requests refused as Attribute refuses them.
	bad := req
	bad.Idle = "fair"
	_, err = s.AttributePart(shares[0].records, bad)
	wantErr(t, "unknown rule", err, tco.StatusRange, `Idle = "fair"`)
	bad = req
	bad.By = []string{"team", "user", "project"}
	_, err = s.AttributePart(shares[0].records, bad)
	wantErr(t, "three keys", err, tco.StatusRange, "allowed 1")
	bad = req
	bad.PeriodEnd = bad.PeriodStart
	_, err = s.AttributePart(shares[0].records, bad)
	wantErr(t, "empty period", err, tco.StatusRange, "period_end")
	bad = req
	bad.By = []string{strings.Repeat("k", 300)} // interned: past TCO_TAG_MAX
	_, err = s.AttributePart(shares[0].records, bad)
	wantErr(t, "a key too long", err, tco.StatusRange, "By[0]")

	// Closed parts.
	c := part(0, req, s)
	c.Close()
	c.Close()
	if err := into.Merge(c); !errors.Is(err, tco.ErrClosed) {
		t.Errorf("merging a closed part: %v", err)
	}
	if err := c.Merge(into); !errors.Is(err, tco.ErrClosed) {
		t.Errorf("merging into a closed part: %v", err)
	}
	if _, err := c.MarshalBinary(); !errors.Is(err, tco.ErrClosed) {
		t.Errorf("MarshalBinary: %v", err)
	}
	if _, err := c.Settle(s.Topology, s.Workload, s.Pricing); !errors.Is(err, tco.ErrClosed) {
		t.Errorf("Settle: %v", err)
	}
	var none *tco.AttributionPart
	if none.Close() != nil {
		t.Error("Close of nil")
	}
	if _, err := s.FindWastePart(shares[0].records, none, tco.DefaultWasteRequest()); !errors.Is(err, tco.ErrClosed) {
		t.Errorf("FindWastePart of nil: %v", err)
	}
}

func findingKey(f tco.Finding) string {
	return fmt.Sprintf("%d/%d/%d/%s", f.Kind, f.Record, f.Other, f.Since.Format(time.RFC3339Nano))
}

// FindWastePart on each share, with the idle capacity of the whole, finds
// what FindWaste finds on all the records.
func TestFindWasteParts(t *testing.T) {
	rows := monthRows(t)
	all := readRows(t, rows[0], rows[1:])
	shares := monthShares(t, rows)
	_, s, req := month(t)
	wreq := tco.DefaultWasteRequest()
	want, err := s.FindWaste(all, req, wreq)
	if err != nil {
		t.Fatal(err)
	}
	parts := partsOf(t, s, shares, req)
	whole := merged(t, parts, []int{2, 0, 1})

	idle, err := whole.IdleWaste(wreq, s.Topology, s.Workload, s.Pricing)
	if err != nil {
		t.Fatal(err)
	}
	if len(idle.Findings) != 1 || idle.Findings[0].Kind != tco.FindingIdleCapacity || idle.Findings[0].Record != -1 {
		t.Fatalf("idle: %+v", idle.Findings)
	}
	got := append([]tco.Finding(nil), idle.Findings...)
	for i, sh := range shares {
		w, err := s.FindWastePart(sh.records, whole, wreq)
		if err != nil {
			t.Fatalf("share %d: %v", i, err)
		}
		for _, f := range w.Findings {
			if f.Kind == tco.FindingIdleCapacity || f.Record < 0 || f.Record >= len(sh.index) ||
				f.Other >= len(sh.index) {
				t.Fatalf("share %d: finding %+v", i, f)
			}
			f.Record = sh.index[f.Record]
			if f.Other >= 0 {
				f.Other = sh.index[f.Other]
			}
			got = append(got, f)
		}
	}
	kinds := map[tco.FindingKind]bool{}
	wantBy := map[string]tco.Finding{}
	for _, f := range want.Findings {
		kinds[f.Kind] = true
		wantBy[findingKey(f)] = f
	}
	// Every kind, those that relate records among them, or the test
	// proves less than it says.
	if len(kinds) != 8 || len(wantBy) != len(want.Findings) {
		t.Fatalf("%d kinds in %d findings (%d keys)", len(kinds), len(want.Findings), len(wantBy))
	}
	if len(got) != len(want.Findings) {
		t.Errorf("%d findings, want %d", len(got), len(want.Findings))
	}
	for _, f := range got {
		w, ok := wantBy[findingKey(f)]
		if !ok || !reflect.DeepEqual(f, w) {
			t.Errorf("finding %+v\nwant %+v", f, w)
		}
		delete(wantBy, findingKey(f))
	}
	for _, w := range wantBy {
		t.Errorf("missing %+v", w)
	}
}

// A part is read by many goroutines at once (settle, bytes, waste), with
// the same answers.
func TestAttributionPartShared(t *testing.T) {
	rows := monthRows(t)
	shares := monthShares(t, rows)
	_, s, req := month(t)
	parts := partsOf(t, s, shares, req)
	whole := merged(t, parts, []int{0, 1, 2})
	want, err := whole.Settle(s.Topology, s.Workload, s.Pricing)
	if err != nil {
		t.Fatal(err)
	}
	wantBytes, err := whole.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				a, err := whole.Settle(s.Topology, s.Workload, s.Pricing)
				if err != nil || !reflect.DeepEqual(a, want) {
					t.Errorf("Settle: %v", err)
				}
				if b, err := whole.MarshalBinary(); err != nil || !bytes.Equal(b, wantBytes) {
					t.Errorf("MarshalBinary: %v", err)
				}
				if _, err := s.FindWastePart(shares[g%3].records, whole, tco.DefaultWasteRequest()); err != nil {
					t.Errorf("FindWastePart: %v", err)
				}
			}
		}()
	}
	wg.Wait()
}
