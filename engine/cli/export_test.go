package cli

// SetServerSettings gives a run the settings of an online match, as
// -server's join does, for the tests that have no game server.
func (a *App) SetServerSettings(settings map[string]string) { a.serverSettings = settings }
