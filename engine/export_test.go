package engine

// LogRates returns the group rates scene i of lg was recorded with, for
// tests that replay a log they did not record.
func LogRates(lg *InputLog, i int) []float64 { return lg.scenes[i].rates }
