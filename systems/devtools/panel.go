package devtools

import (
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The panel: the picked entity's values, laid out as lines of text once a
// tick, and drawn into an image that frames between ticks reuse.

type lineKind uint8

const (
	lineTitle lineKind = iota
	lineHeader
	lineValue
	lineNote
)

// inspectorLine is one line of the panel.
type inspectorLine struct {
	kind    lineKind
	text    string
	comp    string // the component's name (headers and values)
	changed bool   // a value that differs from the last tick's
}

// inspectorMaxColumns cuts longer lines (a long string value).
const inspectorMaxColumns = 72

func (i *Inspector) scrollBy(n int) {
	s := max(0, min(i.scroll+n, len(i.lines)-1))
	if s != i.scroll {
		i.scroll = s
		i.relayout = true
	}
}

// clickPanel folds or unfolds the component whose name is at pt.
func (i *Inspector) clickPanel(pt image.Point) {
	lineH := i.lineHeight()
	row := int(float64(pt.Y-i.rect.Min.Y-overlayPad) / lineH)
	if row < 0 || row >= len(i.rows) || i.rows[row] < 0 {
		return
	}
	l := i.lines[i.rows[row]]
	if l.kind != lineHeader {
		return
	}
	if i.collapsed == nil {
		i.collapsed = map[string]bool{}
	}
	i.collapsed[l.comp] = !i.collapsed[l.comp]
	i.stale = true
}

func (i *Inspector) lineHeight() float64 {
	m := i.face.Metrics()
	return math.Ceil(m.HAscent + m.HDescent + m.HLineGap)
}

// build rebuilds the panel's lines from the picked entity's values. After a
// tick (ticked), the values it shows before are those to compare with.
func (i *Inspector) build(w donburi.World, ticked bool) {
	i.stale = false
	i.builds++
	if i.state == nil {
		i.state = state.NewHasher(nil)
		i.prev, i.cur = map[string]string{}, map[string]string{}
	}
	switch {
	case i.prevSel != i.sel || !i.hasSel:
		clear(i.prev) // nothing has changed for a newly picked entity
		clear(i.cur)
		i.prevSel = i.sel
	case ticked:
		i.prev, i.cur = i.cur, i.prev
		clear(i.cur)
	}
	i.lines = i.lines[:0]
	title := i.title(w)
	i.lines = append(i.lines, inspectorLine{kind: lineTitle, text: title})
	switch {
	case !i.hasSel:
		i.note("click an entity, or Tab to cycle")
	case !w.Valid(i.sel):
		i.note("removed from the world")
	default:
		i.values = i.values[:0]
		if err := i.state.VisitEntity(w, i.sel, i.keep); err != nil {
			i.note(err.Error())
			break
		}
		i.addComponents(w)
	}
	var b strings.Builder
	marked := 0
	for k, l := range i.lines {
		if k > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.text)
		if l.changed {
			marked++
		}
	}
	// The same text with nothing marked, before and now (an entity at
	// rest): the panel drawn stays as it is.
	if t := b.String(); t != i.text || marked > 0 || i.marked > 0 || i.panel == nil {
		i.text, i.marked = t, marked
		i.relayout = true
	}
}

func (i *Inspector) note(s string) {
	i.lines = append(i.lines, inspectorLine{kind: lineNote, text: "  " + s})
}

// title names the entity, the tick and the pause.
func (i *Inspector) title(w donburi.World) string {
	b := []byte("inspector")
	if i.hasSel {
		b = append(b, "  "...)
		b = appendEntityName(b, i.sel)
		if w.Valid(i.sel) {
			b = append(b, "  "...)
			b = strconv.AppendInt(b, int64(len(w.Entry(i.sel).Archetype().ComponentTypes())), 10)
			b = append(b, " components"...)
		}
	}
	if i.loop != nil {
		b = append(b, "  tick "...)
		b = strconv.AppendInt(b, i.loop.Ticks(0), 10)
		if i.loop.Paused() {
			b = append(b, "  PAUSED"...)
		}
	}
	return string(b)
}

// appendEntityName writes e as the dumps do: e<id>v<version>.
func appendEntityName(b []byte, e donburi.Entity) []byte {
	b = append(b, 'e')
	b = strconv.AppendUint(b, uint64(e.Id()), 10)
	b = append(b, 'v')
	return strconv.AppendUint(b, uint64(e.Version()), 10)
}

// shownValue is one value of the picked entity: its component, its path
// below it, and its text as the dump writes it and as the panel shows it.
type shownValue struct {
	comp, path, value, short string
	number                   bool // a number, shown on one line with its siblings
}

// keep keeps a value of the picked entity's visit. A value with nothing to
// show is left out: its component is listed without values.
func (i *Inspector) keep(v *state.Value) {
	if v.Kind == state.Empty {
		return
	}
	i.scratch = v.AppendText(i.scratch[:0])
	sv := shownValue{comp: v.Component, path: strings.TrimPrefix(string(v.Path), "."), value: string(i.scratch)}
	sv.short = sv.value
	switch v.Kind {
	case state.Float:
		sv.number = !v.Stringer && !math.IsNaN(v.Float)
		// Many digits are shown as seven significant ones (474.5000000000153 is 474.5).
		if sv.number && len(sv.value) > 9 && strings.ContainsAny(sv.value, ".eE") {
			sv.short = strconv.FormatFloat(v.Float, 'g', 7, 64)
		}
	case state.Int, state.Uint, state.Len:
		sv.number = !v.Stringer
	}
	i.values = append(i.values, sv)
}

// addComponents turns the values into one block per component, in the
// visit's order (by name), with the entity's components that have no
// exported state listed too.
func (i *Inspector) addComponents(w donburi.World) {
	values := i.values
	var names []string
	for _, ct := range w.Entry(i.sel).Archetype().ComponentTypes() {
		names = append(names, ct.Name())
	}
	for _, v := range values {
		names = append(names, v.comp)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	for _, name := range names {
		start := slices.IndexFunc(values, func(v shownValue) bool { return v.comp == name })
		end := start
		for end >= 0 && end < len(values) && values[end].comp == name {
			end++
		}
		var block []shownValue
		if start >= 0 {
			block = values[start:end]
		}
		i.addComponent(name, block)
	}
}

// addComponent adds a component's header and its values, runs of two to
// four short-named siblings (X and Y, R G B A) on one line.
func (i *Inspector) addComponent(name string, vals []shownValue) {
	folded := i.collapsed[name]
	head := "[-] " + name
	if folded {
		head = "[+] " + name + " (" + strconv.Itoa(len(vals)) + " values)"
	}
	i.lines = append(i.lines, inspectorLine{kind: lineHeader, text: head, comp: name})
	if len(vals) == 0 {
		i.lines = append(i.lines, inspectorLine{kind: lineNote, text: "    (no exported state)", comp: name})
		return
	}
	type row struct {
		label, value string
		changed      bool
	}
	var rows []row
	for k := 0; k < len(vals); {
		n, merge := siblings(vals[k:])
		if !merge {
			for _, v := range vals[k : k+n] {
				rows = append(rows, row{label: v.path, value: v.short, changed: i.compare(name, v)})
			}
			k += n
			continue
		}
		changed := false
		var b []byte
		for m, v := range vals[k : k+n] {
			changed = i.compare(name, v) || changed
			if m > 0 {
				b = append(b, "  "...)
			}
			_, l := splitPath(v.path)
			b = append(b, l...)
			b = append(b, '=')
			b = append(b, v.short...)
		}
		parent, _ := splitPath(vals[k].path)
		rows = append(rows, row{label: parent, value: string(b), changed: changed})
		k += n
	}
	if folded {
		return
	}
	width := 0
	for _, r := range rows {
		width = max(width, utf8.RuneCountInString(r.label))
	}
	width = min(width, 28)
	for _, r := range rows {
		b := []byte("    ")
		b = appendLeft(b, r.label, width)
		b = append(b, "  "...)
		b = append(b, r.value...)
		i.lines = append(i.lines, inspectorLine{kind: lineValue, text: cutColumns(string(b), inspectorMaxColumns),
			comp: name, changed: r.changed})
	}
}

// compare notes v's value for the next tick and reports whether it differs
// from the last tick's.
func (i *Inspector) compare(comp string, v shownValue) bool {
	key := comp + "." + v.path
	old, ok := i.prev[key]
	i.cur[key] = v.value
	return ok && old != v.value
}

// siblings returns how many values from vals[0] on share its parent, and
// whether they go on one line: all the fields of a small struct of numbers
// (a vector, a colour, a rectangle's corner: two to four fields of short
// names, the line short enough). The caller starts at a struct's first
// field, so a run is always a whole struct.
func siblings(vals []shownValue) (n int, merge bool) {
	parent, _ := splitPath(vals[0].path)
	merge = parent != ""
	width := 0
	for n < len(vals) {
		p, leaf := splitPath(vals[n].path)
		if p != parent {
			break
		}
		if !vals[n].number || len(leaf) > 6 {
			merge = false
		}
		width += len(leaf) + 1 + len(vals[n].short) + 2
		n++
	}
	return n, merge && n >= 2 && n <= 4 && width <= 44
}

// splitPath splits a path at its last dot: "Body.Position.X" is
// "Body.Position" and "X".
func splitPath(p string) (parent, leaf string) {
	k := strings.LastIndexByte(p, '.')
	if k < 0 {
		return "", p
	}
	return p[:k], p[k+1:]
}

// cutColumns cuts s to n runes, the last one an ellipsis.
func cutColumns(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	k := 0
	for j := range s {
		if k == n-1 {
			return s[:j] + "…"
		}
		k++
	}
	return s
}

// layout draws the lines that fit on the screen into the panel image, at
// the screen's top-right corner: the title, then from the scroll position
// on, and a last line saying what is cut off. Headers, changed values and
// the rest are drawn in their colours, changed values over a faint bar.
func (i *Inspector) layout() {
	i.relayout = false
	lineH := i.lineHeight()
	i.maxRows = max(3, int((float64(i.screenH-i.top)-2*overlayPad)/lineH))
	body := len(i.lines) - 1     // the lines below the title
	footed := body > i.maxRows-1 // they do not all fit: a last line says so
	avail := i.maxRows - 1
	if footed {
		avail--
	}
	i.scroll = max(0, min(i.scroll, body-avail))
	shown := min(body-i.scroll, avail)
	i.rows = append(i.rows[:0], 0)
	for k := range shown {
		i.rows = append(i.rows, 1+i.scroll+k)
	}
	var footer string
	if footed {
		footer = "  … " + strconv.Itoa(i.scroll) + " lines above, " + strconv.Itoa(body-i.scroll-shown) + " below (wheel)"
	}
	i.normal, i.heads, i.changed = i.normal[:0], i.heads[:0], i.changed[:0]
	cols := 0
	put := func(s string, kind lineKind, changed bool) {
		cols = max(cols, utf8.RuneCountInString(s))
		switch {
		case kind == lineHeader || kind == lineTitle:
			i.heads = append(i.heads, s...)
		case changed:
			i.changed = append(i.changed, s...)
		default:
			i.normal = append(i.normal, s...)
		}
		i.normal = append(i.normal, '\n')
		i.heads = append(i.heads, '\n')
		i.changed = append(i.changed, '\n')
	}
	for _, k := range i.rows {
		l := &i.lines[k]
		put(l.text, l.kind, l.changed)
	}
	if footer != "" {
		put(footer, lineNote, false)
		i.rows = append(i.rows, -1)
	}
	adv := text.Advance("0", i.face)
	pw := int(math.Ceil(float64(cols)*adv)) + 2*overlayPad
	ph := int(math.Ceil(float64(len(i.rows))*lineH)) + 2*overlayPad
	if i.cache == nil || i.cache.Bounds().Dx() < pw || i.cache.Bounds().Dy() < ph {
		if i.cache != nil {
			i.cache.Deallocate()
		}
		i.cache = ebiten.NewImage((pw+63)&^63, (ph+63)&^63)
	}
	i.cache.Clear()
	vector.FillRect(i.cache, 0, 0, float32(pw), float32(ph), inspectorBackground, false)
	for r, k := range i.rows {
		if k >= 0 && i.lines[k].changed {
			vector.FillRect(i.cache, 0, float32(overlayPad+float64(r)*lineH), float32(pw), float32(lineH),
				color.RGBA{60, 50, 10, 110}, false)
		}
	}
	for _, t := range [...]struct {
		s []byte
		c color.RGBA
	}{{i.normal, overlayForeground}, {i.heads, inspectorHeader}, {i.changed, inspectorChanged}} {
		op := &text.DrawOptions{}
		op.LineSpacing = lineH
		op.GeoM.Translate(overlayPad, overlayPad)
		op.ColorScale.ScaleWithColor(t.c)
		text.Draw(i.cache, string(t.s), i.face, op)
	}
	i.panel = i.cache.SubImage(image.Rect(0, 0, pw, ph)).(*ebiten.Image)
	x0 := max(0, i.screenW-pw) // on a narrow screen, cut on the right
	i.rect = image.Rect(x0, i.top, x0+pw, i.top+ph)
}
