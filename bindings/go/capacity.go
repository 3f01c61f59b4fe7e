package tco

// #include "tco_go.h"
import "C"

import (
	"math"
	"runtime"
	"unsafe"
)

// A demand series is a []float64 of accelerators wanted, one value per
// interval. The functions here pass it to the library as it is (a pointer
// to its first element): it is never copied on the Go side.

// dummy stands in for the data of an empty slice, so that the library
// reports the empty series ("demand is empty") rather than a NULL.
var dummy [1]C.double

func dptr(s []float64) *C.double {
	if len(s) == 0 {
		return &dummy[0]
	}
	return (*C.double)(unsafe.Pointer(&s[0]))
}

// DemandStats is the peak and average of a demand series.
type DemandStats struct {
	Points           float64
	Hours            float64 // points x interval
	Peak             float64
	Minimum          float64
	Mean             float64
	PeakToAverage    float64 // Peak / Mean; 0 when the mean is 0
	AcceleratorHours float64 // the sum of demand x interval, compensated
}

// ComputeDemandStats is the peak, minimum, mean and accelerator-hours of a
// series of demand with one value per intervalHours.
func ComputeDemandStats(demand []float64, intervalHours float64) (DemandStats, error) {
	var s C.tco_demand_stats
	s.size = C.size_t(unsafe.Sizeof(s))
	ce := newCErr()
	rc := C.tco_demand_stats_compute(&s, dptr(demand), C.size_t(len(demand)), C.double(intervalHours), &ce)
	runtime.KeepAlive(demand)
	if rc != 0 {
		return DemandStats{}, failure(rc, &ce)
	}
	return DemandStats{
		Points: float64(s.points), Hours: float64(s.hours), Peak: float64(s.peak),
		Minimum: float64(s.minimum), Mean: float64(s.mean), PeakToAverage: float64(s.peak_to_average),
		AcceleratorHours: float64(s.accelerator_hours),
	}, nil
}

// DemandPercentiles is the percentiles (0 to 100) of a demand series, by
// linear interpolation between order statistics as numpy's default.
func DemandPercentiles(demand, percentiles []float64) ([]float64, error) {
	out := make([]float64, len(percentiles))
	ce := newCErr()
	rc := C.tco_demand_percentiles(dptr(out), dptr(percentiles), C.size_t(len(percentiles)),
		dptr(demand), C.size_t(len(demand)), &ce)
	runtime.KeepAlive(demand)
	runtime.KeepAlive(percentiles)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	return out, nil
}

// DemandTimeAbove is, for each threshold, the hours demand is strictly
// above it.
func DemandTimeAbove(demand, thresholds []float64, intervalHours float64) ([]float64, error) {
	out := make([]float64, len(thresholds))
	ce := newCErr()
	rc := C.tco_demand_time_above(dptr(out), dptr(thresholds), C.size_t(len(thresholds)),
		dptr(demand), C.size_t(len(demand)), C.double(intervalHours), &ce)
	runtime.KeepAlive(demand)
	runtime.KeepAlive(thresholds)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	return out, nil
}

// CapacityForUnmet is the least capacity that leaves at most maxUnmetShare
// (0 to 1) of the demand's accelerator-hours unserved.
func CapacityForUnmet(demand []float64, maxUnmetShare, intervalHours float64) (float64, error) {
	var c C.double
	ce := newCErr()
	rc := C.tco_capacity_for_unmet(&c, C.double(maxUnmetShare), dptr(demand), C.size_t(len(demand)),
		C.double(intervalHours), &ce)
	runtime.KeepAlive(demand)
	if rc != 0 {
		return 0, failure(rc, &ce)
	}
	return float64(c), nil
}

// Split is fixed (reserved) against elastic (on demand and spot) capacity
// for a demand series.
type Split struct {
	Baseline                 float64 // reserved accelerators
	Exceedance               float64 // share of time demand is above the baseline
	TargetExceedance         float64 // reserved rate / elastic rate: the optimum's
	Hours                    float64
	DemandAcceleratorHours   float64
	ReservedAcceleratorHours float64 // baseline x hours: paid whether used or not
	ReservedUsedHours        float64 // demand served by the baseline
	ReservedUtilisation      float64 // used / reserved; 0 with no baseline
	OnDemandAcceleratorHours float64
	SpotAcceleratorHours     float64 // interruptible demand above the baseline, if spot pays
	SpotOverheadShare        float64 // extra run time of work on spot
	ElasticRate              float64 // per accelerator-hour of demand above the baseline
	FixedCost                float64
	ElasticCost              float64 // OnDemandCost + SpotCost
	OnDemandCost             float64
	SpotCost                 float64 // including its overhead
	TotalCost                float64 // FixedCost + ElasticCost
	AllOnDemandCost          float64 // every demand hour on demand
	ReservePeakCost          float64 // the peak reserved for the whole series
	SavingsVsOnDemand        float64
	SavingsVsPeak            float64
}

func splitOf(s *C.tco_split) Split {
	return Split{
		Baseline: float64(s.baseline), Exceedance: float64(s.exceedance),
		TargetExceedance: float64(s.target_exceedance), Hours: float64(s.hours),
		DemandAcceleratorHours:   float64(s.demand_accelerator_hours),
		ReservedAcceleratorHours: float64(s.reserved_accelerator_hours),
		ReservedUsedHours:        float64(s.reserved_used_hours),
		ReservedUtilisation:      float64(s.reserved_utilisation),
		OnDemandAcceleratorHours: float64(s.on_demand_accelerator_hours),
		SpotAcceleratorHours:     float64(s.spot_accelerator_hours),
		SpotOverheadShare:        float64(s.spot_overhead_share), ElasticRate: float64(s.elastic_rate),
		FixedCost: float64(s.fixed_cost), ElasticCost: float64(s.elastic_cost),
		OnDemandCost: float64(s.on_demand_cost), SpotCost: float64(s.spot_cost),
		TotalCost: float64(s.total_cost), AllOnDemandCost: float64(s.all_on_demand_cost),
		ReservePeakCost: float64(s.reserve_peak_cost), SavingsVsOnDemand: float64(s.savings_vs_on_demand),
		SavingsVsPeak: float64(s.savings_vs_peak),
	}
}

// CapacitySplit is the reserved baseline that minimises the total cost of
// a demand series, and what it costs; rates from the pricing table.
func CapacitySplit(demand []float64, intervalHours float64, t *Topology, w *Workload, p *Pricing) (Split, error) {
	return capacitySplit(math.NaN(), false, demand, intervalHours, t, w, p)
}

// CapacitySplitAt is the same split for a baseline the caller chooses.
func CapacitySplitAt(baseline float64, demand []float64, intervalHours float64, t *Topology, w *Workload, p *Pricing) (Split, error) {
	return capacitySplit(baseline, true, demand, intervalHours, t, w, p)
}

func capacitySplit(baseline float64, at bool, demand []float64, intervalHours float64, t *Topology, w *Workload, p *Pricing) (Split, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return Split{}, err
	}
	var s C.tco_split
	s.size = C.size_t(unsafe.Sizeof(s))
	ce := newCErr()
	var rc C.int
	if at {
		rc = C.tco_capacity_split_at(&s, C.double(baseline), dptr(demand), C.size_t(len(demand)),
			C.double(intervalHours), ct, cw, cp, &ce)
	} else {
		rc = C.tco_capacity_split(&s, dptr(demand), C.size_t(len(demand)), C.double(intervalHours),
			ct, cw, cp, &ce)
	}
	runtime.KeepAlive(demand)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return Split{}, failure(rc, &ce)
	}
	return splitOf(&s), nil
}

// Bandwidth is the peak against the average bandwidth of a training run:
// checkpoint bursts on storage, the gradient exchange on the network.
type Bandwidth struct {
	StorageReadGBps         float64 // average data read rate, GB/s
	StorageWriteGBps        float64 // average checkpoint write rate, GB/s
	CheckpointBurstGBps     float64 // to write a checkpoint within checkpoint_stall_seconds
	StoragePeakToAverage    float64
	StorageHotGBps          float64 // what the hot tier gives
	CheckpointStallSeconds  float64 // the pause at the hot tier's bandwidth
	StepSeconds             float64 // one optimizer step at MFU
	NetworkBytesPerStep     float64 // per accelerator
	NetworkAverageGbps      float64 // per accelerator, Gbit/s
	NetworkBurstGbps        float64 // per accelerator, within comm_window_share of the step
	NetworkCapacityGbps     float64 // per accelerator
	NetworkBurstUtilisation float64 // burst / capacity: above 1, communication is exposed
}

// ComputeBandwidth is the storage and network bandwidth of one run of the
// scenario.
func ComputeBandwidth(t *Topology, w *Workload, p *Pricing) (Bandwidth, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return Bandwidth{}, err
	}
	var b C.tco_bandwidth
	b.size = C.size_t(unsafe.Sizeof(b))
	ce := newCErr()
	rc := C.tco_bandwidth_compute(&b, ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return Bandwidth{}, failure(rc, &ce)
	}
	return Bandwidth{
		StorageReadGBps: float64(b.storage_read_gbps), StorageWriteGBps: float64(b.storage_write_gbps),
		CheckpointBurstGBps: float64(b.checkpoint_burst_gbps), StoragePeakToAverage: float64(b.storage_peak_to_average),
		StorageHotGBps: float64(b.storage_hot_gbps), CheckpointStallSeconds: float64(b.checkpoint_stall_seconds),
		StepSeconds: float64(b.step_seconds), NetworkBytesPerStep: float64(b.network_bytes_per_step),
		NetworkAverageGbps: float64(b.network_average_gbps), NetworkBurstGbps: float64(b.network_burst_gbps),
		NetworkCapacityGbps:     float64(b.network_capacity_gbps),
		NetworkBurstUtilisation: float64(b.network_burst_utilisation),
	}, nil
}

// DataClass indexes the first dimension of Lifecycle's arrays.
type DataClass int

// Classes of data (tco_data_class).
const (
	DataDataset     DataClass = 0
	DataCheckpoints DataClass = 1
	DataLogs        DataClass = 2
)

// Tier indexes the second dimension of Lifecycle's arrays.
type Tier int

// Storage tiers (tco_tier).
const (
	TierHot  Tier = 0
	TierWarm Tier = 1
	TierCold Tier = 2
)

// Lifecycle is the hot, warm and cold placement of the dataset, checkpoints
// and logs under the workload's retention policy, against keeping
// everything hot, over lifecycle_horizon_days.
type Lifecycle struct {
	HorizonDays           float64
	GBMonths              [3][3]float64 // [DataClass][Tier] under the policy
	Cost                  [3][3]float64 // the same, priced
	PolicyCost            float64
	KeepHotCost           float64
	Savings               float64 // KeepHotCost - PolicyCost
	CheckpointsWritten    float64 // per run
	RestartWindowHotHours float64 // how far back a restart from the hot tier goes
	RestartWindowHours    float64 // how far back any kept checkpoint goes
}

// ComputeLifecycle prices the scenario's storage lifecycle.
func ComputeLifecycle(t *Topology, w *Workload, p *Pricing) (Lifecycle, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return Lifecycle{}, err
	}
	var l C.tco_lifecycle
	l.size = C.size_t(unsafe.Sizeof(l))
	ce := newCErr()
	rc := C.tco_lifecycle_compute(&l, ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return Lifecycle{}, failure(rc, &ce)
	}
	out := Lifecycle{
		HorizonDays: float64(l.horizon_days), PolicyCost: float64(l.policy_cost),
		KeepHotCost: float64(l.keep_hot_cost), Savings: float64(l.savings),
		CheckpointsWritten:    float64(l.checkpoints_written),
		RestartWindowHotHours: float64(l.restart_window_hot_hours),
		RestartWindowHours:    float64(l.restart_window_hours),
	}
	for c := 0; c < 3; c++ {
		for k := 0; k < 3; k++ {
			out.GBMonths[c][k] = float64(l.gb_months[c][k])
			out.Cost[c][k] = float64(l.cost[c][k])
		}
	}
	return out, nil
}

// Logging is the monitoring of the whole cluster per month, at the
// workload's sampling interval and retention and at proposed ones.
type Logging struct {
	SamplesPerMonth         float64
	StoredGB                float64
	CostPerMonth            float64
	ProposedSamplesPerMonth float64
	ProposedStoredGB        float64
	ProposedCostPerMonth    float64
	SavingsPerMonth         float64
	SavingsShare            float64
}

// CompareLogging prices monitoring at the workload's interval and retention
// against intervalSeconds and retentionDays.
func CompareLogging(intervalSeconds, retentionDays float64, t *Topology, w *Workload, p *Pricing) (Logging, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return Logging{}, err
	}
	var l C.tco_logging
	l.size = C.size_t(unsafe.Sizeof(l))
	ce := newCErr()
	rc := C.tco_logging_compare(&l, C.double(intervalSeconds), C.double(retentionDays), ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return Logging{}, failure(rc, &ce)
	}
	return Logging{
		SamplesPerMonth: float64(l.samples_per_month), StoredGB: float64(l.stored_gb),
		CostPerMonth: float64(l.cost_per_month), ProposedSamplesPerMonth: float64(l.proposed_samples_per_month),
		ProposedStoredGB: float64(l.proposed_stored_gb), ProposedCostPerMonth: float64(l.proposed_cost_per_month),
		SavingsPerMonth: float64(l.savings_per_month), SavingsShare: float64(l.savings_share),
	}, nil
}

// BudgetStatus is how far spending has gone into the budget.
type BudgetStatus int32

// Budget statuses (tco_budget_status).
const (
	BudgetOK        BudgetStatus = 0
	BudgetWarning   BudgetStatus = 1
	BudgetCritical  BudgetStatus = 2
	BudgetExhausted BudgetStatus = 3
)

// String is the library's name of the status ("ok", "warning"...).
func (s BudgetStatus) String() string {
	if name := C.tco_budget_status_name(C.int32_t(s)); name != nil {
		return C.GoString(name)
	}
	return "unknown"
}

// Budget is spending against the pricing table's budget lines.
type Budget struct {
	Spent            float64
	ElapsedDays      float64
	BurnRatePerDay   float64 // over the last 7 days (or all, if fewer)
	ProjectedSpend   float64 // at the period's end, at that burn rate
	DaysToExhaustion float64 // from now, at that burn rate; 0 when not ExhaustionDefined
	Growth           float64 // against the previous period to the same day; 0 when not GrowthDefined
	Status           BudgetStatus
	ProjectedStatus  BudgetStatus
	AbnormalGrowth   bool // growth above budget_growth_alert_share, spending from nothing included
	// ExhaustionDefined is false when the budget never runs out at this burn
	// rate; GrowthDefined false without a previous period or after one that
	// spent nothing (doc/model.md, section 11).
	ExhaustionDefined bool
	GrowthDefined     bool
}

// ComputeBudget checks spending against the budget: spend[i] is what
// interval i of the current period cost (intervalDays long); previous (nil
// if there is none) the same for the previous period.
func ComputeBudget(spend []float64, intervalDays float64, previous []float64, p *Pricing) (Budget, error) {
	cp, err := p.ptr()
	if err != nil {
		return Budget{}, err
	}
	var prev *C.double
	if previous != nil {
		prev = dptr(previous)
	}
	var b C.tco_budget
	b.size = C.size_t(unsafe.Sizeof(b))
	ce := newCErr()
	rc := C.tco_budget_compute(&b, dptr(spend), C.size_t(len(spend)), C.double(intervalDays),
		prev, C.size_t(len(previous)), cp, &ce)
	runtime.KeepAlive(spend)
	runtime.KeepAlive(previous)
	runtime.KeepAlive(p)
	if rc != 0 {
		return Budget{}, failure(rc, &ce)
	}
	return Budget{
		Spent: float64(b.spent), ElapsedDays: float64(b.elapsed_days), BurnRatePerDay: float64(b.burn_rate_per_day),
		ProjectedSpend: float64(b.projected_spend), DaysToExhaustion: float64(b.days_to_exhaustion),
		Growth: float64(b.growth), Status: BudgetStatus(b.status), ProjectedStatus: BudgetStatus(b.projected_status),
		AbnormalGrowth: b.abnormal_growth != 0, ExhaustionDefined: b.exhaustion_defined != 0,
		GrowthDefined: b.growth_defined != 0,
	}, nil
}
