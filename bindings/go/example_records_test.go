package tco_test

import (
	"fmt"
	"log"
	"time"

	"libtco.dev/tco"
)

// Who pays for a day of a 64-accelerator cluster: the usage records of
// the day (CSV, one row refused), the bill split by project to the cent,
// idle capacity and shared services spread by use. The record without a
// project falls in the group "" ("(none)" here), and is clipped to the
// day.
func ExampleAttribute() {
	csv := "start,end,accelerators,utilisation,price_class,tag.project\n" +
		"2026-11-01T00:00:00Z,2026-11-01T12:00:00Z,32,0.8,reserved,llama\n" +
		"2026-11-01T06:00:00Z,2026-11-01T18:00:00Z,16,,spot,vision\n" +
		"2026-11-01T08:00:00Z,2026-11-01T07:00:00Z,8,,,llama\n" +
		"2026-11-01T20:00:00Z,2026-11-02T02:00:00Z,8,,on_demand,\n"
	records, err := tco.ReadCSV([]byte(csv), false)
	if err != nil {
		log.Fatal(err)
	}
	defer records.Close()
	for _, b := range records.Bad() {
		fmt.Printf("line %d refused: %s\n", b.Line, b.Reason)
	}
	// H100 has no published spot list price: the records' spot hours need one.
	s, err := tco.NewScenario(tco.Set("accelerators", 64), tco.Set("spot_per_accel_hour", 2.5))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	a, err := s.Attribute(records, tco.AttributionRequest{
		PeriodStart: day, PeriodEnd: day.AddDate(0, 0, 1), By: []string{"project"}, Idle: "usage", Shared: "usage",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("bill %v: direct %v, idle %v, shared %v; %.0f of %.0f accelerator-hours held\n", a.Bill.Total,
		a.Bill.Direct, a.Bill.Idle, a.Bill.Shared, a.Bill.HeldAcceleratorHours, a.Bill.CapacityAcceleratorHours)
	for _, g := range a.Groups {
		name := g.Values[0]
		if name == "" {
			name = "(none)"
		}
		fmt.Printf("%-6s %8v (%4.1f%%): compute %v, direct %v, idle %v, shared %v\n", name, g.Total,
			100*g.Share, g.Category["compute"], g.Direct, g.Idle, g.Shared)
	}
	// Output:
	// line 4 refused: end = 1793516400 is before start = 1793520000 (seconds since 1970)
	// bill 9941.07: direct 2210.43, idle 6384.65, shared 1345.99; 608 of 1536 accelerator-hours held
	// llama   6792.21 (68.3%): compute 1510.27, direct 1510.27, idle 4362.29, shared 919.65
	// vision  2158.72 (21.7%): compute 480.00, direct 480.00, idle 1386.44, shared 292.28
	// (none)   990.14 (10.0%): compute 220.16, direct 220.16, idle 635.92, shared 134.06
}

// The money spent on nothing in a day of records: a notebook holding 8
// accelerators for ten hours at 2% use, a job asking for 32 and using a
// quarter of them, a failed run started again an hour later, and the
// capacity nobody held. Each finding says what to do.
func ExampleFindWaste() {
	csv := "start,end,accelerators,utilisation,price_class,state,tag.team,tag.user,tag.job_name\n" +
		"2026-11-01T08:00:00Z,2026-11-01T18:00:00Z,8,0.02,on_demand,completed,vision,li,notebook\n" +
		"2026-11-01T00:00:00Z,2026-11-01T06:00:00Z,32,0.25,on_demand,completed,llm,raj,eval\n" +
		"2026-11-01T06:00:00Z,2026-11-01T09:00:00Z,16,,on_demand,failed,llm,ana,train\n" +
		"2026-11-01T10:00:00Z,2026-11-01T20:00:00Z,16,,on_demand,completed,llm,ana,train\n"
	records, err := tco.ReadCSV([]byte(csv), true)
	if err != nil {
		log.Fatal(err)
	}
	defer records.Close()
	// H100 has no published spot list price: the records' spot hours need one.
	s, err := tco.NewScenario(tco.Set("accelerators", 64), tco.Set("spot_per_accel_hour", 2.5))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	w, err := s.FindWaste(records, tco.AttributionRequest{PeriodStart: day, PeriodEnd: day.AddDate(0, 0, 1),
		By: []string{"team"}}, tco.DefaultWasteRequest())
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range w.Findings {
		fmt.Printf("%-13s %-6s %8.2f  since %s\n", f.Kind, f.Group, f.Cost, f.Since.Format("15:04"))
	}
	fmt.Printf("total %.2f\n%s\n", w.Total, tco.FindingRerun.Action())
	// Output:
	// idle_capacity         7265.28  since 00:00
	// oversized     llm      660.48  since 00:00
	// idle_held     vision   539.39  since 08:00
	// rerun         llm      330.24  since 06:00
	// total 8795.39
	// Checkpoint more often and resume from the last checkpoint; fix the cause of the failure before resubmitting.
}
