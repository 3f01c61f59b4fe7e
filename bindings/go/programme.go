package tco

// #include <stdlib.h>
// #include "tco_go.h"
import "C"

import (
	"runtime"
	"strconv"
	"unsafe"
)

// A programme of stages (doc/model.md, section 21): the raw data pulled
// and prepared, pretraining, context extension, fine-tunes, preference
// tuning, evaluation, sweeps and ablations on one cluster and one pricing
// table, on one time line, with the store the kept versions make, and the
// model served. One library call.

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
	StageDataPipeline         StageKind = 8 // the raw data pulled and prepared on CPU nodes (Stage.Pipeline)
	StageServing              StageKind = 9 // the model served by a fleet of its own (Stage.Serving)
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
// the programme's end. A StageDataPipeline has Pipeline and CPUNodes (its
// workload is the one whose data it prepares); a StageServing has Serving
// (its workload is the model served; one Rate point of IntervalSeconds =
// hours x 3600 is a constant rate for those hours).
type Stage struct {
	Kind         StageKind
	After        int
	Name         string // for messages
	Workload     *Workload
	VersionsKept int
	Pipeline     *PipelineRequest // a data pipeline's request, else nil
	CPUNodes     float64          // a data pipeline's CPU nodes, whole, 1 to 1e6; else 0
	Serving      *ServeRequest    // a serving stage's request, else nil
	AlsoAfter    []int            // further earlier stages: it starts when the last of these and After ends
	// What the stage leaves in the store (its versions kept, a pipeline's
	// data) moves to the warm tier WarmAfterDays after its end, and to the
	// cold tier ColdAfterDays after; 0: never.
	WarmAfterDays, ColdAfterDays float64
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
	CostPerMillionTokens            float64 // trained, or for a serving stage served
	StoreGB                         float64 // what its kept versions (a data pipeline: its prepared data) add
	Tokens                          float64 // trained (all runs), or served (prompt and output)
	CPUNodeHours                    float64 // a data pipeline's preprocessing
	FleetPeakAccelerators           float64 // a serving stage's fleet at its peak, apart from the cluster
	FleetAcceleratorHours           float64
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
	Utilisation           float64 // AcceleratorHours / (cluster x ClusterHours)
	Runs                  float64
	CostPerExperiment     float64 // (Total - ServingTotal) / Runs
	StoreGB               float64 // at the programme's end
	StoreGrowthGBPerMonth float64
	ClusterHours          float64 // of the makespan, the hours stages hold the cluster
	PipelineTotal         float64 // the data pipeline stages'
	ServingTotal          float64 // the serving stages'
	ServedTokens          float64 // prompt and output
	CostPerMillionServed  float64 // ServingTotal per million ServedTokens
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
	// The stages hold pointers to their requests (and those to the rate
	// series), all Go memory: pinned, the cgo rules let the library read
	// them in place.
	var pin runtime.Pinner
	defer pin.Unpin()
	cs := make([]C.tco_stage, len(stages))
	pipes := make([]C.tco_pipeline_request, len(stages))
	serves := make([]C.tco_serve_request, len(stages))
	alsos := make([][]C.int32_t, len(stages))
	for i, s := range stages {
		cw, err := s.Workload.ptr()
		if err != nil {
			return nil, err
		}
		for _, a := range s.AlsoAfter {
			if a != int(int32(a)) {
				return nil, errArg(StatusRange, "stages["+strconv.Itoa(i)+"].also_after", "stages["+
					strconv.Itoa(i)+"]: AlsoAfter past an int32")
			}
			alsos[i] = append(alsos[i], C.int32_t(a))
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
			after: C.int32_t(s.After), name: name, workload: cw, versions_kept: C.int32_t(s.VersionsKept),
			cpu_nodes: C.double(s.CPUNodes), warm_after_days: C.double(s.WarmAfterDays),
			cold_after_days: C.double(s.ColdAfterDays)}
		if s.Pipeline != nil {
			pipes[i] = s.Pipeline.c()
			pin.Pin(&pipes[i])
			cs[i].pipeline = (*C.struct_tco_pipeline_request)(unsafe.Pointer(&pipes[i]))
		}
		if len(alsos[i]) > 0 {
			pin.Pin(&alsos[i][0])
			cs[i].also_after, cs[i].n_also_after = &alsos[i][0], C.size_t(len(alsos[i]))
		}
		if s.Serving != nil {
			serves[i] = s.Serving.c(&pin)
			pin.Pin(&serves[i])
			cs[i].serving = (*C.struct_tco_serve_request)(unsafe.Pointer(&serves[i]))
		}
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
	runtime.KeepAlive(pipes)
	runtime.KeepAlive(serves)
	runtime.KeepAlive(alsos)
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
		ClusterHours: float64(out.cluster_hours), PipelineTotal: float64(out.pipeline_total),
		ServingTotal: float64(out.serving_total), ServedTokens: float64(out.served_tokens),
		CostPerMillionServed: float64(out.cost_per_million_tokens_served),
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
			Tokens: float64(r.tokens), CPUNodeHours: float64(r.cpu_node_hours),
			FleetPeakAccelerators: float64(r.fleet_peak_accelerators),
			FleetAcceleratorHours: float64(r.fleet_accelerator_hours),
		})
	}
	return pr, nil
}
