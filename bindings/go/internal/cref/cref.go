// Package cref computes reference values and timings in C alone, without
// the Go binding in between, so that the binding's tests can check it gives
// the very numbers C gives and its benchmarks can compare with C in the
// same process. Test support only.
package cref

/*
#cgo pkg-config: libtco
#cgo noescape cref_nop_price
#cgo nocallback cref_nop_price
#cgo noescape cref_estimate_call
#cgo nocallback cref_estimate_call
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tco.h>

typedef struct cref {
    tco_pools *pools;
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    tco_job *jobs;
    size_t njobs;
    tco_placement *singles;
    int32_t *single_job;
    size_t nsingles;
} cref;

static void cref_free(cref *c)
{
    if (!c)
        return;
    tco_pools_free(c->pools);
    tco_topology_free(c->t);
    tco_workload_free(c->w);
    tco_pricing_free(c->p);
    free(c->jobs);
    free(c->singles);
    free(c->single_job);
    free(c);
}

// A context from a scenario file, the pools and the jobs, all made in C.
static int cref_new(cref **out, const uint8_t *scenario, size_t len, const tco_pool *pools, size_t npools,
                    const tco_job *jobs, size_t njobs)
{
    cref *c = calloc(1, sizeof *c);
    if (!c)
        return TCO_E_NOMEM;
    int rc = tco_scenario_load_cbor(&c->t, &c->w, &c->p, scenario, len, NULL);
    if (rc == TCO_OK)
        rc = tco_topology_freeze(c->t, NULL);
    if (rc == TCO_OK)
        rc = tco_workload_freeze(c->w, NULL);
    if (rc == TCO_OK)
        rc = tco_pricing_freeze(c->p, NULL);
    if (rc == TCO_OK)
        rc = tco_pools_new(&c->pools, NULL);
    for (size_t i = 0; rc == TCO_OK && i < npools; i++)
        rc = tco_pools_add(c->pools, &pools[i], NULL, NULL);
    if (rc == TCO_OK)
        rc = tco_pools_freeze(c->pools, NULL);
    if (rc == TCO_OK && njobs) {
        c->jobs = malloc(njobs * sizeof *c->jobs);
        if (!c->jobs)
            rc = TCO_E_NOMEM;
        else
            memcpy(c->jobs, jobs, njobs * sizeof *c->jobs);
        c->njobs = njobs;
    }
    if (rc != TCO_OK) {
        cref_free(c);
        return rc;
    }
    *out = c;
    return TCO_OK;
}

static int cref_price(tco_price *out, const cref *c, int32_t job, const tco_placement *pl)
{
    if (job < 0 || (size_t)job >= c->njobs)
        return TCO_E_INDEX;
    out->size = sizeof *out;
    return tco_placement_price(out, c->pools, c->t, c->p, &c->jobs[job], pl, NULL);
}

static int cref_batch(const cref *c, double *cost, double *completion, int32_t *status, size_t count,
                      size_t max_parts, const int32_t *job, const int32_t *pool, const int32_t *acc,
                      const double *start, int rounds)
{
    tco_placement_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = count;
    b.max_parts = max_parts;
    b.job = job;
    b.pool = pool;
    b.accelerators = acc;
    b.start_hours = start;
    int rc = TCO_OK;
    for (int r = 0; r < rounds && rc == TCO_OK; r++)
        rc = tco_placement_price_batch(cost, completion, status, c->pools, c->t, c->p, c->jobs, c->njobs, &b,
                                       NULL);
    return rc;
}

// The first n placements of a batch as tco_placement structs, for the loop
// of single calls.
static int cref_singles(cref *c, size_t n, size_t max_parts, const int32_t *job, const int32_t *pool,
                        const int32_t *acc, const double *start)
{
    free(c->singles);
    free(c->single_job);
    c->singles = calloc(n ? n : 1, sizeof *c->singles);
    c->single_job = calloc(n ? n : 1, sizeof *c->single_job);
    if (!c->singles || !c->single_job)
        return TCO_E_NOMEM;
    for (size_t i = 0; i < n; i++) {
        tco_placement *pl = &c->singles[i];
        pl->size = sizeof *pl;
        for (size_t j = 0; j < max_parts && acc[i * max_parts + j]; j++) {
            pl->pool[j] = pool[i * max_parts + j];
            pl->accelerators[j] = acc[i * max_parts + j];
            pl->parts++;
        }
        pl->start_hours = start ? start[i] : 0;
        c->single_job[i] = job[i];
    }
    c->nsingles = n;
    return TCO_OK;
}

// calls single calls over the prepared placements, in a C loop.
static double cref_loop_single(const cref *c, long calls, int *failed)
{
    tco_price price;
    memset(&price, 0, sizeof price);
    price.size = sizeof price;
    double sink = 0;
    for (long i = 0; i < calls; i++) {
        size_t k = (size_t)i % c->nsingles;
        if (tco_placement_price(&price, c->pools, c->t, c->p, &c->jobs[c->single_job[k]], &c->singles[k], NULL))
            ++*failed;
        sink += price.cost;
    }
    return sink;
}

static double cref_loop_estimate(const cref *c, long calls, int *failed)
{
    tco_estimate e;
    memset(&e, 0, sizeof e);
    e.size = sizeof e;
    double sink = 0;
    for (long i = 0; i < calls; i++) {
        if (tco_estimate_compute(&e, c->t, c->w, c->p, NULL))
            ++*failed;
        sink += e.total;
    }
    return sink;
}

// One estimate into the caller's struct: the bare cgo call of Compute.
static int cref_estimate_call(tco_estimate *e, const cref *c)
{
    return tco_estimate_compute(e, c->t, c->w, c->p, NULL);
}

// Does nothing, with tco_placement_price's arguments (as the binding passes
// them): the floor of a cgo call of that shape.
__attribute__((noinline)) static int cref_nop_price(tco_price *out, uintptr_t pools, uintptr_t t, uintptr_t p,
                                                     const tco_job *job, const tco_placement *pl, tco_error *e)
{
    (void)pools; (void)t; (void)p; (void)job; (void)pl; (void)e;
    out->cost = 0;
    return 0;
}

// The scenario's estimate, computed and saved as a result file in C: *len
// receives its size (written only when cap is enough).
static int cref_estimate(const cref *c, double *total, uint8_t *buf, size_t cap, size_t *len)
{
    tco_estimate e;
    memset(&e, 0, sizeof e);
    e.size = sizeof e;
    int rc = tco_estimate_compute(&e, c->t, c->w, c->p, NULL);
    if (rc)
        return rc;
    *total = e.total;
    return tco_estimate_save_cbor(buf, cap, len, &e, NULL);
}

// ---- decisions: each call made in C alone, on a scenario loaded here ----

static int cref_load(tco_topology **t, tco_workload **w, tco_pricing **p, const uint8_t *buf, size_t len)
{
    *t = NULL;
    *w = NULL;
    *p = NULL;
    int rc = tco_scenario_load_cbor(t, w, p, buf, len, NULL);
    if (rc == TCO_OK)
        rc = tco_topology_freeze(*t, NULL);
    if (rc == TCO_OK)
        rc = tco_workload_freeze(*w, NULL);
    if (rc == TCO_OK)
        rc = tco_pricing_freeze(*p, NULL);
    return rc;
}

static void cref_unload(tco_topology *t, tco_workload *w, tco_pricing *p)
{
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
}

// n scenarios, scenario i at buf + off[i], off[i + 1] - off[i] bytes.
static int cref_compare(tco_option *out, size_t n, const uint8_t *buf, const size_t *off, tco_error *err)
{
    const tco_topology *ts[16];
    const tco_workload *ws[16];
    const tco_pricing *ps[16];
    tco_topology *t[16] = { 0 };
    tco_workload *w[16] = { 0 };
    tco_pricing *p[16] = { 0 };
    if (n > 16)
        return TCO_E_RANGE;
    int rc = TCO_OK;
    for (size_t i = 0; i < n && rc == TCO_OK; i++) {
        rc = cref_load(&t[i], &w[i], &p[i], buf + off[i], off[i + 1] - off[i]);
        ts[i] = t[i];
        ws[i] = w[i];
        ps[i] = p[i];
    }
    if (rc == TCO_OK)
        rc = tco_compare(out, sizeof *out, n, ts, ws, ps, err);
    for (size_t i = 0; i < n; i++)
        cref_unload(t[i], w[i], p[i]);
    return rc;
}

static int cref_size(tco_sizing *out, const tco_target *g, const uint8_t *buf, size_t len, tco_error *err)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    int rc = cref_load(&t, &w, &p, buf, len);
    out->size = sizeof *out;
    if (rc == TCO_OK)
        rc = tco_size(out, g, t, w, p, err);
    cref_unload(t, w, p);
    return rc;
}

static int cref_sensitivity(tco_swing *out, size_t cap, size_t *n, double share, const uint8_t *buf, size_t len,
                            tco_error *err)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    int rc = cref_load(&t, &w, &p, buf, len);
    if (rc == TCO_OK)
        rc = tco_sensitivity(out, sizeof *out, cap, n, share, t, w, p, err);
    cref_unload(t, w, p);
    return rc;
}

static int cref_monte_carlo(tco_summary *sums, double *corr, const tco_uncertain *in, size_t k, uint64_t seed,
                            size_t samples, int32_t threads, const uint8_t *buf, size_t len, tco_error *err)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    int rc = cref_load(&t, &w, &p, buf, len);
    if (rc == TCO_OK)
        rc = tco_monte_carlo(sums, sizeof *sums, corr, in, k, seed, samples, threads, t, w, p, err);
    cref_unload(t, w, p);
    return rc;
}
*/
import "C"

import (
	"errors"
	"strconv"
	"unsafe"

	"libtco.dev/tco"
)

// Ctx is a scenario, pools and jobs made in C.
type Ctx struct{ c *C.cref }

// New makes the C context: the scenario from its CBOR, the pools and the
// jobs as given.
func New(scenario []byte, pools []tco.Pool, jobs []tco.Job) (*Ctx, error) {
	if len(scenario) == 0 {
		return nil, errors.New("cref: empty scenario")
	}
	cp := make([]C.tco_pool, len(pools)+1)
	for i, p := range pools {
		cp[i] = C.tco_pool{
			size: C.size_t(unsafe.Sizeof(cp[i])), price_class: C.int32_t(p.Class),
			accelerators_per_node: C.int32_t(p.AcceleratorsPerNode), free_accelerators: C.int32_t(p.FreeAccelerators),
			rack: C.int32_t(p.Rack), zone: C.int32_t(p.Zone), region: C.int32_t(p.Region),
			rate_per_accel_hour:         C.double(p.RatePerAccelHour),
			interruptions_per_node_hour: C.double(p.InterruptionsPerNodeHour),
		}
	}
	cj := make([]C.tco_job, len(jobs)+1)
	for i, j := range jobs {
		cj[i] = C.tco_job{
			size: C.size_t(unsafe.Sizeof(cj[i])), accelerators: C.int32_t(j.Accelerators),
			duration_hours: C.double(j.DurationHours), comm_share: C.double(j.CommShare),
			checkpoint_bytes: C.double(j.CheckpointBytes), traffic_gb_per_accel_hour: C.double(j.TrafficGBPerAccelHour),
			delay_cost_per_hour: C.double(j.DelayCostPerHour),
		}
		if j.Interruptible {
			cj[i].interruptible = 1
		}
	}
	var c *C.cref
	rc := C.cref_new(&c, (*C.uint8_t)(unsafe.Pointer(&scenario[0])), C.size_t(len(scenario)),
		&cp[0], C.size_t(len(pools)), &cj[0], C.size_t(len(jobs)))
	if rc != 0 {
		return nil, errors.New("cref: " + C.GoString(C.tco_status_message(rc)))
	}
	return &Ctx{c}, nil
}

// Close frees the context.
func (x *Ctx) Close() { C.cref_free(x.c); x.c = nil }

// Price prices placement pl of job in C: every field of tco_price in the
// order of tco.Price, and the status.
func (x *Ctx) Price(job int32, pl tco.Placement) ([9]float64, int) {
	var cpl C.tco_placement
	cpl.size = C.size_t(unsafe.Sizeof(cpl))
	cpl.parts = C.int32_t(len(pl.Parts))
	for i, p := range pl.Parts {
		if i >= tco.MaxParts {
			break
		}
		cpl.pool[i] = C.int32_t(p.Pool)
		cpl.accelerators[i] = C.int32_t(p.Accelerators)
	}
	cpl.racks, cpl.zones, cpl.regions = C.int32_t(pl.Racks), C.int32_t(pl.Zones), C.int32_t(pl.Regions)
	cpl.start_hours = C.double(pl.StartHours)
	var out C.tco_price
	rc := C.cref_price(&out, x.c, C.int32_t(job), &cpl)
	return [9]float64{float64(out.cost), float64(out.completion_hours), float64(out.run_hours),
		float64(out.compute), float64(out.slowdown), float64(out.traffic), float64(out.interruptions),
		float64(out.stranded), float64(out.delay)}, int(rc)
}

func i32(s []int32) *C.int32_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.int32_t)(unsafe.Pointer(&s[0]))
}

// Batch prices a batch (Job, Pool, Accelerators and StartHours; no spans)
// rounds times in C, into the given slices of len(b.Job) values.
func (x *Ctx) Batch(b *tco.Batch, cost, completion []float64, status []int32, rounds int) int {
	n := len(b.Job)
	if n == 0 || len(cost) < n || len(completion) < n || len(status) < n ||
		len(b.Pool) < n*b.MaxParts || len(b.Accelerators) < n*b.MaxParts {
		return -11
	}
	var start *C.double
	if len(b.StartHours) >= n {
		start = (*C.double)(unsafe.Pointer(&b.StartHours[0]))
	}
	return int(C.cref_batch(x.c, (*C.double)(unsafe.Pointer(&cost[0])), (*C.double)(unsafe.Pointer(&completion[0])),
		i32(status), C.size_t(n), C.size_t(b.MaxParts), i32(b.Job), i32(b.Pool), i32(b.Accelerators), start,
		C.int(rounds)))
}

// PrepareSingles takes the first n placements of b for LoopSingle.
func (x *Ctx) PrepareSingles(b *tco.Batch, n int) int {
	if n > len(b.Job) || n < 1 || len(b.Pool) < n*b.MaxParts || len(b.Accelerators) < n*b.MaxParts {
		return -11
	}
	var start *C.double
	if len(b.StartHours) >= n {
		start = (*C.double)(unsafe.Pointer(&b.StartHours[0]))
	}
	return int(C.cref_singles(x.c, C.size_t(n), C.size_t(b.MaxParts), i32(b.Job), i32(b.Pool),
		i32(b.Accelerators), start))
}

// LoopSingle makes calls single-placement calls in one C loop over the
// prepared placements; it returns the sum of the costs and the failures.
func (x *Ctx) LoopSingle(calls int) (float64, int) {
	var failed C.int
	s := C.cref_loop_single(x.c, C.long(calls), &failed)
	return float64(s), int(failed)
}

// LoopEstimate makes calls estimates of the scenario in one C loop.
func (x *Ctx) LoopEstimate(calls int) (float64, int) {
	var failed C.int
	s := C.cref_loop_estimate(x.c, C.long(calls), &failed)
	return float64(s), int(failed)
}

// EstimateCall is one cgo call of tco_estimate_compute into a struct on
// the Go stack, as the binding makes it, and the total: the floor of
// tco.ComputeScalars.
func (x *Ctx) EstimateCall() float64 {
	var e C.tco_estimate
	e.size = C.size_t(unsafe.Sizeof(e))
	if C.cref_estimate_call(&e, x.c) != 0 {
		return 0
	}
	return float64(e.total)
}

// Estimate is the scenario's total and its result file, computed in C.
func (x *Ctx) Estimate() (float64, []byte, int) {
	var total C.double
	var n C.size_t
	if rc := C.cref_estimate(x.c, &total, nil, 0, &n); rc != 0 && rc != C.TCO_E_SIZE {
		return 0, nil, int(rc)
	}
	buf := make([]byte, int(n)+1)
	rc := C.cref_estimate(x.c, &total, (*C.uint8_t)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), &n)
	return float64(total), buf[:int(n)], int(rc)
}

// Nop is one cgo call to a C function that does nothing (the library's
// version number): the floor of any call from Go to C.
func Nop() uint32 { return uint32(C.tco_version_number()) }

// NopPrice is one cgo call with the arguments of a placement's (pointers to
// structs on the Go stack, the handles as integers) to a C function that
// does nothing: the floor of the binding's single-placement call.
func NopPrice() int {
	var out C.tco_price
	var job C.tco_job
	var pl C.tco_placement
	return int(C.cref_nop_price(&out, 1, 2, 3, &job, &pl, nil))
}

// HandleKindName is tco_handle_kind_name(kind), or "" for NULL.
func HandleKindName(kind int32) string { return goString(C.tco_handle_kind_name(C.int32_t(kind))) }

// ParamTypeName is tco_param_type_name(typ), or "" for NULL.
func ParamTypeName(typ int32) string { return goString(C.tco_param_type_name(C.int32_t(typ))) }

// ScenarioFormatName is tco_scenario_format_name().
func ScenarioFormatName() string { return goString(C.tco_scenario_format_name()) }

// EstimateFlagName is tco_estimate_flag_name(flag), or "" for NULL.
func EstimateFlagName(flag uint64) string {
	return goString(C.tco_estimate_flag_name(C.uint64_t(flag)))
}

// EstimateFlagDescription is tco_estimate_flag_description(flag), or "" for
// NULL.
func EstimateFlagDescription(flag uint64) string {
	return goString(C.tco_estimate_flag_description(C.uint64_t(flag)))
}

func goString(s *C.char) string {
	if s == nil {
		return ""
	}
	return C.GoString(s)
}

// ---- decisions ----------------------------------------------------------

func cerr(rc C.int, e *C.tco_error) error {
	msg := C.GoString(&e.message[0])
	if msg == "" {
		msg = C.GoString(C.tco_status_message(rc))
	}
	return errors.New("cref: " + msg)
}

func newErr() C.tco_error {
	var e C.tco_error
	e.size = C.size_t(unsafe.Sizeof(e))
	return e
}

// Compare runs tco_compare in C on the scenarios (their CBOR), and gives
// each option's fields by their names in tco.h (flags as 0 or 1, cost and
// difference as "cost[i]" and "difference[i]"; the fingerprint apart).
func Compare(scenarios [][]byte) ([]map[string]float64, []uint64, error) {
	n := len(scenarios)
	if n == 0 || n > 16 {
		return nil, nil, errors.New("cref: 1 to 16 scenarios")
	}
	var buf []byte
	off := make([]C.size_t, n+1)
	for i, s := range scenarios {
		buf = append(buf, s...)
		off[i+1] = C.size_t(len(buf))
	}
	out := make([]C.tco_option, n)
	e := newErr()
	if rc := C.cref_compare(&out[0], C.size_t(n), (*C.uint8_t)(unsafe.Pointer(&buf[0])), &off[0], &e); rc != 0 {
		return nil, nil, cerr(rc, &e)
	}
	res := make([]map[string]float64, n)
	fps := make([]uint64, n)
	for i := range out {
		o := &out[i]
		m := map[string]float64{
			"total": float64(o.total), "total_difference": float64(o.total_difference),
			"cost_per_run": float64(o.cost_per_run), "cost_per_million_tokens": float64(o.cost_per_million_tokens),
			"cost_per_effective_accelerator_hour": float64(o.cost_per_effective_accelerator_hour),
			"cost_per_pflop_day":                  float64(o.cost_per_pflop_day), "one_off": float64(o.one_off),
			"recurring_per_run": float64(o.recurring_per_run), "saving_per_run": float64(o.saving_per_run),
			"saving_per_month": float64(o.saving_per_month), "pays_back": float64(o.pays_back),
			"cheaper": float64(o.cheaper), "payback_runs": float64(o.payback_runs),
			"payback_months": float64(o.payback_months), "breakeven_utilisation": float64(o.breakeven_utilisation),
			"breakeven_rate": float64(o.breakeven_rate),
		}
		for c := 0; c < int(C.tco_category_count()); c++ {
			m["cost["+strconv.Itoa(c)+"]"] = float64(o.cost[c])
			m["difference["+strconv.Itoa(c)+"]"] = float64(o.difference[c])
		}
		res[i] = m
		fps[i] = uint64(o.scenario_fingerprint)
	}
	return res, fps, nil
}

// Size runs tco_size in C on the scenario; the fields by their names in
// tco.h.
func Size(scenario []byte, solve int32, deadlineDays, budget, maxAccelerators, tolerance float64) (map[string]float64, error) {
	if len(scenario) == 0 {
		return nil, errors.New("cref: empty scenario")
	}
	g := C.tco_target{solve: C.int32_t(solve), deadline_days: C.double(deadlineDays), budget: C.double(budget),
		max_accelerators: C.double(maxAccelerators), tolerance: C.double(tolerance)}
	g.size = C.size_t(unsafe.Sizeof(g))
	var s C.tco_sizing
	e := newErr()
	if rc := C.cref_size(&s, &g, (*C.uint8_t)(unsafe.Pointer(&scenario[0])), C.size_t(len(scenario)), &e); rc != 0 {
		return nil, cerr(rc, &e)
	}
	return map[string]float64{
		"feasible": float64(s.feasible), "price_class": float64(s.price_class), "iterations": float64(s.iterations),
		"accelerators": float64(s.accelerators), "mfu": float64(s.mfu), "wall_days": float64(s.wall_days),
		"total": float64(s.total), "closest_wall_days": float64(s.closest_wall_days),
		"closest_total": float64(s.closest_total),
	}, nil
}

// Swing is a row of tco_sensitivity as C fills it.
type Swing struct {
	Key, Status, Clipped                                                int32
	LowValue, HighValue, LowTotal, HighTotal, LowUnit, HighUnit, Spread float64
}

// Sensitivity runs tco_sensitivity in C on the scenario.
func Sensitivity(scenario []byte, share float64) ([]Swing, error) {
	if len(scenario) == 0 {
		return nil, errors.New("cref: empty scenario")
	}
	rows := make([]C.tco_swing, int(C.tco_param_count()))
	var n C.size_t
	e := newErr()
	if rc := C.cref_sensitivity(&rows[0], C.size_t(len(rows)), &n, C.double(share),
		(*C.uint8_t)(unsafe.Pointer(&scenario[0])), C.size_t(len(scenario)), &e); rc != 0 {
		return nil, cerr(rc, &e)
	}
	out := make([]Swing, min(int(n), len(rows)))
	for i := range out {
		r := &rows[i]
		out[i] = Swing{int32(r.key), int32(r.status), int32(r.clipped), float64(r.low_value), float64(r.high_value),
			float64(r.low_total), float64(r.high_total), float64(r.low_unit), float64(r.high_unit), float64(r.spread)}
	}
	return out, nil
}

// MonteCarlo runs tco_monte_carlo in C on the scenario: each series'
// summary (mean, sd, min, max, p5, p10, p50, p90, p95) in the library's
// order, and each input's correlation with the total.
func MonteCarlo(scenario []byte, inputs []tco.Uncertain, seed uint64, samples, threads int) ([][9]float64, []float64, error) {
	if len(scenario) == 0 {
		return nil, nil, errors.New("cref: empty scenario")
	}
	in := make([]C.tco_uncertain, len(inputs)+1)
	for i, u := range inputs {
		p, err := tco.ParamByName(u.Param)
		if err != nil {
			return nil, nil, err
		}
		in[i] = C.tco_uncertain{key: C.int32_t(p.Key), distribution: C.int32_t(u.Distribution), a: C.double(u.A),
			b: C.double(u.B), c: C.double(u.C), lo: C.double(u.Lo), hi: C.double(u.Hi)}
		in[i].size = C.size_t(unsafe.Sizeof(in[i]))
	}
	sums := make([]C.tco_summary, int(C.tco_monte_carlo_series()))
	corr := make([]C.double, len(inputs)+1)
	e := newErr()
	if rc := C.cref_monte_carlo(&sums[0], &corr[0], &in[0], C.size_t(len(inputs)), C.uint64_t(seed),
		C.size_t(samples), C.int32_t(threads), (*C.uint8_t)(unsafe.Pointer(&scenario[0])), C.size_t(len(scenario)),
		&e); rc != 0 {
		return nil, nil, cerr(rc, &e)
	}
	out := make([][9]float64, len(sums))
	for i := range sums {
		s := &sums[i]
		out[i] = [9]float64{float64(s.mean), float64(s.sd), float64(s.min), float64(s.max), float64(s.p5),
			float64(s.p10), float64(s.p50), float64(s.p90), float64(s.p95)}
	}
	c := make([]float64, len(inputs))
	for j := range c {
		c[j] = float64(corr[j])
	}
	return out, c, nil
}
