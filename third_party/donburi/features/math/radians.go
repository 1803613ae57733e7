package math

import "math"

func ToRadians(degrees float64) float64 {
	return float64(degrees * (math.Pi / 180.0))
}

func ToDegrees(radians float64) float64 {
	return float64(radians * (180.0 / math.Pi))
}
