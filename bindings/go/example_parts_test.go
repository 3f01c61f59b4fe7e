package tco_test

import (
	"fmt"
	"log"
	"time"

	"libtco.dev/tco"
)

// The day of ExampleAttribute attributed in two shares, as two machines
// would: each reads its own records and ships its part as bytes; merged
// and settled, they give Attribute's bill for all the records, to the
// cent.
func ExampleAttributePart() {
	shares := []string{
		"start,end,accelerators,utilisation,price_class,tag.project\n" +
			"2026-11-01T00:00:00Z,2026-11-01T12:00:00Z,32,0.8,reserved,llama\n",
		"start,end,accelerators,price_class,tag.project\n" +
			"2026-11-01T06:00:00Z,2026-11-01T18:00:00Z,16,spot,vision\n" +
			"2026-11-01T20:00:00Z,2026-11-02T02:00:00Z,8,on_demand,\n",
	}
	s, err := tco.NewScenario(tco.Set("accelerators", 64), tco.Set("spot_per_accel_hour", 2.5))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	// Every share is given the whole's request.
	req := tco.AttributionRequest{PeriodStart: day, PeriodEnd: day.AddDate(0, 0, 1), By: []string{"project"}}
	var shipped [][]byte
	for _, text := range shares {
		records, err := tco.ReadCSV([]byte(text), true)
		if err != nil {
			log.Fatal(err)
		}
		part, err := s.AttributePart(records, req)
		records.Close()
		if err != nil {
			log.Fatal(err)
		}
		b, err := part.MarshalBinary()
		part.Close()
		if err != nil {
			log.Fatal(err)
		}
		shipped = append(shipped, b)
	}
	whole, err := tco.LoadAttributionPart(shipped[1])
	if err != nil {
		log.Fatal(err)
	}
	defer whole.Close()
	other, err := tco.LoadAttributionPart(shipped[0])
	if err != nil {
		log.Fatal(err)
	}
	defer other.Close()
	if err := whole.Merge(other); err != nil {
		log.Fatal(err)
	}
	a, err := whole.Settle(s.Topology, s.Workload, s.Pricing)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("bill %v: direct %v, idle %v, shared %v\n", a.Bill.Total, a.Bill.Direct, a.Bill.Idle, a.Bill.Shared)
	for _, g := range a.Groups {
		name := g.Values[0]
		if name == "" {
			name = "(none)"
		}
		fmt.Printf("%-6s %8v\n", name, g.Total)
	}
	// Output:
	// bill 9941.07: direct 2210.43, idle 6384.65, shared 1345.99
	// llama   6792.21
	// vision  2158.72
	// (none)   990.14
}
