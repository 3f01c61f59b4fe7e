package tco

// #include "tco_go.h"
import "C"

import (
	"runtime"
	"unsafe"
)

// Serving (doc/model.md, "Serving"): the accelerators a request or token
// rate series needs at a latency target, the fixed vs elastic split of
// that fleet, and its cost per million tokens. The series is passed to
// the library in place, never copied.

// ServeRate is the unit of a serving rate series (tco_serve_rate).
type ServeRate int32

const (
	RequestsPerSecond     ServeRate = C.TCO_SERVE_REQUESTS_PER_SECOND
	OutputTokensPerSecond ServeRate = C.TCO_SERVE_OUTPUT_TOKENS_PER_SECOND
)

// ServeRequest is the traffic and the targets (tco_serve_request). Start
// from DefaultServeRequest; the model is the workload's, the accelerator
// the topology's.
type ServeRequest struct {
	Rate            []float64 // one value of 0 or more per interval, in RateUnit
	IntervalSeconds float64   // 0.0036 to 3.6e9
	RateUnit        ServeRate
	// TensorParallel is the accelerators of a replica, 1 to 4096; 0: the
	// least power of two up to a node whose memory holds the weights and
	// one request.
	TensorParallel     int
	PromptTokens       float64 // per request, 0 to 1e7
	OutputTokens       float64 // per request, 1 to 1e7
	TimePerOutputToken float64 // s, the target
	TimeToFirstToken   float64 // s, the target; 0: none
	FLOPSShare         float64 // achieved share of peak FLOP/s, above 0 to 1
	BandwidthShare     float64 // achieved share of peak memory bandwidth, above 0 to 1
	MemoryShare        float64 // share of memory for weights and KV cache, above 0 to 1
	MaxBatch           float64 // 0: none; else a whole number of sequences
	MemoryBandwidthBps float64 // B/s per accelerator; 0: the catalogue's
	// Opt-in refinements, off at their zero values (doc/model.md, section 20).
	// QueuePercentile is the share of requests whose wait for a batch slot
	// (M/M/c) plus prefill meets TimeToFirstToken: above 0, below 1.
	QueuePercentile float64
	// TensorParallelAllreduce adds each layer's two ring all-reduces over
	// the topology's intra_node_gbps to prefill and decode.
	TensorParallelAllreduce bool
	Experts                 float64 // routed experts per MoE layer, whole, 2 to 1e6
	ExpertsPerToken         float64 // routed experts a token goes to, 1 to Experts - 1
}

// DefaultServeRequest is the library's defaults (tco_serve_request_init),
// without a series.
func DefaultServeRequest() ServeRequest {
	var q C.tco_serve_request
	C.tco_serve_request_init(&q)
	return ServeRequest{IntervalSeconds: float64(q.interval_seconds), RateUnit: ServeRate(q.rate_unit),
		TensorParallel: int(q.tensor_parallel), PromptTokens: float64(q.prompt_tokens),
		OutputTokens: float64(q.output_tokens), TimePerOutputToken: float64(q.time_per_output_token),
		TimeToFirstToken: float64(q.time_to_first_token), FLOPSShare: float64(q.flops_share),
		BandwidthShare: float64(q.bandwidth_share), MemoryShare: float64(q.memory_share),
		MaxBatch: float64(q.max_batch), MemoryBandwidthBps: float64(q.memory_bandwidth_bytes_per_s),
		QueuePercentile: float64(q.queue_percentile), TensorParallelAllreduce: q.tensor_parallel_allreduce != 0,
		Experts: float64(q.experts), ExpertsPerToken: float64(q.experts_per_token)}
}

// Serving is one replica at the batch the targets allow and the fleet
// over the series (tco_serving). Money in the pricing table's currency.
type Serving struct {
	TensorParallel                                       int     // accelerators per replica
	BatchLimit                                           string  // what bounds the batch: "latency", "memory" or "max_batch"
	Batch                                                float64 // sequences decoded together per replica
	MaxBatchMemory                                       float64 // the most the replica's memory holds
	MemoryBandwidthBps                                   float64 // per accelerator, the peak used
	PeakFLOPS                                            float64 // per accelerator, at the precision
	WeightBytes, KVBytesPerToken                         float64
	PrefillSeconds                                       float64 // one prompt: the least time to first token
	StepSeconds                                          float64 // one decode step of the batch
	TimePerOutputToken                                   float64 // at the batch, prefills' stalls included
	MinTimePerOutputToken                                float64 // at batch 1
	ReplicaOutputTokensPerSecond                         float64
	ReplicaRequestsPerSecond                             float64
	OutputTokensPerAcceleratorSecond                     float64
	Hours                                                float64
	Requests, PromptTokens, OutputTokens                 float64 // served over the series
	PeakAccelerators, MeanAccelerators, AcceleratorHours float64
	FixedAccelerators                                    float64 // the split's baseline
	FixedCost, ElasticCost, TotalCost                    float64
	ReservedUtilisation                                  float64
	CostPerMillionOutputTokens                           float64
	CostPerMillionTokens                                 float64   // prompt and output
	Utilisation                                          float64   // load of a replica: 1 without QueuePercentile
	QueueWaitSeconds                                     float64   // the wait for a slot at QueuePercentile
	AllreduceSeconds                                     float64   // of one decode step
	ExpertsRead                                          float64   // distinct experts a step reads per MoE layer
	WeightBytesRead                                      float64   // by one decode step
	Needed                                               []float64 // the accelerators of each point
	Split                                                Split     // the whole fixed/elastic split of Needed
}

// Serve is the serving fleet of req.Rate on the three frozen handles
// (tco_serving_compute). Errors name the request's field
// ("request.time_per_output_token"); a target below what one replica
// reaches is ErrInconsistent and says the least reachable.
func Serve(t *Topology, w *Workload, p *Pricing, req ServeRequest) (*Serving, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return nil, err
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	q := req.c(&pin)
	needed := make([]float64, len(req.Rate))
	var out C.tco_serving
	out.size = C.size_t(unsafe.Sizeof(out))
	var sp C.tco_split
	sp.size = C.size_t(unsafe.Sizeof(sp))
	ce := newCErr()
	var np *C.double
	if len(needed) > 0 {
		np = (*C.double)(unsafe.Pointer(&needed[0]))
	}
	rc := C.tco_serving_compute(&out, &sp, np, C.size_t(len(needed)), &q, ct, cw, cp, &ce)
	runtime.KeepAlive(req.Rate)
	runtime.KeepAlive(needed)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	return &Serving{
		TensorParallel: int(out.tensor_parallel), BatchLimit: C.GoString(C.tco_serve_limit_name(out.batch_limit)),
		Batch: float64(out.batch), MaxBatchMemory: float64(out.max_batch_memory),
		MemoryBandwidthBps: float64(out.memory_bandwidth_bytes_per_s), PeakFLOPS: float64(out.peak_flops),
		WeightBytes: float64(out.weight_bytes), KVBytesPerToken: float64(out.kv_bytes_per_token),
		PrefillSeconds: float64(out.prefill_seconds), StepSeconds: float64(out.step_seconds),
		TimePerOutputToken:               float64(out.time_per_output_token),
		MinTimePerOutputToken:            float64(out.min_time_per_output_token),
		ReplicaOutputTokensPerSecond:     float64(out.replica_output_tokens_per_second),
		ReplicaRequestsPerSecond:         float64(out.replica_requests_per_second),
		OutputTokensPerAcceleratorSecond: float64(out.output_tokens_per_accelerator_second),
		Hours:                            float64(out.hours), Requests: float64(out.requests),
		PromptTokens: float64(out.prompt_tokens), OutputTokens: float64(out.output_tokens),
		PeakAccelerators: float64(out.peak_accelerators), MeanAccelerators: float64(out.mean_accelerators),
		AcceleratorHours: float64(out.accelerator_hours), FixedAccelerators: float64(out.fixed_accelerators),
		FixedCost: float64(out.fixed_cost), ElasticCost: float64(out.elastic_cost),
		TotalCost: float64(out.total_cost), ReservedUtilisation: float64(out.reserved_utilisation),
		CostPerMillionOutputTokens: float64(out.cost_per_million_output_tokens),
		CostPerMillionTokens:       float64(out.cost_per_million_tokens),
		Utilisation:                float64(out.utilisation), QueueWaitSeconds: float64(out.queue_wait_seconds),
		AllreduceSeconds: float64(out.allreduce_seconds), ExpertsRead: float64(out.experts_read),
		WeightBytesRead: float64(out.weight_bytes_read),
		Needed:          needed, Split: splitOf(&sp),
	}, nil
}

// c is the request as the library reads it. It holds the series'
// pointer, pinned with pin (the cgo rules then let the library read it in
// place, also from a struct passed by pointer); unpin after the call.
func (req *ServeRequest) c(pin *runtime.Pinner) C.tco_serve_request {
	var q C.tco_serve_request
	C.tco_serve_request_init(&q)
	rate := dptr(req.Rate)
	pin.Pin(rate)
	q.rate, q.n = rate, C.size_t(len(req.Rate))
	q.interval_seconds = C.double(req.IntervalSeconds)
	q.rate_unit = C.int32_t(req.RateUnit)
	tp := req.TensorParallel
	if tp < 0 || tp > 1<<20 { // fits an int32; the library says what is allowed
		tp = -1
	}
	q.tensor_parallel = C.int32_t(tp)
	q.prompt_tokens, q.output_tokens = C.double(req.PromptTokens), C.double(req.OutputTokens)
	q.time_per_output_token, q.time_to_first_token = C.double(req.TimePerOutputToken), C.double(req.TimeToFirstToken)
	q.flops_share, q.bandwidth_share = C.double(req.FLOPSShare), C.double(req.BandwidthShare)
	q.memory_share, q.max_batch = C.double(req.MemoryShare), C.double(req.MaxBatch)
	q.memory_bandwidth_bytes_per_s = C.double(req.MemoryBandwidthBps)
	q.queue_percentile = C.double(req.QueuePercentile)
	if req.TensorParallelAllreduce {
		q.tensor_parallel_allreduce = 1
	}
	q.experts, q.experts_per_token = C.double(req.Experts), C.double(req.ExpertsPerToken)
	return q
}

// Serve is Serve on the scenario's handles.
func (s *Scenario) Serve(req ServeRequest) (*Serving, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	return Serve(s.Topology, s.Workload, s.Pricing, req)
}
