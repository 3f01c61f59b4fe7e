package tco

// #include "tco_go.h"
import "C"

import (
	"runtime"
	"strconv"
	"unsafe"
)

// What each saving costs in return (doc/model.md, section 22): a cut the
// estimate prices, beside the side-effect it implies, priced by the
// library; a saving whose side-effect costs more than it saves is flagged.
// Each function is one library call.

// SavingKind is an optimisation to weigh (tco_saving_kind).
type SavingKind int32

// The savings the library weighs.
const (
	SavingMetricsInterval     SavingKind = 1 // coarser metric sampling: a longer metrics_interval_seconds (s)
	SavingLogRetention        SavingKind = 2 // shorter log_retention_days (d)
	SavingCheckpointRetention SavingKind = 3 // fewer checkpoint_retention checkpoints kept hot
	SavingCheckpointInterval  SavingKind = 4 // rarer checkpoints: a longer interval than the one used (h)
	SavingFewerReplicas       SavingKind = 5 // fewer database_instances
	SavingMoreSpot            SavingKind = 6 // a larger spot_share of the rented accelerators
	SavingSmallerBaseline     SavingKind = 7 // fewer reserved accelerators under Saving.Demand
	SavingIdleReclaim         SavingKind = 8 // a shorter Saving.IdleTimeoutHours before idle capacity is released (h)
)

// String is the library's name of the kind ("metrics_interval"...).
func (k SavingKind) String() string {
	if s := C.tco_saving_name(C.int32_t(k)); s != nil {
		return C.GoString(s)
	}
	return "SavingKind(" + strconv.Itoa(int(k)) + ")"
}

// SideEffect is what the kind's saving costs in return, in words, and its
// unit ("h", "accelerator-h", "1"); empty for an unknown kind.
func (k SavingKind) SideEffect() (what, unit string) {
	if s := C.tco_saving_side_effect(C.int32_t(k)); s != nil {
		what = C.GoString(s)
	}
	if s := C.tco_saving_side_effect_unit(C.int32_t(k)); s != nil {
		unit = C.GoString(s)
	}
	return what, unit
}

// Verdict is how a tradeoff comes out (tco_verdict).
type Verdict int32

// The verdicts.
const (
	VerdictWorthIt  Verdict = 1 // it saves, and more than its side-effect costs
	VerdictFlagged  Verdict = 2 // it saves, but its side-effect costs more
	VerdictNoSaving Verdict = 3 // the estimate does not fall: no saving to weigh
)

// String is "worth_it", "flagged" or "no_saving".
func (v Verdict) String() string {
	switch v {
	case VerdictWorthIt:
		return "worth_it"
	case VerdictFlagged:
		return "flagged"
	case VerdictNoSaving:
		return "no_saving"
	}
	return "Verdict(" + strconv.Itoa(int(v)) + ")"
}

// Saving is one cut to weigh and the side-effect model's inputs
// (tco_saving). DefaultSaving gives the library's defaults; the library
// checks every field, naming the one out of range ("saving.value").
type Saving struct {
	Kind                         SavingKind
	Value                        float64 // the new value, in the kind's unit: a cut from the current one
	StaffCostPerHour             float64 // cur/h of diagnosis; -1: the pricing table's staff hour
	LogNeededShare               float64 // of failures, the share whose logs are looked up
	IncidentAgeDays              float64 // mean age of a failure's logs when looked up
	RediagnosisHours             float64 // staff hours added when the logs are gone
	CheckpointCorruptProbability float64 // that a kept checkpoint cannot be restored
	ReplicaAvailability          float64 // of one replica, failing independently
	// Demand is the accelerators needed at each IntervalHours, and
	// Baseline the reserved accelerators now (SavingSmallerBaseline).
	Demand                     []float64
	IntervalHours              float64
	Baseline                   float64
	AcquireHours               float64 // the wait for capacity not held: elastic, or released
	WaitCostPerAcceleratorHour float64 // cur; -1: the estimate's waste price
	IdleTimeoutHours           float64 // SavingIdleReclaim: the timeout now
	IdleGapHours               float64 // mean time until an idle allocation is used again, exponential
	IdlePeriods                float64 // times the job's allocation falls idle; -1: once a run
}

// DefaultSaving is the library's side-effect inputs (tco_saving_init), for
// the kind and value given.
func DefaultSaving(kind SavingKind, value float64) Saving {
	var s C.tco_saving
	C.tco_saving_init(&s)
	return Saving{Kind: kind, Value: value, StaffCostPerHour: float64(s.staff_cost_per_hour),
		LogNeededShare: float64(s.log_needed_share), IncidentAgeDays: float64(s.incident_age_days),
		RediagnosisHours:             float64(s.rediagnosis_hours),
		CheckpointCorruptProbability: float64(s.checkpoint_corrupt_probability),
		ReplicaAvailability:          float64(s.replica_availability),
		IntervalHours:                float64(s.interval_hours),
		Baseline:                     float64(s.baseline),
		AcquireHours:                 float64(s.acquire_hours),
		WaitCostPerAcceleratorHour:   float64(s.wait_cost_per_accelerator_hour),
		IdleTimeoutHours:             float64(s.idle_timeout_hours),
		IdleGapHours:                 float64(s.idle_gap_hours),
		IdlePeriods:                  float64(s.idle_periods)}
}

// c is the C struct; the demand series is pinned for the call, the cgo
// rules then letting the library read it in place.
func (s *Saving) c(pin *runtime.Pinner) C.tco_saving {
	var c C.tco_saving
	C.tco_saving_init(&c)
	if len(s.Demand) > 0 {
		d := dptr(s.Demand)
		pin.Pin(d)
		c.demand, c.n = d, C.size_t(len(s.Demand))
	}
	c.interval_hours, c.baseline = C.double(s.IntervalHours), C.double(s.Baseline)
	c.acquire_hours = C.double(s.AcquireHours)
	c.wait_cost_per_accelerator_hour = C.double(s.WaitCostPerAcceleratorHour)
	c.idle_timeout_hours, c.idle_gap_hours = C.double(s.IdleTimeoutHours), C.double(s.IdleGapHours)
	c.idle_periods = C.double(s.IdlePeriods)
	c.kind = C.int32_t(s.Kind)
	c.value = C.double(s.Value)
	c.staff_cost_per_hour = C.double(s.StaffCostPerHour)
	c.log_needed_share = C.double(s.LogNeededShare)
	c.incident_age_days = C.double(s.IncidentAgeDays)
	c.rediagnosis_hours = C.double(s.RediagnosisHours)
	c.checkpoint_corrupt_probability = C.double(s.CheckpointCorruptProbability)
	c.replica_availability = C.double(s.ReplicaAvailability)
	return c
}

// Tradeoff is a saving and what it costs in return, in the pricing
// table's currency over the estimate's runs (tco_tradeoff).
type Tradeoff struct {
	Kind                       SavingKind
	Err                        error // Tradeoffs: why the row could not be priced (then the figures are 0)
	Verdict                    Verdict
	Flagged                    bool // Verdict is VerdictFlagged
	InEstimate                 bool // the estimate itself prices the side-effect (failures waste)
	CurrentValue, NewValue     float64
	TotalBefore, TotalAfter    float64
	Saving                     float64 // what the cut takes off the bill, side-effect aside
	SideEffect                 float64 // in the kind's unit (SavingKind.SideEffect)
	SideEffectAcceleratorHours float64
	SideEffectCost             float64
	Net                        float64 // Saving - SideEffectCost
}

func tradeoffOf(t *C.tco_tradeoff) Tradeoff {
	out := Tradeoff{Kind: SavingKind(t.kind), Verdict: Verdict(t.verdict), Flagged: t.flagged != 0,
		InEstimate: t.in_estimate != 0, CurrentValue: float64(t.current_value), NewValue: float64(t.new_value),
		TotalBefore: float64(t.total_before), TotalAfter: float64(t.total_after), Saving: float64(t.saving),
		SideEffect: float64(t.side_effect), SideEffectAcceleratorHours: float64(t.side_effect_accelerator_hours),
		SideEffectCost: float64(t.side_effect_cost), Net: float64(t.net)}
	if t.status != 0 {
		out.Err = errArg(Status(t.status), "", out.Kind.String()+" at its suggested value: "+
			C.GoString(C.tco_status_name(C.int(t.status))))
	}
	return out
}

// WeighSaving prices one saving and its side-effect (tco_tradeoff_compute).
func WeighSaving(s Saving, t *Topology, w *Workload, p *Pricing) (Tradeoff, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return Tradeoff{}, err
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	cs := s.c(&pin)
	var out C.tco_tradeoff
	out.size = C.size_t(unsafe.Sizeof(out))
	ce := newCErr()
	rc := C.tco_tradeoff_compute(&out, &cs, ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return Tradeoff{}, failure(rc, &ce)
	}
	return tradeoffOf(&out), nil
}

// Tradeoffs weighs every saving that can cut the scenario, at the
// library's suggested values, in kind order (tco_tradeoffs); side holds
// the side-effect inputs (nil: the defaults; its Kind and Value are not
// read). A row the estimate refuses has its Err and zeros.
func Tradeoffs(side *Saving, t *Topology, w *Workload, p *Pricing) ([]Tradeoff, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return nil, err
	}
	var cs C.tco_saving
	var pside *C.tco_saving
	var pin runtime.Pinner
	defer pin.Unpin()
	if side != nil {
		s := *side
		s.Kind, s.Value = 0, 0
		cs = s.c(&pin)
		pside = &cs
	}
	const most = 16 // more than the kinds there are: n says how many apply
	rows := make([]C.tco_tradeoff, most)
	var n C.size_t
	ce := newCErr()
	rc := C.tco_tradeoffs(&rows[0], C.size_t(unsafe.Sizeof(rows[0])), most, &n, pside, ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	out := make([]Tradeoff, 0, int(n))
	for i := 0; i < int(n) && i < most; i++ {
		out = append(out, tradeoffOf(&rows[i]))
	}
	return out, nil
}

// WeighSaving prices one saving of the scenario (WeighSaving).
func (sc *Scenario) WeighSaving(s Saving) (Tradeoff, error) {
	if sc == nil {
		return Tradeoff{}, errClosed("scenario")
	}
	return WeighSaving(s, sc.Topology, sc.Workload, sc.Pricing)
}

// Tradeoffs weighs every saving of the scenario (Tradeoffs).
func (sc *Scenario) Tradeoffs(side *Saving) ([]Tradeoff, error) {
	if sc == nil {
		return nil, errClosed("scenario")
	}
	return Tradeoffs(side, sc.Topology, sc.Workload, sc.Pricing)
}
