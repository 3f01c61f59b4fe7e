//go:build !race

package tco_test

const raceEnabled = false
