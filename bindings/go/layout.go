package tco

// #include "tco_go.h"
import "C"

import "unsafe"

// cLayouts is the size of every C struct the binding fills or reads field
// by field (the estimate is read through the library's field table, so a
// field C adds to it shows up in Fields by itself), as this cgo build of
// tco.h lays them out. layout_internal_test.go holds the sizes the Go side
// was written for: a field C appends fails that test until Go maps it, or
// says why it does not.
func cLayouts() map[string]uintptr {
	return map[string]uintptr{
		"tco_error":               unsafe.Sizeof(C.tco_error{}),
		"tco_param_info":          unsafe.Sizeof(C.tco_param_info{}),
		"tco_accelerator":         unsafe.Sizeof(C.tco_accelerator{}),
		"tco_field_info":          unsafe.Sizeof(C.tco_field_info{}),
		"tco_demand_stats":        unsafe.Sizeof(C.tco_demand_stats{}),
		"tco_split":               unsafe.Sizeof(C.tco_split{}),
		"tco_serve_request":       unsafe.Sizeof(C.tco_serve_request{}),
		"tco_serving":             unsafe.Sizeof(C.tco_serving{}),
		"tco_bandwidth":           unsafe.Sizeof(C.tco_bandwidth{}),
		"tco_lifecycle":           unsafe.Sizeof(C.tco_lifecycle{}),
		"tco_logging":             unsafe.Sizeof(C.tco_logging{}),
		"tco_budget":              unsafe.Sizeof(C.tco_budget{}),
		"tco_pool":                unsafe.Sizeof(C.tco_pool{}),
		"tco_job":                 unsafe.Sizeof(C.tco_job{}),
		"tco_placement":           unsafe.Sizeof(C.tco_placement{}),
		"tco_price":               unsafe.Sizeof(C.tco_price{}),
		"tco_option":              unsafe.Sizeof(C.tco_option{}),
		"tco_target":              unsafe.Sizeof(C.tco_target{}),
		"tco_sizing":              unsafe.Sizeof(C.tco_sizing{}),
		"tco_scaling_law":         unsafe.Sizeof(C.tco_scaling_law{}),
		"tco_loss":                unsafe.Sizeof(C.tco_loss{}),
		"tco_loss_gain":           unsafe.Sizeof(C.tco_loss_gain{}),
		"tco_optimum":             unsafe.Sizeof(C.tco_optimum{}),
		"tco_saving":              unsafe.Sizeof(C.tco_saving{}),
		"tco_stage":               unsafe.Sizeof(C.tco_stage{}),
		"tco_stage_result":        unsafe.Sizeof(C.tco_stage_result{}),
		"tco_programme":           unsafe.Sizeof(C.tco_programme{}),
		"tco_tradeoff":            unsafe.Sizeof(C.tco_tradeoff{}),
		"tco_pipeline_request":    unsafe.Sizeof(C.tco_pipeline_request{}),
		"tco_pipeline":            unsafe.Sizeof(C.tco_pipeline{}),
		"tco_swing":               unsafe.Sizeof(C.tco_swing{}),
		"tco_uncertain":           unsafe.Sizeof(C.tco_uncertain{}),
		"tco_summary":             unsafe.Sizeof(C.tco_summary{}),
		"tco_record":              unsafe.Sizeof(C.tco_record{}),
		"tco_attribution_request": unsafe.Sizeof(C.tco_attribution_request{}),
		"tco_bill":                unsafe.Sizeof(C.tco_bill{}),
		"tco_group":               unsafe.Sizeof(C.tco_group{}),
		"tco_lifetime_request":    unsafe.Sizeof(C.tco_lifetime_request{}),
		"tco_lifetime_year":       unsafe.Sizeof(C.tco_lifetime_year{}),
		"tco_lifetime":            unsafe.Sizeof(C.tco_lifetime{}),
		"tco_focus_request":       unsafe.Sizeof(C.tco_focus_request{}),
		"tco_waste_request":       unsafe.Sizeof(C.tco_waste_request{}),
		"tco_finding":             unsafe.Sizeof(C.tco_finding{}),
	}
}
