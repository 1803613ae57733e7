package cli

// CheckFlags parses args and checks them as Run does before anything
// runs (the flags' values, the files the run reads and writes), and runs
// nothing.
func (a *App) CheckFlags(args []string) error {
	a.newRun()
	if err := a.flags.Parse(args); err != nil {
		return err
	}
	return a.check()
}
