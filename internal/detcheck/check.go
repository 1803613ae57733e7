package detcheck

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strconv"
	"strings"
)

// DetmathPath is the import path of the deterministic math package that
// findings suggest and -fix imports.
const DetmathPath = "github.com/fixedstep/fixedstep/engine/detmath"

// exactMath are the functions of package math whose result is the same
// bits on every CPU: exact operations (Sqrt, FMA and the roundings are
// correctly rounded wherever they run, in hardware or not), bit
// manipulations, comparisons, and Mod and Remainder, whose results are
// exactly representable and whose code has no product that can fuse.
var exactMath = set("Abs", "Ceil", "Copysign", "Dim", "FMA", "Float32bits", "Float32frombits",
	"Float64bits", "Float64frombits", "Floor", "Frexp", "Ilogb", "Inf", "IsInf", "IsNaN", "Ldexp",
	"Logb", "Max", "Min", "Mod", "Modf", "NaN", "Nextafter", "Nextafter32", "Remainder", "Round",
	"RoundToEven", "Signbit", "Sqrt", "Trunc")

// detmathFuncs are the functions package detmath has, under math's names
// (TestDetmathFuncs keeps the list true).
var detmathFuncs = set("Acos", "Asin", "Atan", "Atan2", "Cbrt", "Cos", "Cosh", "Exp", "Exp2",
	"Expm1", "Hypot", "Log", "Log10", "Log1p", "Log2", "Mod", "Pow", "Remainder", "Sin", "Sincos",
	"Sinh", "Tan", "Tanh")

// mathAssembly are the functions of package math that run assembly on
// some CPU, with results that differ from the portable Go code; Pow,
// Log10, Log2, Sinh, Cosh and Tanh call Exp or Log.
var mathAssembly = set("Exp", "Log", "Hypot", "Exp2", "Pow", "Log10", "Log2", "Sinh", "Cosh", "Tanh")

// randConstructors are the functions of math/rand and math/rand/v2 that
// make a generator of the caller's rather than use the global one.
var randConstructors = set("New", "NewSource", "NewPCG", "NewChaCha8", "NewZipf")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// fileCheck walks one file.
type fileCheck struct {
	p        *pkg
	f        *ast.File
	src      []byte
	checks   map[Kind]bool
	stack    []ast.Node
	markers  map[int]*marker // by the line each marks
	findings []Finding
	edits    []edit
	math     mathUses
}

// mathUses counts a file's uses of its import of package math, and those
// that -fix turns into detmath's.
type mathUses struct {
	name     *types.PkgName
	uses     int
	replaced int
}

// marker is a //detcheck:ok comment.
type marker struct {
	pos    token.Position
	reason string
	used   bool
}

const markerPrefix = "//detcheck:ok"

func (c *fileCheck) run() {
	c.readMarkers()
	for _, imp := range c.f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == "math" {
			if pn, ok := c.p.info.Defs[imp.Name].(*types.PkgName); ok && imp.Name != nil {
				c.math.name = pn
			} else if pn, ok := c.p.info.Implicits[imp].(*types.PkgName); ok {
				c.math.name = pn
			}
		}
	}
	ast.Inspect(c.f, func(n ast.Node) bool {
		if n == nil {
			c.stack = c.stack[:len(c.stack)-1]
			return false
		}
		c.stack = append(c.stack, n)
		c.visit(n)
		return true
	})
	if len(c.checks) == len(allKinds) {
		//detcheck:ok Check sorts the findings by position
		for _, m := range c.markers {
			if !m.used && m.reason != "" {
				c.findings = append(c.findings, Finding{Pkg: c.p.path, Pos: m.pos, Kind: Marker,
					Msg: "this " + markerPrefix + " marks no finding (it marks its own line, or the next when it stands alone)"})
			}
		}
	}
}

// readMarkers finds the //detcheck:ok comments: one at the end of a line
// marks that line, one alone on its line marks the next.
func (c *fileCheck) readMarkers() {
	c.markers = map[int]*marker{}
	for _, g := range c.f.Comments {
		for _, cm := range g.List {
			rest, ok := strings.CutPrefix(cm.Text, markerPrefix)
			if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
				continue
			}
			pos := c.p.fset.Position(cm.Pos())
			m := &marker{pos: pos, reason: strings.TrimSpace(rest)}
			if m.reason == "" {
				c.findings = append(c.findings, Finding{Pkg: c.p.path, Pos: pos, Kind: Marker,
					Msg: markerPrefix + " needs a reason after it"})
				continue
			}
			line := pos.Line
			if strings.TrimSpace(string(c.src[pos.Offset-(pos.Column-1):pos.Offset])) == "" {
				line++
			}
			c.markers[line] = m
		}
	}
}

// report records a finding at pos unless a marker covers its line, and
// says whether it was recorded (so that its fix may be made).
func (c *fileCheck) report(kind Kind, pos token.Pos, format string, args ...any) bool {
	if !c.checks[kind] {
		return false
	}
	p := c.p.fset.Position(pos)
	if m := c.markers[p.Line]; m != nil {
		m.used = true
		return false
	}
	c.findings = append(c.findings, Finding{Pkg: c.p.path, Pos: p, Kind: kind, Msg: fmt.Sprintf(format, args...)})
	return true
}

// fixed marks the last finding as fixed.
func (c *fileCheck) fixed() { c.findings[len(c.findings)-1].Fixed = true }

// parent is the node around the current one, parentheses skipped.
func (c *fileCheck) parent() ast.Node {
	for i := len(c.stack) - 2; i >= 0; i-- {
		if _, ok := c.stack[i].(*ast.ParenExpr); !ok {
			return c.stack[i]
		}
	}
	return nil
}

func (c *fileCheck) visit(n ast.Node) {
	switch n := n.(type) {
	case *ast.BinaryExpr:
		switch n.Op {
		case token.MUL:
			c.product(n)
		case token.QUO:
			if isComplex(c.typeOf(n)) && c.p.info.Types[n].Value == nil {
				c.report(Complex, n.OpPos, "complex division %s: it computes products and sums that may fuse into multiply-adds on some CPUs, and no conversion rounds them: write it in real parts with rounded products", c.text(n))
			}
		}
	case *ast.AssignStmt:
		switch n.Tok {
		case token.MUL_ASSIGN:
			c.mulAssign(n)
		case token.QUO_ASSIGN:
			if isComplex(c.typeOf(n.Lhs[0])) {
				c.report(Complex, n.TokPos, "complex division /=: it computes products and sums that may fuse into multiply-adds on some CPUs, and no conversion rounds them: write it in real parts with rounded products")
			}
		}
	case *ast.Ident:
		c.ident(n)
	case *ast.RangeStmt:
		c.rangeStmt(n)
	case *ast.GoStmt:
		c.report(Goroutine, n.Go, "go statement: goroutines run in no fixed order; keep them away from the state")
	case *ast.CallExpr:
		c.conversion(n)
	}
}

func (c *fileCheck) typeOf(e ast.Expr) types.Type { return c.p.info.Types[e].Type }

// floatKind says whether t is a float type (possibly named), a type
// parameter whose type set holds a float type, or neither.
func isFloat(t types.Type) bool {
	if t == nil {
		return false
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		return typeSetHas(tp.Constraint(), func(b *types.Basic) bool { return b.Info()&types.IsFloat != 0 })
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

func isComplex(t types.Type) bool {
	if t == nil {
		return false
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		return typeSetHas(tp.Constraint(), func(b *types.Basic) bool { return b.Info()&types.IsComplex != 0 })
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsComplex != 0
}

// typeSetHas says whether a constraint's type set holds a basic type
// that is.
func typeSetHas(t types.Type, is func(*types.Basic) bool) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return is(u)
	case *types.Union:
		for i := range u.Len() {
			if typeSetHas(u.Term(i).Type(), is) {
				return true
			}
		}
	case *types.Interface:
		for i := range u.NumEmbeddeds() {
			if typeSetHas(u.EmbeddedType(i), is) {
				return true
			}
		}
	}
	return false
}

// exactFactor says whether e is a constant whose product with any float
// is exact: zero or a power of two, of either sign. (Such a product
// rounds only when it overflows or falls among the subnormals.)
func (c *fileCheck) exactFactor(e ast.Expr) bool {
	v := c.p.info.Types[e].Value
	if v == nil {
		return false
	}
	if v.Kind() != constant.Int && v.Kind() != constant.Float {
		return false
	}
	f, _ := constant.Float64Val(constant.ToFloat(v))
	frac, _ := math.Frexp(math.Abs(f))
	return f == 0 || frac == 0.5
}

// product checks a binary *.
func (c *fileCheck) product(n *ast.BinaryExpr) {
	tv := c.p.info.Types[n]
	if tv.Value != nil {
		return // a constant: the compiler multiplies
	}
	if isComplex(tv.Type) {
		c.report(Complex, n.OpPos, "complex product %s: it computes products and sums that may fuse into multiply-adds on some CPUs, and no conversion rounds them: write it in real parts with rounded products", c.text(n))
		return
	}
	if !isFloat(tv.Type) || c.exactFactor(n.X) || c.exactFactor(n.Y) || c.rounded(n) {
		return
	}
	name, nameOK := c.typeName(tv.Type, n.Pos())
	if !nameOK {
		c.report(Product, n.Pos(), "float product %s may fuse into a multiply-add on some CPUs: round it with a conversion to its type (which cannot be named here: -fix leaves it)", c.text(n))
		return
	}
	if c.report(Product, n.Pos(), "float product %s may fuse into a multiply-add on some CPUs: round it, %s(%s)", c.text(n), name, c.text(n)) {
		if paren := c.enclosingParen(); paren != nil {
			c.wrap(paren.Pos(), paren.End(), name, "") // (a*b) becomes T(a*b)
		} else {
			c.wrap(n.Pos(), n.End(), name+"(", ")")
		}
		c.fixed()
	}
}

// enclosingParen is the outermost of the parentheses right around the
// current node, if it has any.
func (c *fileCheck) enclosingParen() *ast.ParenExpr {
	var outer *ast.ParenExpr
	for i := len(c.stack) - 2; i >= 0; i-- {
		p, ok := c.stack[i].(*ast.ParenExpr)
		if !ok {
			break
		}
		outer = p
	}
	return outer
}

// rounded says whether the product n is used where no multiply-add can
// take it: as the operand of a conversion (which rounds it), or of
// another product or a quotient (there is no fused multiply-multiply or
// multiply-divide).
func (c *fileCheck) rounded(n ast.Expr) bool {
	switch p := c.parent().(type) {
	case *ast.CallExpr:
		return len(p.Args) == 1 && c.p.info.Types[p.Fun].IsType()
	case *ast.BinaryExpr:
		return p.Op == token.MUL || p.Op == token.QUO
	case *ast.AssignStmt:
		return (p.Tok == token.MUL_ASSIGN || p.Tok == token.QUO_ASSIGN) && len(p.Rhs) == 1 && unparen(p.Rhs[0]) == n
	}
	return false
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// mulAssign checks v *= k.
func (c *fileCheck) mulAssign(n *ast.AssignStmt) {
	lhs, rhs := n.Lhs[0], n.Rhs[0]
	t := c.typeOf(lhs)
	if isComplex(t) {
		c.report(Complex, n.TokPos, "complex product *=: it computes products and sums that may fuse into multiply-adds on some CPUs, and no conversion rounds them: write it in real parts with rounded products")
		return
	}
	if !isFloat(t) || c.exactFactor(rhs) {
		return
	}
	l, r := c.text(lhs), c.text(rhs)
	_, paren := rhs.(*ast.BinaryExpr) // v *= a + b is v * (a + b)
	if paren {
		r = "(" + r + ")"
	}
	name, nameOK := c.typeName(t, n.Pos())
	if !nameOK || !simple(lhs) {
		why := l + " has a call or an expression -fix will not repeat"
		if !nameOK {
			name, why = "T", "its type cannot be named here"
		}
		c.report(Product, n.Pos(), "%s *= %s may fuse into a multiply-add on some CPUs: write it %s = %s(%s * %s) (%s: -fix leaves it)", l, c.text(rhs), l, name, l, r, why)
		return
	}
	if c.report(Product, n.Pos(), "%s *= %s may fuse into a multiply-add on some CPUs: write it %s = %s(%s * %s)", l, c.text(rhs), l, name, l, r) {
		c.edits = append(c.edits, edit{off: c.off(n.TokPos), end: c.off(n.TokPos) + 2, text: "= " + name + "(" + l + " *", size: -1})
		if paren {
			c.wrap(rhs.Pos(), rhs.End(), "(", ")")
		}
		c.edits = append(c.edits, edit{off: c.off(rhs.End()), text: ")", close: true, size: c.off(rhs.End()) - c.off(n.TokPos)})
		c.fixed()
	}
}

// simple says whether an assignment's left side can be written twice
// without changing what the statement does: names, fields, and index
// expressions of names and constants, with no calls.
func simple(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return simple(e.X)
	case *ast.SelectorExpr:
		return simple(e.X)
	case *ast.StarExpr:
		return simple(e.X)
	case *ast.IndexExpr:
		return simple(e.X) && simple(e.Index)
	}
	return false
}

// typeName is how the file names t at pos, for a conversion.
func (c *fileCheck) typeName(t types.Type, pos token.Pos) (string, bool) {
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		if obj, ok := c.lookup(t.Name(), pos).(*types.TypeName); ok && obj.Pkg() == nil {
			return t.Name(), true
		}
	case *types.TypeParam:
		if c.lookup(t.Obj().Name(), pos) == t.Obj() {
			return t.Obj().Name(), true
		}
	case *types.Named:
		obj := t.Obj()
		if t.TypeArgs().Len() > 0 || obj.Pkg() == nil {
			return "", false
		}
		if obj.Pkg() == c.p.types {
			return obj.Name(), c.lookup(obj.Name(), pos) == obj
		}
		for _, imp := range c.f.Imports {
			var pn *types.PkgName
			if imp.Name != nil {
				pn, _ = c.p.info.Defs[imp.Name].(*types.PkgName)
			} else {
				pn, _ = c.p.info.Implicits[imp].(*types.PkgName)
			}
			if pn != nil && pn.Imported() == obj.Pkg() && c.lookup(pn.Name(), pos) == pn {
				return pn.Name() + "." + obj.Name(), true
			}
		}
	}
	return "", false
}

// lookup is what name means at pos in the file.
func (c *fileCheck) lookup(name string, pos token.Pos) types.Object {
	s := c.p.types.Scope().Innermost(pos)
	if s == nil {
		return nil
	}
	_, obj := s.LookupParent(name, pos)
	return obj
}

// ident checks a use of a package-level function of math, math/cmplx,
// time, math/rand, math/rand/v2 or crypto/rand.
func (c *fileCheck) ident(id *ast.Ident) {
	if pn, ok := c.p.info.Uses[id].(*types.PkgName); ok && pn == c.math.name && c.math.name != nil {
		c.math.uses++
		return
	}
	fn, ok := c.p.info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return
	}
	name := fn.Name()
	switch fn.Pkg().Path() {
	case "math":
		if exactMath[name] {
			return
		}
		why := "its products may fuse into multiply-adds on some CPUs"
		if mathAssembly[name] {
			why = "it runs assembly on some CPUs (amd64 picks a path by the CPU) that differs from its Go code, whose products may fuse"
		}
		if !detmathFuncs[name] {
			c.report(MathCall, id.Pos(), "math.%s may give other bits on another CPU (%s); detmath has no %s: build it from detmath's functions with rounded products", name, why, name)
			return
		}
		if c.report(MathCall, id.Pos(), "math.%s may give other bits on another CPU (%s): use detmath.%s", name, why, name) {
			if sel, ok := c.parent().(*ast.SelectorExpr); ok && sel.Sel == id && c.math.name != nil {
				if x, ok := sel.X.(*ast.Ident); ok && c.p.info.Uses[x] == c.math.name {
					c.edits = append(c.edits, edit{off: c.off(x.Pos()), end: c.off(x.End()), text: "detmath", size: -1})
					c.math.replaced++
					c.fixed()
				}
			}
		}
	case "math/cmplx":
		c.report(MathCall, id.Pos(), "cmplx.%s may give other bits on another CPU: it is built on math's functions and complex products, which may fuse into multiply-adds", name)
	case "time":
		switch name {
		case "Now", "Since", "Until":
			c.report(Clock, id.Pos(), "time.%s reads the wall clock: the simulation must count ticks instead", name)
		}
	case "math/rand", "math/rand/v2":
		if !randConstructors[name] {
			c.report(Rand, id.Pos(), "rand.%s uses the global generator, seeded apart from the simulation: use a generator of the simulation's (rand.New with a seed it keeps)", name)
		}
	case "crypto/rand":
		c.report(Rand, id.Pos(), "crypto/rand.%s is random by design: keep it away from the state", name)
	}
}

// rangeStmt checks a range over a map, or over an iterator from package
// maps, unless it only collects the keys into a slice that a later
// statement of the same block sorts.
func (c *fileCheck) rangeStmt(n *ast.RangeStmt) {
	what := ""
	if _, ok := types.Unalias(c.typeOf(n.X)).Underlying().(*types.Map); ok {
		what = "range over a map"
	} else if call, ok := unparen(n.X).(*ast.CallExpr); ok {
		if fn := c.callee(call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "maps" {
			what = "range over maps." + fn.Name()
		}
	}
	if what == "" || c.sortedKeys(n) {
		return
	}
	c.report(MapRange, n.For, "%s: its order differs from run to run; collect the keys, sort them (slices.Sorted(maps.Keys(m))) and range over those", what)
}

// callee is the function a call calls, if it names one.
func (c *fileCheck) callee(call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.IndexExpr: // an explicit instantiation
		return c.callee(&ast.CallExpr{Fun: f.X})
	}
	if id == nil {
		return nil
	}
	fn, _ := c.p.info.Uses[id].(*types.Func)
	return fn
}

// sortedKeys says whether a range statement's body is only
// `s = append(s, k)` of its key and a later statement of its block sorts
// s with package sort or slices.
func (c *fileCheck) sortedKeys(n *ast.RangeStmt) bool {
	key, ok := n.Key.(*ast.Ident)
	if !ok || key.Name == "_" || (n.Value != nil && !isBlank(n.Value)) || len(n.Body.List) != 1 {
		return false
	}
	as, ok := n.Body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok || len(call.Args) != 2 || call.Ellipsis.IsValid() {
		return false
	}
	if fn, ok := unparen(call.Fun).(*ast.Ident); !ok || c.p.info.Uses[fn] != types.Universe.Lookup("append") {
		return false
	}
	slice := types.ExprString(as.Lhs[0])
	if types.ExprString(call.Args[0]) != slice {
		return false
	}
	if arg, ok := call.Args[1].(*ast.Ident); !ok || c.p.info.Uses[arg] != c.p.info.Defs[key] {
		return false
	}
	var after []ast.Stmt
	switch p := c.parent().(type) {
	case *ast.BlockStmt:
		after = p.List
	case *ast.CaseClause:
		after = p.Body
	case *ast.CommClause:
		after = p.Body
	}
	seen := false
	for _, s := range after {
		if s == ast.Stmt(n) {
			seen = true
			continue
		}
		es, ok := s.(*ast.ExprStmt)
		if !seen || !ok {
			continue
		}
		sc, ok := es.X.(*ast.CallExpr)
		if !ok || len(sc.Args) == 0 || types.ExprString(sc.Args[0]) != slice {
			continue
		}
		fn := c.callee(sc)
		if fn == nil || fn.Pkg() == nil {
			continue
		}
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "sort.Strings", "sort.Ints", "sort.Float64s", "sort.Slice", "sort.SliceStable",
			"slices.Sort", "slices.SortFunc", "slices.SortStableFunc":
			return true
		}
	}
	return false
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// conversion checks a conversion of a float to an integer type.
func (c *fileCheck) conversion(call *ast.CallExpr) {
	if len(call.Args) != 1 || !c.p.info.Types[call.Fun].IsType() {
		return
	}
	to, ok := c.typeOf(call).Underlying().(*types.Basic)
	if !ok || to.Info()&types.IsInteger == 0 {
		return
	}
	arg := c.p.info.Types[call.Args[0]]
	if arg.Value != nil || !isFloat(arg.Type) {
		return
	}
	c.report(FloatToInt, call.Pos(), "%s converts a float to an integer: NaN and values out of the integer's range give different integers on different CPUs (amd64 gives the lowest integer, arm64 saturates); bound the value first, then mark the line %s with why it is in range", c.text(call), markerPrefix)
}

// text is an expression's source, shortened when long.
func (c *fileCheck) text(e ast.Node) string {
	s := string(c.src[c.off(e.Pos()):c.off(e.End())])
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func (c *fileCheck) off(p token.Pos) int { return c.p.fset.Position(p).Offset }

// wrap surrounds the source from pos to end with open and close.
func (c *fileCheck) wrap(pos, end token.Pos, open, close string) {
	o, e := c.off(pos), c.off(end)
	c.edits = append(c.edits, edit{off: o, text: open, size: e - o}, edit{off: e, text: close, close: true, size: e - o})
}
