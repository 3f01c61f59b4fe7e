package tco

// #include "tco_go.h"
import "C"

import (
	"runtime"
	"unsafe"
)

// The accelerator catalogue with its list prices, and the rate a
// computation charges: the pricing table's, or the list price its -1 stands
// for (doc/model.md, "Accelerator catalogue" and "List prices").

// Accelerator is one catalogue row (tco_accelerator). Prices are in USD; 0
// where none is published.
type Accelerator struct {
	ID                    int32
	Name, Vendor          string
	BF16FLOPS, FP8FLOPS   float64 // dense peaks, FLOP/s
	MemoryBytes, TDPWatts float64
	MemoryBandwidthBps    float64 // peak memory (HBM) bandwidth, B/s; 0 for custom
	Source                string  // the datasheet
	OnDemandPerHour       float64
	ReservedPerHour       float64 // a term paid in full
	SpotPerHour           float64
	CapexPerAccelerator   float64
	PriceSource           string // where and when the prices were published
}

// Accelerators is the catalogue, "custom" first.
func Accelerators() ([]Accelerator, error) {
	n := int(C.tco_accelerator_count())
	out := make([]Accelerator, 0, n)
	for i := 0; i < n; i++ {
		var a C.tco_accelerator
		a.size = C.size_t(unsafe.Sizeof(a))
		e := newCErr()
		if rc := C.tco_accelerator_at(&a, C.size_t(i), &e); rc != C.TCO_OK {
			return nil, failure(rc, &e)
		}
		out = append(out, Accelerator{
			ID: int32(a.id), Name: C.GoString(a.name), Vendor: C.GoString(a.vendor),
			BF16FLOPS: float64(a.bf16_flops), FP8FLOPS: float64(a.fp8_flops),
			MemoryBytes: float64(a.memory_bytes), TDPWatts: float64(a.tdp_watts), Source: C.GoString(a.source),
			MemoryBandwidthBps: float64(a.memory_bandwidth_bytes_per_s),
			OnDemandPerHour:    float64(a.on_demand_per_accel_hour), ReservedPerHour: float64(a.reserved_per_accel_hour),
			SpotPerHour: float64(a.spot_per_accel_hour), CapexPerAccelerator: float64(a.capex_per_accelerator),
			PriceSource: C.GoString(a.price_source),
		})
	}
	return out, nil
}

// Rate is what the computations charge for one of the rates
// (on_demand_per_accel_hour, reserved_per_accel_hour, spot_per_accel_hour,
// capex_per_accelerator): the pricing table's, or the topology's
// accelerator's list price where the table leaves it at -1; StatusInconsistent
// naming it when there is none.
func Rate(name string, t *Topology, p *Pricing) (float64, error) {
	row, err := lookup(name)
	if err != nil {
		return 0, err
	}
	ct, err := t.ptr()
	if err != nil {
		return 0, err
	}
	cp, err := p.ptr()
	if err != nil {
		return 0, err
	}
	var v C.double
	e := newCErr()
	rc := C.tco_rate(&v, C.int32_t(row.Key), ct, cp, &e)
	runtime.KeepAlive(t)
	runtime.KeepAlive(p)
	if rc != C.TCO_OK {
		return 0, failure(rc, &e)
	}
	return float64(v), nil
}
