package main

import (
	"cmp"
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
)

// The Nakama this plugin is for, and the nakama-common that Nakama was
// released with (its go.mod's). Nakama loads a plugin only when both were
// built by the same toolchain with the same version of every package they
// share, nakama-common first of all.
const (
	wantNakama = "v3.40.0"
	wantCommon = "v1.47.0"
)

const (
	nakamaPath = "github.com/heroiclabs/nakama/v3"
	commonPath = "github.com/heroiclabs/nakama-common"
)

// TestVersions builds nakama and the plugin as make server does and checks
// that they agree: the toolchain, every module both hold, and the build
// settings; and that server/go.mod selects the Nakama and nakama-common
// above.
func TestVersions(t *testing.T) {
	bins := nakamatest.Build(t) // fails, or skips, saying what to install when Go is missing

	// What server/go.mod selects.
	out, err := exec.Command(cmp.Or(os.Getenv("GO"), "go"), "list", "-m", "-f", "{{.Path}} {{.Version}}", nakamaPath, commonPath).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -m: %v\n%s", err, out)
	}
	selected := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, version, ok := strings.Cut(line, " "); ok {
			selected[path] = version
		}
	}
	if selected[nakamaPath] != wantNakama || selected[commonPath] != wantCommon {
		t.Errorf("server/go.mod selects %s %s and %s %s; the plugin is for %s %s with %s %s: "+
			"if Nakama was upgraded on purpose, set wantNakama and wantCommon here to the new Nakama and the nakama-common its own go.mod requires",
			nakamaPath, selected[nakamaPath], commonPath, selected[commonPath], nakamaPath, wantNakama, commonPath, wantCommon)
	}
	// Nakama's own go.mod, from the module cache, when it is there.
	if gomodcache, err := exec.Command(cmp.Or(os.Getenv("GO"), "go"), "env", "GOMODCACHE").Output(); err == nil {
		mod := filepath.Join(strings.TrimSpace(string(gomodcache)), "cache", "download", nakamaPath, "@v", wantNakama+".mod")
		if b, err := os.ReadFile(mod); err == nil {
			m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(commonPath) + `\s+(\S+)`).FindSubmatch(b)
			if m == nil || string(m[1]) != wantCommon {
				t.Errorf("%s %s's go.mod (%s) requires %s %q, not %s", nakamaPath, wantNakama, mod, commonPath, m, wantCommon)
			}
		}
	}

	server, err := buildinfo.ReadFile(bins.Nakama)
	if err != nil {
		t.Fatal(err)
	}
	plugin, err := buildinfo.ReadFile(bins.Plugin)
	if err != nil {
		t.Fatal(err)
	}
	const fix = "build both with scripts/server.sh bins (from server/go.mod, with the same flags)"

	if server.GoVersion != plugin.GoVersion {
		t.Errorf("nakama was built by %s and the plugin by %s: %s", server.GoVersion, plugin.GoVersion, fix)
	}
	if server.Main.Path != nakamaPath || server.Main.Version != wantNakama {
		t.Errorf("%s is %s %s, want %s %s", bins.Nakama, server.Main.Path, server.Main.Version, nakamaPath, wantNakama)
	}

	serverMods := modules(server)
	if v, _, _ := strings.Cut(serverMods[commonPath], " "); v != wantCommon {
		t.Errorf("nakama was built with %s %q, want %s", commonPath, v, wantCommon)
	}
	pluginMods := modules(plugin)
	if pluginMods[commonPath] == "" {
		t.Errorf("the plugin holds no %s: is %s the plugin?", commonPath, bins.Plugin)
	}
	shared := 0
	for path, v := range pluginMods {
		sv, ok := serverMods[path]
		if !ok {
			continue
		}
		shared++
		if sv != v {
			t.Errorf("module %s: nakama has %s, the plugin %s: %s", path, sv, v, fix)
		}
	}
	t.Logf("%s: %s with %d modules, %d of them in the plugin too, all at the same versions", bins.Nakama, server.GoVersion, len(serverMods), shared)

	serverSet, pluginSet := settings(server), settings(plugin)
	if pluginSet["-buildmode"] != "plugin" {
		t.Errorf("the plugin was built with -buildmode=%s", pluginSet["-buildmode"])
	}
	for k, v := range serverSet {
		if k != "-buildmode" && pluginSet[k] != v {
			t.Errorf("build setting %s: nakama has %q, the plugin %q: %s", k, v, pluginSet[k], fix)
		}
	}
	for k, v := range pluginSet {
		if _, ok := serverSet[k]; !ok && k != "-buildmode" {
			t.Errorf("build setting %s: the plugin has %q, nakama none: %s", k, v, fix)
		}
	}
}

// modules maps each module's path to its version and checksum (and its
// replacement's).
func modules(bi *debug.BuildInfo) map[string]string {
	m := map[string]string{bi.Main.Path: bi.Main.Version}
	for _, d := range bi.Deps {
		v := d.Version + " " + d.Sum
		if r := d.Replace; r != nil {
			v += " => " + r.Path + " " + r.Version + " " + r.Sum
		}
		m[d.Path] = strings.TrimSpace(v)
	}
	return m
}

// settings are the build settings, those of version control left out.
func settings(bi *debug.BuildInfo) map[string]string {
	m := map[string]string{}
	for _, s := range bi.Settings {
		if !strings.HasPrefix(s.Key, "vcs") {
			m[s.Key] = s.Value
		}
	}
	return m
}
