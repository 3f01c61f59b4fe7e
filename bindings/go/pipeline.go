package tco

// #include "tco_go.h"
import "C"

import (
	"runtime"
	"unsafe"
)

// The data pipeline of a scenario (doc/model.md, section 23): pulling the
// raw data in, preparing it, storing what deduplication and compression
// keep and reading it, each a cost line, with the data-stall share a cache
// and prefetching imply. The estimate is not changed: set the workload's
// data_stall_share to StallShare to price it. One library call.

// PipelineRequest is what the pipeline does and its prices
// (tco_pipeline_request). DefaultPipelineRequest gives the library's
// defaults; the library checks every field, naming the one out of range
// ("pipeline.dedup_kept_share").
type PipelineRequest struct {
	RawBytes                    float64 // B pulled before dedup and compression; 0: the workload's dataset
	PreprocessCPUNodeHoursPerTB float64 // CPU node-hours per raw TB to clean, deduplicate and tokenise
	CPUNodeHourPrice            float64 // cur per CPU node-hour
	DedupKeptShare              float64 // of the raw bytes, the share deduplication keeps: above 0 to 1
	CompressionRatio            float64 // bytes stored per byte kept: above 0 to 1
	CacheHitRate                float64 // of the bytes read, the share the loaders' cache serves
	PrefetchDepth               float64 // batches fetched ahead, whole
	RequestPricePer1000         float64 // cur per 1,000 read requests
	ObjectBytes                 float64 // B per read request
	InternetIngressPerGB        float64 // cur per GB pulled in
	NATPerGB                    float64 // cur per GB through NAT
	StorageMonths               float64 // months the prepared data is kept; 0: the estimate's held months
}

// DefaultPipelineRequest is the library's defaults (tco_pipeline_request_init).
func DefaultPipelineRequest() PipelineRequest {
	var c C.tco_pipeline_request
	C.tco_pipeline_request_init(&c)
	return PipelineRequest{RawBytes: float64(c.raw_bytes),
		PreprocessCPUNodeHoursPerTB: float64(c.preprocess_cpu_node_hours_per_tb),
		CPUNodeHourPrice:            float64(c.cpu_node_hour_price), DedupKeptShare: float64(c.dedup_kept_share),
		CompressionRatio: float64(c.compression_ratio), CacheHitRate: float64(c.cache_hit_rate),
		PrefetchDepth: float64(c.prefetch_depth), RequestPricePer1000: float64(c.request_price_per_1000),
		ObjectBytes: float64(c.object_bytes), InternetIngressPerGB: float64(c.internet_ingress_per_gb),
		NATPerGB: float64(c.nat_per_gb), StorageMonths: float64(c.storage_months)}
}

func (q *PipelineRequest) c() C.tco_pipeline_request {
	var c C.tco_pipeline_request
	C.tco_pipeline_request_init(&c)
	c.raw_bytes = C.double(q.RawBytes)
	c.preprocess_cpu_node_hours_per_tb = C.double(q.PreprocessCPUNodeHoursPerTB)
	c.cpu_node_hour_price = C.double(q.CPUNodeHourPrice)
	c.dedup_kept_share = C.double(q.DedupKeptShare)
	c.compression_ratio = C.double(q.CompressionRatio)
	c.cache_hit_rate = C.double(q.CacheHitRate)
	c.prefetch_depth = C.double(q.PrefetchDepth)
	c.request_price_per_1000 = C.double(q.RequestPricePer1000)
	c.object_bytes = C.double(q.ObjectBytes)
	c.internet_ingress_per_gb = C.double(q.InternetIngressPerGB)
	c.nat_per_gb = C.double(q.NATPerGB)
	c.storage_months = C.double(q.StorageMonths)
	return c
}

// Pipeline is the pipeline's cost lines in the pricing table's currency,
// each with its quantity, and the stall its cache and prefetch imply
// (tco_pipeline).
type Pipeline struct {
	RawBytes, PreparedBytes         float64 // B pulled; B stored (raw x kept share x compression)
	PreprocessNodeHours             float64
	PreprocessCost                  float64
	StorageGB, StorageMonths        float64
	StorageGBMonths, StorageCost    float64 // at the pricing table's storage_hot_per_gb_month
	ReadBytes, StorageReadBytes     float64 // B read over every epoch and run; of them, from storage
	ReadRequests, RequestCost       float64
	IngressGB, IngressCost, NATCost float64
	Total                           float64 // the five costs added up
	Steps, BatchBytes               float64 // per run; B one step reads
	FetchSeconds, ComputeSeconds    float64 // per step
	StallSeconds, StallShare        float64 // per step; stall / (compute + stall)
	DataStallShareFloor             float64 // the workload's data_stall_share
	EstimateDataStallShare          float64 // the share the estimate used
}

// DataPipeline prices the scenario's data pipeline (tco_data_pipeline_compute).
func DataPipeline(q PipelineRequest, t *Topology, w *Workload, p *Pricing) (Pipeline, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return Pipeline{}, err
	}
	cq := q.c()
	var o C.tco_pipeline
	o.size = C.size_t(unsafe.Sizeof(o))
	ce := newCErr()
	rc := C.tco_data_pipeline_compute(&o, &cq, ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return Pipeline{}, failure(rc, &ce)
	}
	return Pipeline{RawBytes: float64(o.raw_bytes), PreparedBytes: float64(o.prepared_bytes),
		PreprocessNodeHours: float64(o.preprocess_node_hours), PreprocessCost: float64(o.preprocess_cost),
		StorageGB: float64(o.storage_gb), StorageMonths: float64(o.storage_months),
		StorageGBMonths: float64(o.storage_gb_months), StorageCost: float64(o.storage_cost),
		ReadBytes: float64(o.read_bytes), StorageReadBytes: float64(o.storage_read_bytes),
		ReadRequests: float64(o.read_requests), RequestCost: float64(o.request_cost),
		IngressGB: float64(o.ingress_gb), IngressCost: float64(o.ingress_cost), NATCost: float64(o.nat_cost),
		Total: float64(o.total), Steps: float64(o.steps), BatchBytes: float64(o.batch_bytes),
		FetchSeconds: float64(o.fetch_seconds), ComputeSeconds: float64(o.compute_seconds),
		StallSeconds: float64(o.stall_seconds), StallShare: float64(o.stall_share),
		DataStallShareFloor:    float64(o.data_stall_share_floor),
		EstimateDataStallShare: float64(o.estimate_data_stall_share)}, nil
}

// DataPipeline prices the scenario's data pipeline (DataPipeline).
func (sc *Scenario) DataPipeline(q PipelineRequest) (Pipeline, error) {
	if sc == nil {
		return Pipeline{}, errClosed("scenario")
	}
	return DataPipeline(q, sc.Topology, sc.Workload, sc.Pricing)
}
