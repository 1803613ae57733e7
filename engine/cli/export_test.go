package cli

import "time"

// SetServerSettings gives a run the settings of an online match, as
// -server's join does, for the tests that have no game server.
func (a *App) SetServerSettings(settings map[string]string) { a.serverSettings = settings }

// CheckFlags parses args and checks them as Run does before anything
// runs (the flags' values, the files the run reads and writes), and runs
// nothing.
func (a *App) CheckFlags(args []string) error {
	if err := a.Flags().Parse(args); err != nil {
		return err
	}
	return a.check()
}

// SetServerSilence sets how long -server's client waits for a server that
// sends nothing (client.Options.Silence), for tests that do not wait 30 s.
func (a *App) SetServerSilence(d time.Duration) { a.serverSilence = d }
