//go:build !race

package racetest

const enabled = false
