package tco

// #include "tco_go.h"
import "C"

import (
	"runtime"
	"strconv"
	"unsafe"
)

// Value per cost (doc/model.md, "Value per cost"): the predicted loss of a
// run by the parametric scaling law L(N, D) = E + A / N^Alpha + B / D^Beta,
// the loss bought per unit of money between two runs, and the model size
// and token count with the least loss within a budget under the full cost
// model. Each function is one library call.

// Fit is the published fit a ScalingLaw's constants come from
// (tco_scaling_fit).
type Fit int32

// The published fits.
const (
	FitCustom        Fit = 0 // constants set by the caller
	FitHoffmann2022  Fit = 1 // Hoffmann et al. 2022, approach 3
	FitBesiroglu2024 Fit = 2 // Besiroglu et al. 2024, the same data refitted
)

// String is "custom", "hoffmann_2022" or "besiroglu_2024".
func (f Fit) String() string {
	switch f {
	case FitCustom:
		return "custom"
	case FitHoffmann2022:
		return "hoffmann_2022"
	case FitBesiroglu2024:
		return "besiroglu_2024"
	}
	return "Fit(" + strconv.Itoa(int(f)) + ")"
}

// ScalingLaw holds the constants of L(N, D) = E + A / N^Alpha + B / D^Beta,
// L in nats per token, N parameters, D training tokens (tco_scaling_law).
// The library checks them on every call (0 <= E <= 100, 0 <= A, B <= 1e15,
// 0 < Alpha, Beta <= 2), naming the one out of range ("law.alpha"). The
// zero value is no law: pass nil for Hoffmann et al.'s.
type ScalingLaw struct {
	Fit      Fit
	E        float64
	A, Alpha float64
	B, Beta  float64
}

// PublishedLaw is the library's constants of a published fit; another Fit
// fails with StatusRange naming "fit".
func PublishedLaw(fit Fit) (ScalingLaw, error) {
	var l C.tco_scaling_law
	ce := newCErr()
	if rc := C.tco_scaling_law_init(&l, C.int32_t(fit), &ce); rc != 0 {
		return ScalingLaw{}, failure(rc, &ce)
	}
	return ScalingLaw{Fit: Fit(l.fit), E: float64(l.e), A: float64(l.a), Alpha: float64(l.alpha),
		B: float64(l.b), Beta: float64(l.beta)}, nil
}

// cLaw is law for C: nil stays nil (the library's default, Hoffmann's).
func cLaw(law *ScalingLaw, out *C.tco_scaling_law) *C.tco_scaling_law {
	if law == nil {
		return nil
	}
	out.size = C.size_t(unsafe.Sizeof(*out))
	out.fit = C.int32_t(law.Fit)
	out.e = C.double(law.E)
	out.a = C.double(law.A)
	out.alpha = C.double(law.Alpha)
	out.b = C.double(law.B)
	out.beta = C.double(law.Beta)
	return out
}

// Loss is a predicted loss and its terms (tco_loss), in nats per token.
type Loss struct {
	Loss        float64 // Irreducible + ParamsTerm + DataTerm
	Irreducible float64 // E
	ParamsTerm  float64 // A / Params^Alpha
	DataTerm    float64 // B / Tokens^Beta
	Params      float64 // N
	Tokens      float64 // D
}

func lossOf(l *C.tco_loss) Loss {
	return Loss{Loss: float64(l.loss), Irreducible: float64(l.irreducible), ParamsTerm: float64(l.params_term),
		DataTerm: float64(l.data_term), Params: float64(l.params), Tokens: float64(l.tokens)}
}

// LossAt is the loss of a model of params parameters trained on tokens
// tokens (both at least 1); law nil: Hoffmann et al. 2022.
func LossAt(law *ScalingLaw, params, tokens float64) (Loss, error) {
	var cl C.tco_scaling_law
	var l C.tco_loss
	l.size = C.size_t(unsafe.Sizeof(l))
	ce := newCErr()
	if rc := C.tco_loss_at(&l, cLaw(law, &cl), C.double(params), C.double(tokens), &ce); rc != 0 {
		return Loss{}, failure(rc, &ce)
	}
	return lossOf(&l), nil
}

// PredictLoss is the loss of a workload's run: N = params_active
// (params_total when 0), D = tokens x epochs.
func PredictLoss(law *ScalingLaw, w *Workload) (Loss, error) {
	cw, err := w.ptr()
	if err != nil {
		return Loss{}, err
	}
	var cl C.tco_scaling_law
	var l C.tco_loss
	l.size = C.size_t(unsafe.Sizeof(l))
	ce := newCErr()
	rc := C.tco_loss_predict(&l, cLaw(law, &cl), cw, &ce)
	runtime.KeepAlive(w)
	if rc != 0 {
		return Loss{}, failure(rc, &ce)
	}
	return lossOf(&l), nil
}

// LossGain is run b set against run a (tco_loss_gain). Amounts in the
// pricing tables' currency, all runs; losses in nats per token.
type LossGain struct {
	LossA, LossB   float64
	TotalA, TotalB float64
	FLOPsA, FLOPsB float64 // train FLOPs x runs
	LossReduction  float64 // LossA - LossB
	ExtraCost      float64 // TotalB - TotalA
	// LossPerCost is LossReduction / ExtraCost (nats per token per unit of
	// currency), valid when CostRatioDefined (the totals differ); else 0.
	// Negative: one run is cheaper and better.
	LossPerCost      float64
	CostRatioDefined bool
	// LossPerExaFLOP is LossReduction per 1e18 FLOPs more, valid when
	// FLOPsRatioDefined (the FLOPs differ); else 0.
	LossPerExaFLOP    float64
	FLOPsRatioDefined bool
}

// LossPerCost prices runs a and b as Compute does and sets the loss b
// buys against what it costs more; law nil: Hoffmann et al. 2022. Runs in
// different currencies fail with StatusInconsistent; a run that cannot be
// priced with its error, "run a: " or "run b: " first.
func LossPerCost(law *ScalingLaw, a, b *Scenario) (LossGain, error) {
	if a == nil || b == nil {
		return LossGain{}, errClosed("scenario")
	}
	ta, wa, pa, err := handles(a.Topology, a.Workload, a.Pricing)
	if err != nil {
		return LossGain{}, err
	}
	tb, wb, pb, err := handles(b.Topology, b.Workload, b.Pricing)
	if err != nil {
		return LossGain{}, err
	}
	var cl C.tco_scaling_law
	var g C.tco_loss_gain
	g.size = C.size_t(unsafe.Sizeof(g))
	ce := newCErr()
	rc := C.tco_loss_per_cost(&g, cLaw(law, &cl), ta, wa, pa, tb, wb, pb, &ce)
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
	if rc != 0 {
		return LossGain{}, failure(rc, &ce)
	}
	return LossGain{
		LossA: float64(g.loss_a), LossB: float64(g.loss_b), TotalA: float64(g.total_a), TotalB: float64(g.total_b),
		FLOPsA: float64(g.flops_a), FLOPsB: float64(g.flops_b), LossReduction: float64(g.loss_reduction),
		ExtraCost: float64(g.extra_cost), LossPerCost: float64(g.loss_per_cost),
		CostRatioDefined: g.cost_ratio_defined != 0, LossPerExaFLOP: float64(g.loss_per_exaflop),
		FLOPsRatioDefined: g.flops_ratio_defined != 0,
	}, nil
}

// OptimumLimit says where a compute-optimal run stopped against the limits
// of its search (tco_optimum_limit).
type OptimumLimit int32

// Where the search stopped.
const (
	OptimumInterior     OptimumLimit = 0 // inside the limits: a true optimum
	OptimumParamsMin    OptimumLimit = 1 // the smallest model the parameter table allows
	OptimumParamsMax    OptimumLimit = 2 // the largest model the parameter table allows
	OptimumTokensMax    OptimumLimit = 3 // the most tokens the table allows
	OptimumLargestModel OptimumLimit = 4 // the largest model the budget runs at all
)

// String is "interior", "params_min", "params_max", "tokens_max" or
// "largest_model".
func (l OptimumLimit) String() string {
	switch l {
	case OptimumInterior:
		return "interior"
	case OptimumParamsMin:
		return "params_min"
	case OptimumParamsMax:
		return "params_max"
	case OptimumTokensMax:
		return "tokens_max"
	case OptimumLargestModel:
		return "largest_model"
	}
	return "OptimumLimit(" + strconv.Itoa(int(l)) + ")"
}

// Optimum is the compute-optimal run for a budget (tco_optimum), with its
// Estimate (the cost by category).
type Optimum struct {
	Evaluations    int // estimates the search priced
	Limit          OptimumLimit
	Params         float64 // N: the active parameters
	ParamsTotal    float64
	Tokens         float64 // D: tokens x epochs
	TokensPerParam float64
	Loss           float64 // nats per token
	Total          float64 // all runs: at most the budget
	TrainFLOPs     float64 // per run
	Estimate       *Estimate
}

// ComputeOptimal is the model size and token count with the least
// predicted loss whose run costs at most budget (all runs, in the pricing
// table's currency: Estimate.Total), the workload's run otherwise as given;
// law nil: Hoffmann et al. 2022. A budget below the smallest run's total
// fails with StatusInconsistent naming "budget".
func ComputeOptimal(law *ScalingLaw, budget float64, t *Topology, w *Workload, p *Pricing) (*Optimum, error) {
	ct, cw, cp, err := handles(t, w, p)
	if err != nil {
		return nil, err
	}
	var cl C.tco_scaling_law
	var o C.tco_optimum
	o.size = C.size_t(unsafe.Sizeof(o))
	var e C.tco_estimate
	e.size = C.size_t(unsafe.Sizeof(e))
	ce := newCErr()
	rc := C.tco_compute_optimal(&o, &e, cLaw(law, &cl), C.double(budget), ct, cw, cp, &ce)
	runtime.KeepAlive(t)
	runtime.KeepAlive(w)
	runtime.KeepAlive(p)
	if rc != 0 {
		return nil, failure(rc, &ce)
	}
	est := &Estimate{}
	est.fill(&e)
	return &Optimum{
		Evaluations: int(o.evaluations), Limit: OptimumLimit(o.limit), Params: float64(o.params),
		ParamsTotal: float64(o.params_total), Tokens: float64(o.tokens), TokensPerParam: float64(o.tokens_per_param),
		Loss: float64(o.loss), Total: float64(o.total), TrainFLOPs: float64(o.train_flops), Estimate: est,
	}, nil
}

// ComputeOptimal is the scenario's compute-optimal run for a budget
// (ComputeOptimal).
func (s *Scenario) ComputeOptimal(law *ScalingLaw, budget float64) (*Optimum, error) {
	if s == nil {
		return nil, errClosed("scenario")
	}
	return ComputeOptimal(law, budget, s.Topology, s.Workload, s.Pricing)
}
