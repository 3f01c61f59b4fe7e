package tco

// #include "tco_go.h"
import "C"

import (
	"runtime"
	"strconv"
	"unsafe"
)

// A cluster over its life (doc/model.md, section 18): years of the whole
// cluster, owned, reserved or rented, each category split into what is
// paid whatever the use and what follows use, the unused capacity and
// commitment, the cash and its net present value.

// LifetimeRequest is the life to price (tco_lifetime_request). Start from
// DefaultLifetimeRequest.
type LifetimeRequest struct {
	Years       int     // 1 to 50
	RefreshYear int     // 0: none; 1 to Years-1: the owned IT is bought again after that many years
	Utilisation float64 // 0 to 1, every year, unless UtilisationByYear
	// DiscountRate is per year, above -1.
	DiscountRate float64
	// UtilisationByYear, when not nil, holds Years shares 0 to 1.
	UtilisationByYear []float64
}

// DefaultLifetimeRequest is the library's defaults (tco_lifetime_request_init):
// five years, no refresh, 70% used, discounted at the default cost of capital.
func DefaultLifetimeRequest() LifetimeRequest {
	var q C.tco_lifetime_request
	C.tco_lifetime_request_init(&q)
	return LifetimeRequest{Years: int(q.years), RefreshYear: int(q.refresh_year),
		Utilisation: float64(q.utilisation), DiscountRate: float64(q.discount_rate)}
}

// LifetimeYear is one year (tco_lifetime_year). Cost and Fixed are by
// category name; Fixed is the part paid whatever the use.
type LifetimeYear struct {
	Year                      int
	Refreshed                 bool
	Utilisation               float64
	CapacityAcceleratorHours  float64
	UsedAcceleratorHours      float64
	EffectiveAcceleratorHours float64
	Cost, Fixed               map[string]float64
	Total, FixedTotal         float64
	UnusedOwned               float64 // the owned capacity's fixed cost of the hours nobody used
	UnusedCommitment          float64 // reserved hours paid, not used
	UnusedCommitmentHours     float64
	Capex, Running, Salvage   float64 // the year's cash
	PresentValue              float64
}

// Lifetime is the whole life (tco_lifetime) and its years.
type Lifetime struct {
	Years                     []LifetimeYear
	Cost, Fixed               map[string]float64
	Total, FixedTotal         float64
	CapacityAcceleratorHours  float64
	UsedAcceleratorHours      float64
	EffectiveAcceleratorHours float64
	UnusedOwned               float64
	UnusedCommitment          float64
	UnusedCommitmentHours     float64
	Capex, Running, Salvage   float64
	NPV                       float64 // net present value of the cash
	// CostPerEffectiveAcceleratorHour is Total over the effective hours;
	// LevelisedCostPerEffectiveAcceleratorHour is NPV over their present value.
	CostPerEffectiveAcceleratorHour          float64
	LevelisedCostPerEffectiveAcceleratorHour float64
}

// ComputeLifetime prices the cluster of the three frozen handles over its
// life (tco_lifetime_compute).
func ComputeLifetime(t *Topology, w *Workload, p *Pricing, req LifetimeRequest) (*Lifetime, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return nil, err
	}
	if req.Years < 1 || req.Years > 50 { // before the years are allocated
		return nil, errArg(StatusRange, "request.years", "request.years = "+strconv.Itoa(req.Years)+": allowed 1 to 50")
	}
	var q C.tco_lifetime_request
	C.tco_lifetime_request_init(&q)
	q.years = C.int32_t(req.Years)
	if req.RefreshYear < 0 || req.RefreshYear > 50 { // fits an int32; the library says what is allowed
		req.RefreshYear = -1
	}
	q.refresh_year = C.int32_t(req.RefreshYear)
	q.utilisation = C.double(req.Utilisation)
	q.discount_rate = C.double(req.DiscountRate)
	var shares *C.double
	if req.UtilisationByYear != nil {
		if len(req.UtilisationByYear) != req.Years {
			return nil, errArg(StatusRange, "request.utilisation_by_year",
				"request.utilisation_by_year: one share a year, as many as Years")
		}
		shares = (*C.double)(C.malloc(C.size_t(req.Years) * C.size_t(unsafe.Sizeof(C.double(0)))))
		if shares == nil {
			return nil, &Error{Code: StatusNoMem, Message: "no memory for the utilisation by year"}
		}
		defer C.free(unsafe.Pointer(shares))
		s := unsafe.Slice(shares, req.Years)
		for i, v := range req.UtilisationByYear {
			s[i] = C.double(v)
		}
		q.utilisation_by_year = shares
	}
	years := make([]C.tco_lifetime_year, req.Years)
	var life C.tco_lifetime
	life.size = C.size_t(unsafe.Sizeof(life))
	ce := newCErr()
	rc := C.tco_lifetime_compute(&life, &years[0], C.size_t(unsafe.Sizeof(years[0])), C.size_t(len(years)), &q,
		ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	out := &Lifetime{
		Cost: byCategory[float64](&life.cost), Fixed: byCategory[float64](&life.fixed),
		Total: float64(life.total), FixedTotal: float64(life.fixed_total),
		CapacityAcceleratorHours:  float64(life.capacity_accelerator_hours),
		UsedAcceleratorHours:      float64(life.used_accelerator_hours),
		EffectiveAcceleratorHours: float64(life.effective_accelerator_hours),
		UnusedOwned:               float64(life.unused_owned), UnusedCommitment: float64(life.unused_commitment),
		UnusedCommitmentHours: float64(life.unused_commitment_hours),
		Capex:                 float64(life.capex), Running: float64(life.running), Salvage: float64(life.salvage),
		NPV:                                      float64(life.npv),
		CostPerEffectiveAcceleratorHour:          float64(life.cost_per_effective_accelerator_hour),
		LevelisedCostPerEffectiveAcceleratorHour: float64(life.levelised_cost_per_effective_accelerator_hour),
	}
	for i := range years {
		y := &years[i]
		out.Years = append(out.Years, LifetimeYear{
			Year: int(y.year), Refreshed: y.refreshed != 0, Utilisation: float64(y.utilisation),
			CapacityAcceleratorHours:  float64(y.capacity_accelerator_hours),
			UsedAcceleratorHours:      float64(y.used_accelerator_hours),
			EffectiveAcceleratorHours: float64(y.effective_accelerator_hours),
			Cost:                      byCategory[float64](&y.cost), Fixed: byCategory[float64](&y.fixed),
			Total: float64(y.total), FixedTotal: float64(y.fixed_total),
			UnusedOwned: float64(y.unused_owned), UnusedCommitment: float64(y.unused_commitment),
			UnusedCommitmentHours: float64(y.unused_commitment_hours),
			Capex:                 float64(y.capex), Running: float64(y.running), Salvage: float64(y.salvage),
			PresentValue: float64(y.present_value),
		})
	}
	return out, nil
}

// Lifetime prices the scenario's cluster over its life (ComputeLifetime).
func (s *Scenario) Lifetime(req LifetimeRequest) (*Lifetime, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	return ComputeLifetime(s.Topology, s.Workload, s.Pricing, req)
}
