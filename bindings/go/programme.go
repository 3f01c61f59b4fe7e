package tco

// #include <stdlib.h>
// #include "tco_go.h"
import "C"

import (
	"runtime"
	"strconv"
	"unsafe"
)

// A programme of stages (doc/model.md, section 21): pretraining, context
// extension, fine-tunes, preference tuning, evaluation, sweeps and
// ablations on one cluster and one pricing table, on one time line, with
// the store the kept versions make. One library call.

// StageKind is what a stage is (tco_stage_kind).
type StageKind int32

// The kinds of stage.
const (
	StagePretraining          StageKind = 1
	StageContextExtension     StageKind = 2
	StageSupervisedFineTuning StageKind = 3
	StagePreferenceTuning     StageKind = 4
	StageEvaluation           StageKind = 5
	StageSweep                StageKind = 6 // the workload's runs side by side, in waves
	StageAblation             StageKind = 7 // likewise
)

// StageStart is Stage.After for a stage that starts with the programme.
const StageStart = -1

// String is the library's name of the kind ("pretraining"...).
func (k StageKind) String() string {
	if s := C.tco_stage_kind_name(C.int32_t(k)); s != nil {
		return C.GoString(s)
	}
	return "StageKind(" + strconv.Itoa(int(k)) + ")"
}

// Stage is one stage of a programme (tco_stage): its workload's runs
// parameter is the stage's runs; After is the index of an earlier stage it
// starts after, or StageStart; VersionsKept checkpoints of it are kept to
// the programme's end.
type Stage struct {
	Kind         StageKind
	After        int
	Name         string // for messages
	Workload     *Workload
	VersionsKept int
}

// StageResult is a stage priced in its programme (tco_stage_result); money
// in the currency, times in hours from the programme's start.
type StageResult struct {
	Kind                            StageKind
	After                           int
	EstimateTotal                   float64 // the stage's estimate alone
	ClusterShare                    float64 // of the estimate, charged (stages overlapping share the cluster)
	Total                           float64 // EstimateTotal x ClusterShare
	Costs                           map[string]float64
	Share                           float64 // of the programme's total
	StartHours, EndHours            float64
	Accelerators                    float64 // held while it runs
	Runs, ConcurrentRuns, Waves     float64
	CostPerRun                      float64
	EffectiveAcceleratorHours       float64
	CostPerEffectiveAcceleratorHour float64
	CostPerMillionTokens            float64
	StoreGB                         float64 // what its kept versions add to the store
}

// Programme is a programme priced (tco_programme), with its stages.
type Programme struct {
	Total                 float64 // StagesTotal + StorageLifecycle
	Costs, Shares         map[string]float64
	StagesTotal           float64
	StorageLifecycle      float64 // the kept versions, hot from their stage's end to the end
	MakespanHours         float64
	MakespanMonths        float64
	ClusterAccelerators   float64
	PeakAccelerators      float64
	AcceleratorHours      float64
	Utilisation           float64 // AcceleratorHours / (cluster x makespan)
	Runs                  float64
	CostPerExperiment     float64 // Total / Runs
	StoreGB               float64 // at the programme's end
	StoreGrowthGBPerMonth float64
	Stages                []StageResult
}

// ComputeProgramme prices the stages on one topology and pricing table
// (tco_programme_compute). Errors name the stage ("stages[2].after"); a
// stage larger than the cluster, or stages holding more accelerators at
// once than it has, fail with StatusInconsistent.
func ComputeProgramme(stages []Stage, t *Topology, p *Pricing) (*Programme, error) {
	ct, err := t.ptr()
	if err != nil {
		return nil, err
	}
	cp, err := p.ptr()
	if err != nil {
		return nil, err
	}
	if len(stages) == 0 || len(stages) > C.TCO_STAGES_MAX {
		return nil, errArg(StatusRange, "stages", "stages: "+strconv.Itoa(len(stages))+" given, allowed 1 to "+
			strconv.Itoa(C.TCO_STAGES_MAX))
	}
	cs := make([]C.tco_stage, len(stages))
	for i, s := range stages {
		cw, err := s.Workload.ptr()
		if err != nil {
			return nil, err
		}
		if s.After != int(int32(s.After)) || s.VersionsKept != int(int32(s.VersionsKept)) {
			return nil, errArg(StatusRange, "stages["+strconv.Itoa(i)+"]", "stages["+strconv.Itoa(i)+
				"]: After or VersionsKept past an int32")
		}
		name, err := cText(s.Name, "stages["+strconv.Itoa(i)+"].Name", -1)
		if err != nil {
			return nil, err
		}
		defer C.free(unsafe.Pointer(name))
		cs[i] = C.tco_stage{size: C.size_t(unsafe.Sizeof(cs[i])), kind: C.int32_t(s.Kind),
			after: C.int32_t(s.After), name: name, workload: cw, versions_kept: C.int32_t(s.VersionsKept)}
	}
	rs := make([]C.tco_stage_result, len(stages))
	var out C.tco_programme
	out.size = C.size_t(unsafe.Sizeof(out))
	ce := newCErr()
	rc := C.tco_programme_compute(&out, &rs[0], C.size_t(unsafe.Sizeof(rs[0])), &cs[0], C.size_t(len(cs)), ct, cp,
		&ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(p)
	runtime.KeepAlive(stages)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	pr := &Programme{
		Total: float64(out.total), Costs: byCategory[float64](&out.cost), Shares: byCategory[float64](&out.share),
		StagesTotal: float64(out.stages_total), StorageLifecycle: float64(out.storage_lifecycle),
		MakespanHours: float64(out.makespan_hours), MakespanMonths: float64(out.makespan_months),
		ClusterAccelerators: float64(out.cluster_accelerators), PeakAccelerators: float64(out.peak_accelerators),
		AcceleratorHours: float64(out.accelerator_hours), Utilisation: float64(out.utilisation),
		Runs: float64(out.runs), CostPerExperiment: float64(out.cost_per_experiment),
		StoreGB: float64(out.store_gb), StoreGrowthGBPerMonth: float64(out.store_growth_gb_per_month),
	}
	for i := range rs {
		r := &rs[i]
		pr.Stages = append(pr.Stages, StageResult{
			Kind: StageKind(r.kind), After: int(r.after), EstimateTotal: float64(r.estimate_total),
			ClusterShare: float64(r.cluster_share), Total: float64(r.total), Costs: byCategory[float64](&r.cost),
			Share: float64(r.share), StartHours: float64(r.start_hours), EndHours: float64(r.end_hours),
			Accelerators: float64(r.accelerators), Runs: float64(r.runs), ConcurrentRuns: float64(r.concurrent_runs),
			Waves: float64(r.waves), CostPerRun: float64(r.cost_per_run),
			EffectiveAcceleratorHours:       float64(r.effective_accelerator_hours),
			CostPerEffectiveAcceleratorHour: float64(r.cost_per_effective_accelerator_hour),
			CostPerMillionTokens:            float64(r.cost_per_million_tokens), StoreGB: float64(r.store_gb),
		})
	}
	return pr, nil
}
