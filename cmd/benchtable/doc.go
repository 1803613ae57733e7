package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// machine is where the runs were made, as their configuration says.
func (r *results) machine() string {
	m := strings.Trim(r.goos+"/"+r.goarch, "/")
	if r.cpu != "" {
		m += ", " + r.cpu
	}
	if r.cpus > 0 {
		m += fmt.Sprintf(", %d CPUs", r.cpus)
	}
	if r.goVersion != "" {
		m += ", " + r.goVersion
	}
	return m
}

// preamble is the head of BENCHMARKS.md, before its sections.
func preamble(r *results) string {
	target := "make bench"
	if r.target != "" {
		target = "make " + r.target
	}
	return fmt.Sprintf(`# Benchmarks

What the engine costs beside the libraries it is made of, how many bodies fit in a
physics tick, and whether a long run stutters, as `+"`%s`"+` measured them (%s,
%s).

`+"`make bench`"+` measures the headline figures: the benchmarks of the module's own packages
(not third_party's), one package at a time, with -short -benchmem -count 6 -benchtime 0.3s
(-short leaves out the 5,000-body scenes, the bodymark at rest, the frames timed apart from
their lockstep twins, the browser, and the benchmarks whose figures have sections of their
own below; -skip leaves out the rollback bodymark, whose section says how to run it), then `+"`cmd/stutter`"+` headless (10 s a run) and in a window under Xvfb (5 s,
GOGC=100 only). `+"`make bench-full`"+` runs every benchmark of the module with -benchmem and
-count 6 at Go's default benchtime, then `+"`cmd/stutter`"+` for 30 s headless and 15 s in a
window, every GC setting in both. Each writes bench.txt, with the load average noted as each
stage starts and ends; then benchstat prints its own summary (benchstat.txt) and
`+"`go run ./cmd/benchtable -md BENCHMARKS.md bench.txt`"+` rewrites the sections below. It
keeps any section it does not make (a "## " title of its own, or a block between
`+"`<!-- NAME: begin -->`"+` and `+"`<!-- NAME: end -->`"+` lines), and a section of its own for
which the input has no results, as they were.

The statistics are golang.org/x/perf's: benchfmt reads the results, benchmath gives each
figure's median over the runs and its 95%% confidence interval (from order statistics, no
assumption about the distribution; with 6 runs it is the range of the runs, at 96.9%%).
This is a 2-core VM shared with other work: separately timed benchmarks drift by 10-40%%
between runs, so the lockstep benchmarks (engine and raw alternately in one run) give the
reliable ratios, and the bodymark times its ticks by their thread's CPU time.

`, target, r.date, r.machine())
}

// markerBegin matches the line that opens a block another tool keeps in
// the file.
var markerBegin = regexp.MustCompile(`^<!-- ([A-Za-z0-9_.-]+): begin -->\s*$`)

// document is the whole of BENCHMARKS.md: the preamble, then for each
// section benchtable makes, in order, the new one or (if this input made
// none) the old file's; then the old file's own sections and marked blocks,
// in their order.
func document(r *results, secs []section, old string) string {
	oldSecs, foreign := splitOld(old)
	var sb strings.Builder
	sb.WriteString(preamble(r))
	for _, title := range generatedTitles {
		if i := slices.IndexFunc(secs, func(s section) bool { return s.title == title }); i >= 0 {
			fmt.Fprintf(&sb, "## %s\n\n%s", title, strings.TrimRight(secs[i].body, "\n")+"\n\n")
			continue
		}
		if text, ok := oldSecs[title]; ok {
			sb.WriteString(strings.TrimRight(text, "\n") + "\n\n")
		}
	}
	for _, f := range foreign {
		sb.WriteString(strings.TrimRight(f, "\n") + "\n\n")
	}
	return strings.TrimRight(sb.String(), "\n") + "\n"
}

// splitOld reads an old BENCHMARKS.md: its sections benchtable makes, by
// title (each with its "## " line), and everything else it must keep, in
// order: blocks between "<!-- NAME: begin -->" and "<!-- NAME: end -->"
// lines, and sections with other titles. The preamble (before the first
// "## " line) is benchtable's and is dropped. A begin line without its end
// keeps the rest of the file as one block.
func splitOld(old string) (own map[string]string, foreign []string) {
	own = map[string]string{}
	lines := strings.SplitAfter(old, "\n")
	var title string // of the section being read; "" in the preamble
	var cur strings.Builder
	flush := func() {
		if title != "" {
			if slices.Contains(generatedTitles, title) {
				own[title] = cur.String()
			} else {
				foreign = append(foreign, cur.String())
			}
		}
		cur.Reset()
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := markerBegin.FindStringSubmatch(strings.TrimRight(line, "\n")); m != nil {
			end := "<!-- " + m[1] + ": end -->"
			var block strings.Builder
			for ; i < len(lines); i++ {
				block.WriteString(lines[i])
				if strings.TrimSpace(lines[i]) == end {
					break
				}
			}
			foreign = append(foreign, block.String())
			continue
		}
		if t, ok := strings.CutPrefix(line, "## "); ok {
			flush()
			title = strings.TrimSpace(t)
		}
		cur.WriteString(line)
	}
	flush()
	return own, foreign
}
