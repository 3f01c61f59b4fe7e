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
		ReplicaAvailability:          float64(s.replica_availability)}
}

func (s *Saving) c() C.tco_saving {
	var c C.tco_saving
	C.tco_saving_init(&c)
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
	cs := s.c()
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
	if side != nil {
		s := *side
		s.Kind, s.Value = 0, 0
		cs = s.c()
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
