package tco

// /* The hot calls keep Go memory on the stack: cgo lets it stay there only
//  * for functions marked both noescape (C keeps no pointer) and nocallback
//  * (C never calls Go), which libtco's functions are. */
// #cgo noescape tcogo_price
// #cgo nocallback tcogo_price
// #cgo noescape tcogo_price_batch
// #cgo nocallback tcogo_price_batch
// #include "tco_go.h"
import "C"

import (
	"math"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"
)

// MaxParts is the most pools one placement may take accelerators from.
const MaxParts = 8

// PriceClass is how a pool's accelerators are paid for.
type PriceClass int32

// Price classes (tco_price_class).
const (
	OnDemand PriceClass = 0
	Reserved PriceClass = 1
	Spot     PriceClass = 2
	Owned    PriceClass = 3
)

// String is the library's name of the class ("on_demand", "spot"...), or
// "none" for NoPriceClass.
func (c PriceClass) String() string {
	if c == NoPriceClass {
		return "none"
	}
	if name := C.tco_price_class_name(C.int32_t(c)); name != nil {
		return C.GoString(name)
	}
	return "PriceClass(" + strconv.Itoa(int(c)) + ")"
}

// Pool is one pool of capacity: a zone, a rack group, a reserved block, a
// market. Rack, Zone and Region are locality ids of the caller's choosing:
// pools with equal ids share that rack, zone or region (a rack id lies in
// one zone, a zone id in one region).
type Pool struct {
	Class                    PriceClass
	AcceleratorsPerNode      int32
	FreeAccelerators         int32
	Rack, Zone, Region       int32
	RatePerAccelHour         float64 // in the pricing table's currency
	InterruptionsPerNodeHour float64 // reclaim rate of a spot node; 0 for other classes
}

// Job is a job waiting to be placed.
type Job struct {
	Accelerators          int32
	Interruptible         bool    // may run on spot pools
	DurationHours         float64 // expected at full locality, uninterrupted
	CommShare             float64 // 0 to 1: how communication-bound it is
	CheckpointBytes       float64 // what a restart goes back to
	TrafficGBPerAccelHour float64 // data each accelerator exchanges
	DelayCostPerHour      float64 // what a later start costs, per hour
}

func (j *Job) toC(c *C.tco_job) {
	c.size = C.size_t(unsafe.Sizeof(*c))
	c.accelerators = C.int32_t(j.Accelerators)
	c.interruptible = 0
	if j.Interruptible {
		c.interruptible = 1
	}
	c.duration_hours = C.double(j.DurationHours)
	c.comm_share = C.double(j.CommShare)
	c.checkpoint_bytes = C.double(j.CheckpointBytes)
	c.traffic_gb_per_accel_hour = C.double(j.TrafficGBPerAccelHour)
	c.delay_cost_per_hour = C.double(j.DelayCostPerHour)
}

// Part is the accelerators a placement takes from one pool.
type Part struct {
	Pool         int32 // a pool id (Pools.Add's)
	Accelerators int32
}

// Placement is one candidate placement of a job: accelerators from 1 to
// MaxParts pools, the racks, zones and regions it spans (0: counted from the
// pools' ids), and when it starts.
type Placement struct {
	Parts                 []Part
	Racks, Zones, Regions int32
	StartHours            float64 // from now
}

// Price is the expected cost of a placement and its parts; Cost is their
// sum. Amounts in the pricing table's currency.
type Price struct {
	Cost            float64
	CompletionHours float64 // start + run hours
	RunHours        float64 // with slowdown and interruptions
	Compute         float64 // the pools' rates over the full-locality duration
	Slowdown        float64 // the same rates over the extra time spanning costs
	Traffic         float64 // cross-zone and cross-region transfer
	Interruptions   float64 // expected rework and restarts
	Stranded        float64 // accelerators left idle on partly used nodes
	Delay           float64 // DelayCostPerHour x StartHours
}

// Pools is a set of pools of capacity. Add pools (ids 0, 1, 2... in the
// order added), then Freeze; frozen pools are immutable and may be shared
// by any number of goroutines. Close frees them; if they are never closed,
// the garbage collector does.
type Pools struct {
	ptr     unsafe.Pointer // *C.tco_pools; nil once closed
	mu      sync.Mutex     // serialises Add, Freeze and Close
	cleanup runtime.Cleanup
}

// NewPools makes an empty, unfrozen set of pools.
func NewPools() (*Pools, error) {
	if versionErr != nil {
		return nil, versionErr
	}
	var p *C.tco_pools
	ce := newCErr()
	if rc := C.tco_pools_new(&p, &ce); rc != 0 {
		return nil, failure(rc, &ce)
	}
	s := &Pools{ptr: unsafe.Pointer(p)}
	s.cleanup = runtime.AddCleanup(s, func(p *C.tco_pools) { C.tco_pools_free(p) }, p)
	return s, nil
}

// NewPoolsOf makes pools holding the given ones (ids in that order), frozen.
func NewPoolsOf(pools ...Pool) (*Pools, error) {
	s, err := NewPools()
	if err != nil {
		return nil, err
	}
	for _, p := range pools {
		if _, err := s.Add(p); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := s.Freeze(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Pools) c() (*C.tco_pools, error) {
	if s == nil {
		return nil, errClosed("pools")
	}
	p := atomic.LoadPointer(&s.ptr)
	if p == nil {
		return nil, errClosed("pools")
	}
	return (*C.tco_pools)(p), nil
}

// Add checks a pool and adds it; it returns the pool's id. Pools cannot be
// added once frozen (ErrFrozen).
func (s *Pools) Add(pool Pool) (int32, error) {
	if s == nil {
		return 0, errClosed("pools")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cs, err := s.c()
	if err != nil {
		return 0, err
	}
	c := C.tco_pool{
		price_class:                 C.int32_t(pool.Class),
		accelerators_per_node:       C.int32_t(pool.AcceleratorsPerNode),
		free_accelerators:           C.int32_t(pool.FreeAccelerators),
		rack:                        C.int32_t(pool.Rack),
		zone:                        C.int32_t(pool.Zone),
		region:                      C.int32_t(pool.Region),
		rate_per_accel_hour:         C.double(pool.RatePerAccelHour),
		interruptions_per_node_hour: C.double(pool.InterruptionsPerNodeHour),
	}
	c.size = C.size_t(unsafe.Sizeof(c))
	var id C.int32_t
	ce := newCErr()
	rc := C.tco_pools_add(cs, &c, &id, &ce)
	runtime.KeepAlive(s)
	if rc != 0 {
		return 0, failure(rc, &ce)
	}
	return int32(id), nil
}

// Freeze checks the pools together (a rack id in one zone, a zone id in one
// region) and makes them immutable. Freezing twice is fine.
func (s *Pools) Freeze() error {
	if s == nil {
		return errClosed("pools")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cs, err := s.c()
	if err != nil {
		return err
	}
	ce := newCErr()
	rc := C.tco_pools_freeze(cs, &ce)
	runtime.KeepAlive(s)
	return failure(rc, &ce)
}

// Len is the number of pools (0 once closed).
func (s *Pools) Len() int {
	cs, err := s.c()
	if err != nil {
		return 0
	}
	n := int(C.tco_pools_count(cs))
	runtime.KeepAlive(s)
	return n
}

// Get is the pool of an id, as it was added.
func (s *Pools) Get(id int32) (Pool, error) {
	cs, err := s.c()
	if err != nil {
		return Pool{}, err
	}
	var c C.tco_pool
	c.size = C.size_t(unsafe.Sizeof(c))
	ce := newCErr()
	rc := C.tco_pools_get(&c, cs, C.int32_t(id), &ce)
	runtime.KeepAlive(s)
	if rc != 0 {
		return Pool{}, failure(rc, &ce)
	}
	return Pool{
		Class: PriceClass(c.price_class), AcceleratorsPerNode: int32(c.accelerators_per_node),
		FreeAccelerators: int32(c.free_accelerators), Rack: int32(c.rack), Zone: int32(c.zone),
		Region: int32(c.region), RatePerAccelHour: float64(c.rate_per_accel_hour),
		InterruptionsPerNodeHour: float64(c.interruptions_per_node_hour),
	}, nil
}

// Close frees the pools. It may be called more than once; other methods
// then return an error matching ErrClosed. It must not run while another
// goroutine is still pricing with the pools.
func (s *Pools) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := atomic.SwapPointer(&s.ptr, nil); p != nil {
		s.cleanup.Stop()
		C.tco_pools_free((*C.tco_pools)(p))
	}
	return nil
}

// inputs are the C handles of a pricing call, or the first one's error.
func (s *Pools) inputs(t *Topology, p *Pricing) (*C.tco_pools, *C.tco_topology, *C.tco_pricing, error) {
	cs, err := s.c()
	if err != nil {
		return nil, nil, nil, err
	}
	ct, err := t.ptr()
	if err != nil {
		return nil, nil, nil, err
	}
	cp, err := p.ptr()
	if err != nil {
		return nil, nil, nil, err
	}
	return cs, ct, cp, nil
}

// Price prices one placement of a job: the hot path of a scheduler. The
// topology gives the span slowdowns, restart time and checkpoint bandwidth;
// the pricing table the transfer prices. job and pl are read during the
// call and not kept (pointers, so that nothing is copied). The pools,
// topology and pricing may be shared by any number of goroutines; nothing
// is allocated unless the placement cannot be priced.
func (s *Pools) Price(t *Topology, p *Pricing, job *Job, pl *Placement) (Price, error) {
	cs, ct, cp, err := s.inputs(t, p)
	if err != nil {
		return Price{}, err
	}
	if job == nil || pl == nil {
		return Price{}, errArg(StatusNull, "job", "the job and the placement must not be nil")
	}
	if len(pl.Parts) > MaxParts {
		return Price{}, errArg(StatusRange, "placement.parts", "placement.parts = "+
			strconv.Itoa(len(pl.Parts))+" is out of range: allowed 1 to "+strconv.Itoa(MaxParts))
	}
	var cj C.tco_job
	job.toC(&cj)
	var cpl C.tco_placement
	cpl.size = C.size_t(unsafe.Sizeof(cpl))
	cpl.parts = C.int32_t(len(pl.Parts))
	for i, part := range pl.Parts {
		cpl.pool[i] = C.int32_t(part.Pool)
		cpl.accelerators[i] = C.int32_t(part.Accelerators)
	}
	cpl.racks = C.int32_t(pl.Racks)
	cpl.zones = C.int32_t(pl.Zones)
	cpl.regions = C.int32_t(pl.Regions)
	cpl.start_hours = C.double(pl.StartHours)
	var out C.tco_price
	out.size = C.size_t(unsafe.Sizeof(out))
	hs, ht, hp := cHandle(unsafe.Pointer(cs)), cHandle(unsafe.Pointer(ct)), cHandle(unsafe.Pointer(cp))
	rc := C.tcogo_price(&out, hs, ht, hp, &cj, &cpl, nil)
	if rc != 0 {
		// Again for the message (off the hot path; pricing is pure).
		ce := newCErr()
		rc = C.tcogo_price(&out, hs, ht, hp, &cj, &cpl, &ce)
		err = failure(rc, &ce)
	}
	runtime.KeepAlive(s)
	runtime.KeepAlive(t)
	runtime.KeepAlive(p)
	if err != nil {
		return Price{}, err
	}
	return Price{
		Cost: float64(out.cost), CompletionHours: float64(out.completion_hours),
		RunHours: float64(out.run_hours), Compute: float64(out.compute), Slowdown: float64(out.slowdown),
		Traffic: float64(out.traffic), Interruptions: float64(out.interruptions),
		Stranded: float64(out.stranded), Delay: float64(out.delay),
	}, nil
}

// Batch is many placements as plain slices (a struct of arrays), priced in
// one call by PriceBatch. Placement i is of jobs[Job[i]]; its parts are
// Pool[i*MaxParts+j] with Accelerators[i*MaxParts+j] (a part of 0
// accelerators ends its list). Racks, Zones, Regions and StartHours are
// either empty (all 0) or one value per placement.
type Batch struct {
	MaxParts     int // parts per placement in Pool and Accelerators: 1 to tco.MaxParts
	Job          []int32
	Pool         []int32
	Accelerators []int32
	Racks        []int32
	Zones        []int32
	Regions      []int32
	StartHours   []float64
}

// Len is the number of placements.
func (b *Batch) Len() int { return len(b.Job) }

// Reset empties the batch, keeping its memory and MaxParts.
func (b *Batch) Reset() {
	b.Job, b.Pool, b.Accelerators = b.Job[:0], b.Pool[:0], b.Accelerators[:0]
	b.Racks, b.Zones, b.Regions, b.StartHours = b.Racks[:0], b.Zones[:0], b.Regions[:0], b.StartHours[:0]
}

// Add appends a placement of jobs[job]. MaxParts must be set first (0 is
// taken as tco.MaxParts).
func (b *Batch) Add(job int32, pl Placement) error {
	if b.MaxParts == 0 {
		b.MaxParts = MaxParts
	}
	if b.MaxParts < 1 || b.MaxParts > MaxParts {
		return errArg(StatusRange, "batch.max_parts", "batch.max_parts = "+strconv.Itoa(b.MaxParts)+
			" is out of range: allowed 1 to "+strconv.Itoa(MaxParts))
	}
	if len(pl.Parts) > b.MaxParts {
		return errArg(StatusRange, "placement.parts", "placement.parts = "+strconv.Itoa(len(pl.Parts))+
			" is more than batch.max_parts = "+strconv.Itoa(b.MaxParts))
	}
	n := len(b.Job)
	b.Job = append(b.Job, job)
	for j := 0; j < b.MaxParts; j++ {
		var part Part
		if j < len(pl.Parts) {
			part = pl.Parts[j]
		}
		b.Pool = append(b.Pool, part.Pool)
		b.Accelerators = append(b.Accelerators, part.Accelerators)
	}
	b.Racks = appendOptional(b.Racks, n, pl.Racks)
	b.Zones = appendOptional(b.Zones, n, pl.Zones)
	b.Regions = appendOptional(b.Regions, n, pl.Regions)
	if pl.StartHours != 0 || len(b.StartHours) > 0 {
		for len(b.StartHours) < n {
			b.StartHours = append(b.StartHours, 0)
		}
		b.StartHours = append(b.StartHours, pl.StartHours)
	}
	return nil
}

// appendOptional appends v to a column kept empty while every value is 0.
func appendOptional(col []int32, n int, v int32) []int32 {
	if v == 0 && len(col) == 0 {
		return col
	}
	for len(col) < n {
		col = append(col, 0)
	}
	return append(col, v)
}

// BatchResult receives the prices of a batch, one entry per placement. Its
// slices are reused from one PriceBatch to the next when large enough.
type BatchResult struct {
	Cost            []float64 // NaN where the placement could not be priced
	CompletionHours []float64 // NaN likewise
	Status          []Status  // StatusOK, or why placement i could not be priced
}

// Err is nil if placement i was priced, else an error with its code (price
// it alone with Pools.Price for the message).
func (r *BatchResult) Err(i int) error {
	if i < 0 || i >= len(r.Status) {
		return errArg(StatusIndex, "i", "placement index out of range")
	}
	return r.Status[i].Err()
}

func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// stackJobs jobs are converted on the stack; more go through a pool of
// buffers, so that a batch allocates nothing once warm.
const stackJobs = 16

var jobBuffers = sync.Pool{New: func() any { return new([]C.tco_job) }}

func i32p(s []int32) *C.int32_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.int32_t)(unsafe.Pointer(&s[0]))
}

// PriceBatch prices every placement of b in one call, exactly as Price
// would, into out (its slices grown to b.Len() as needed). A placement
// that cannot be priced gets its status and NaN figures, and the rest are
// still priced; the error is for arguments that make the whole batch
// unusable (slices of the wrong length, a closed or unfrozen handle).
func (s *Pools) PriceBatch(t *Topology, p *Pricing, jobs []Job, b *Batch, out *BatchResult) error {
	return s.priceBatch(t, p, jobs, b, out, 1)
}

// PriceBatchThreads is PriceBatch on threads the library starts and joins
// within the call (tco_placement_price_batch_mt; 0: one per online core,
// at most 256 and at most one per 16,384 placements): the same figures and
// statuses, bit for bit, for any thread count. A negative count is an
// error matching ErrRange, and writes nothing.
func (s *Pools) PriceBatchThreads(t *Topology, p *Pricing, jobs []Job, b *Batch, out *BatchResult, threads int) error {
	return s.priceBatch(t, p, jobs, b, out, int32(min(max(threads, -1), math.MaxInt32))) // C refuses -1
}

func (s *Pools) priceBatch(t *Topology, p *Pricing, jobs []Job, b *Batch, out *BatchResult, threads int32) error {
	cs, ct, cp, err := s.inputs(t, p)
	if err != nil {
		return err
	}
	if b == nil || out == nil {
		return errArg(StatusNull, "batch", "the batch and the result must not be nil")
	}
	n, mp := len(b.Job), b.MaxParts
	if mp < 1 || mp > MaxParts {
		return errArg(StatusRange, "batch.max_parts", "batch.max_parts = "+strconv.Itoa(mp)+
			" is out of range: allowed 1 to "+strconv.Itoa(MaxParts))
	}
	if len(b.Pool) != n*mp || len(b.Accelerators) != n*mp {
		return errArg(StatusSize, "batch.pool", "batch.pool and batch.accelerators must hold "+
			"len(batch.job) x batch.max_parts = "+strconv.Itoa(n*mp)+" values, not "+
			strconv.Itoa(len(b.Pool))+" and "+strconv.Itoa(len(b.Accelerators)))
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"batch.racks", len(b.Racks)}, {"batch.zones", len(b.Zones)}, {"batch.regions", len(b.Regions)},
		{"batch.start_hours", len(b.StartHours)}} {
		if c.n != 0 && c.n != n {
			return errArg(StatusSize, c.name, c.name+" must be empty or hold one value per placement ("+
				strconv.Itoa(n)+"), not "+strconv.Itoa(c.n))
		}
	}
	out.Cost = grow(out.Cost, n)
	out.CompletionHours = grow(out.CompletionHours, n)
	out.Status = grow(out.Status, n)
	if n == 0 {
		return nil
	}

	var small [stackJobs]C.tco_job
	var cj []C.tco_job
	if len(jobs) <= stackJobs {
		cj = small[:len(jobs)]
	} else {
		buf := jobBuffers.Get().(*[]C.tco_job)
		*buf = grow(*buf, len(jobs))
		cj = *buf
		defer jobBuffers.Put(buf)
	}
	for i := range jobs {
		jobs[i].toC(&cj[i])
	}
	var jp *C.tco_job
	if len(cj) > 0 {
		jp = &cj[0]
	}
	var start *C.double
	if len(b.StartHours) > 0 {
		start = (*C.double)(unsafe.Pointer(&b.StartHours[0]))
	}
	rc := C.tcogo_price_batch((*C.double)(unsafe.Pointer(&out.Cost[0])),
		(*C.double)(unsafe.Pointer(&out.CompletionHours[0])), (*C.int32_t)(unsafe.Pointer(&out.Status[0])),
		cHandle(unsafe.Pointer(cs)), cHandle(unsafe.Pointer(ct)), cHandle(unsafe.Pointer(cp)), jp, C.size_t(len(cj)), C.size_t(n), C.size_t(mp), i32p(b.Job), i32p(b.Pool),
		i32p(b.Accelerators), i32p(b.Racks), i32p(b.Zones), i32p(b.Regions), start, C.int32_t(threads), nil)
	if rc != 0 {
		ce := newCErr()
		rc = C.tcogo_price_batch((*C.double)(unsafe.Pointer(&out.Cost[0])),
			(*C.double)(unsafe.Pointer(&out.CompletionHours[0])), (*C.int32_t)(unsafe.Pointer(&out.Status[0])),
			cHandle(unsafe.Pointer(cs)), cHandle(unsafe.Pointer(ct)), cHandle(unsafe.Pointer(cp)), jp, C.size_t(len(cj)), C.size_t(n), C.size_t(mp), i32p(b.Job), i32p(b.Pool),
			i32p(b.Accelerators), i32p(b.Racks), i32p(b.Zones), i32p(b.Regions), start, C.int32_t(threads), &ce)
		err = failure(rc, &ce)
	}
	runtime.KeepAlive(s)
	runtime.KeepAlive(t)
	runtime.KeepAlive(p)
	runtime.KeepAlive(b)
	return err
}
