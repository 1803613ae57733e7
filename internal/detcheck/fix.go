package detcheck

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// edit is one change to a file's source: text replaces the bytes from off
// to end (end 0: an insertion at off). Insertions at one offset go in
// nesting order: the closings first, the inner before the outer (smaller
// size first), then the openings, the outer before the inner.
type edit struct {
	off, end int
	text     string
	close    bool
	size     int // the length of what an insertion opens or closes
}

// fixedSource is the file with its edits made, its imports of math and
// detmath set right, and gofmt's formatting.
func (c *fileCheck) fixedSource() ([]byte, error) {
	if len(c.edits) == 0 {
		return nil, nil
	}
	if err := c.importEdits(); err != nil {
		return nil, err
	}
	edits := slices.Clone(c.edits)
	slices.SortStableFunc(edits, func(a, b edit) int {
		if a.off != b.off {
			return a.off - b.off
		}
		if a.close != b.close {
			if a.close {
				return -1
			}
			return 1
		}
		if a.close {
			return a.size - b.size
		}
		return b.size - a.size
	})
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.off < last {
			return nil, fmt.Errorf("%s: overlapping edits at offset %d", c.p.fset.Position(c.f.Pos()).Filename, e.off)
		}
		out.Write(c.src[last:e.off])
		out.WriteString(e.text)
		last = max(e.off, e.end)
	}
	out.Write(c.src[last:])
	formatted, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: the fixed source does not parse: %w", c.p.fset.Position(c.f.Pos()).Filename, err)
	}
	return formatted, nil
}

// importEdits adds the edits that import detmath when a call was moved to
// it, and drop the import of math when nothing uses it any more.
func (c *fileCheck) importEdits() error {
	if c.math.replaced == 0 {
		return nil
	}
	var mathSpec *ast.ImportSpec
	var mathDecl *ast.GenDecl
	var firstDecl *ast.GenDecl
	add := true
	for _, d := range c.f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		if firstDecl == nil {
			firstDecl = g
		}
		for _, s := range g.Specs {
			spec := s.(*ast.ImportSpec)
			path, _ := strconv.Unquote(spec.Path.Value)
			switch path {
			case "math":
				if spec.Name == nil {
					mathSpec, mathDecl = spec, g
				}
			case DetmathPath:
				add = false
			}
		}
	}
	remove := mathSpec != nil && c.math.uses == c.math.replaced
	quoted := strconv.Quote(DetmathPath)
	if remove && add && len(mathDecl.Specs) == 1 {
		c.edits = append(c.edits, edit{off: c.off(mathSpec.Path.Pos()), end: c.off(mathSpec.Path.End()), text: quoted, size: -1})
		return nil
	}
	if remove {
		if len(mathDecl.Specs) == 1 {
			c.edits = append(c.edits, edit{off: c.off(mathDecl.Pos()), end: c.off(mathDecl.End()), size: -1})
		} else {
			start, end, err := c.wholeLine(mathSpec)
			if err != nil {
				return err
			}
			c.edits = append(c.edits, edit{off: start, end: end, size: -1})
		}
	}
	if !add {
		return nil
	}
	if firstDecl == nil {
		c.edits = append(c.edits, edit{off: c.off(c.f.Name.End()), text: "\n\nimport " + quoted, size: -1})
		return nil
	}
	if !firstDecl.Lparen.IsValid() {
		spec := firstDecl.Specs[0]
		text := "import (\n\t" + string(c.src[c.off(spec.Pos()):c.off(spec.End())]) + "\n\n\t" + quoted + "\n)"
		c.edits = append(c.edits, edit{off: c.off(firstDecl.Pos()), end: c.off(firstDecl.End()), text: text, size: -1})
		return nil
	}
	// Into the last group of imports from outside the standard library, or
	// a group of its own after the others.
	var after ast.Spec
	sep := "\n\n\t"
	for _, s := range firstDecl.Specs {
		if s == ast.Spec(mathSpec) && remove {
			continue
		}
		path, _ := strconv.Unquote(s.(*ast.ImportSpec).Path.Value)
		if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
			after, sep = s, "\n\t"
		} else if sep != "\n\t" {
			after = s
		}
	}
	if after == nil {
		return fmt.Errorf("%s: cannot place the import of detmath", c.p.fset.Position(c.f.Pos()).Filename)
	}
	c.edits = append(c.edits, edit{off: c.lineEnd(after.End()), text: sep + quoted, size: -1})
	return nil
}

// wholeLine is the span of the lines an import spec is alone on, its
// newline included.
func (c *fileCheck) wholeLine(s *ast.ImportSpec) (int, int, error) {
	start := c.off(s.Pos())
	for start > 0 && c.src[start-1] != '\n' {
		start--
		if c.src[start] != ' ' && c.src[start] != '\t' {
			return 0, 0, fmt.Errorf("%s: the import of math shares its line", c.p.fset.Position(s.Pos()))
		}
	}
	end := c.lineEnd(s.End())
	if end < len(c.src) {
		end++
	}
	return start, end, nil
}

// lineEnd is the offset of the newline that ends pos's line.
func (c *fileCheck) lineEnd(pos token.Pos) int {
	o := c.off(pos)
	for o < len(c.src) && c.src[o] != '\n' {
		o++
	}
	return o
}
