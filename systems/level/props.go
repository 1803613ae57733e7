package level

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"github.com/lafriks/go-tiled"
)

// Property is a custom property as Tiled wrote it: its name, its type
// ("string", "int", "float", "bool", "color", "file", "object"; empty for a
// string) and its value, as text.
type Property struct {
	Name, Type, Value string
}

// Properties are an object's or a tile's custom properties, typed as Tiled
// wrote them, read through accessors that take a default: a property not
// there gives the default and no error; one there whose value does not read
// as the type asked for gives the default and a *PropertyError that names
// its owner, the property and the value. A value of another declared type
// that reads as the one asked for is taken (an int property read as a
// float, a string "2.5" read as a float). The accessors allocate nothing
// unless they return an error.
type Properties struct {
	// Owner says whose they are, as errors name it: `object 7 "lift"
	// (platform)`, `tile 2 of tileset "tiles"`.
	Owner string
	// List is the properties in the file's order.
	List []Property
}

// A PropertyError is a property whose value does not read as the type
// asked for.
type PropertyError struct {
	Owner, Name, Type, Value string
	Want                     string // the type asked for
}

func (e *PropertyError) Error() string {
	typ := e.Type
	if typ == "" {
		typ = "string"
	}
	return fmt.Sprintf("level: %s: property %q (%s) = %q: not %s", e.Owner, e.Name, typ, e.Value, e.Want)
}

func properties(owner string, ps tiled.Properties) Properties {
	p := Properties{Owner: owner}
	for _, q := range ps {
		p.List = append(p.List, Property{Name: q.Name, Type: q.Type, Value: q.Value})
	}
	return p
}

// Get returns the property called name, and whether there is one.
func (p Properties) Get(name string) (Property, bool) {
	for _, q := range p.List {
		if q.Name == name {
			return q, true
		}
	}
	return Property{}, false
}

// Has reports whether there is a property called name.
func (p Properties) Has(name string) bool {
	_, ok := p.Get(name)
	return ok
}

func (p Properties) fail(q Property, want string) error {
	return &PropertyError{Owner: p.Owner, Name: q.Name, Type: q.Type, Value: q.Value, Want: want}
}

// String returns the property's value as it is written, or def.
func (p Properties) String(name, def string) string {
	if q, ok := p.Get(name); ok {
		return q.Value
	}
	return def
}

// Float returns the property as a float64 (Tiled's float or int), or def.
func (p Properties) Float(name string, def float64) (float64, error) {
	q, ok := p.Get(name)
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(q.Value), 64)
	if err != nil {
		return def, p.fail(q, "a float")
	}
	return v, nil
}

// Int returns the property as an int (Tiled's int), or def.
func (p Properties) Int(name string, def int) (int, error) {
	q, ok := p.Get(name)
	if !ok {
		return def, nil
	}
	v, err := strconv.Atoi(strings.TrimSpace(q.Value))
	if err != nil {
		return def, p.fail(q, "an int")
	}
	return v, nil
}

// Bool returns the property as a bool (Tiled's bool: "true" or "false"),
// or def.
func (p Properties) Bool(name string, def bool) (bool, error) {
	q, ok := p.Get(name)
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseBool(strings.TrimSpace(q.Value))
	if err != nil {
		return def, p.fail(q, "a bool")
	}
	return v, nil
}

// Color returns the property as a colour (Tiled's color: "#AARRGGBB", or
// "#RRGGBB" opaque), or def; Tiled writes an unset colour as "", which
// gives def.
func (p Properties) Color(name string, def color.NRGBA) (color.NRGBA, error) {
	q, ok := p.Get(name)
	if !ok || q.Value == "" {
		return def, nil
	}
	s := strings.TrimPrefix(strings.TrimSpace(q.Value), "#")
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil || (len(s) != 8 && len(s) != 6) {
		return def, p.fail(q, "a colour (#AARRGGBB)")
	}
	c := color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: uint8(v >> 24)}
	if len(s) == 6 {
		c.A = 255
	}
	return c, nil
}

// ObjectID returns the id of the object the property refers to (Tiled's
// object reference), or 0 when there is none (not set, or set to no
// object). [Level.Ref] finds the object itself.
func (p Properties) ObjectID(name string) (uint32, error) {
	q, ok := p.Get(name)
	if !ok || q.Value == "" {
		return 0, nil
	}
	v, err := strconv.ParseUint(strings.TrimSpace(q.Value), 10, 32)
	if err != nil {
		return 0, p.fail(q, "an object reference")
	}
	return uint32(v), nil
}

// Ref returns the object that o's property name refers to (Tiled's object
// reference), and true; false, with no error, when the property is not
// set. A reference that is not an id, or names no object of the map, is an
// error naming o and the property.
func (lv *Level) Ref(o Object, name string) (Object, bool, error) {
	id, err := o.ObjectID(name)
	if err != nil || id == 0 {
		return Object{}, false, err
	}
	if r, ok := lv.Object(id); ok {
		return r, true, nil
	}
	q, _ := o.Get(name)
	return Object{}, false, &PropertyError{Owner: o.Owner, Name: name, Type: q.Type, Value: q.Value, Want: "the id of an object of the map"}
}

// Object returns the object of the map with id, and true; false when there
// is none.
func (lv *Level) Object(id uint32) (Object, bool) {
	for _, o := range lv.Objects("") {
		if o.ID == id {
			return o, true
		}
	}
	return Object{}, false
}

// TileProperties returns the properties of the tile in cell (col, row) of
// the tile layer called layer (its tileset's tile's), and true; false when
// there is no such layer, no tile there, or the cell is outside the map.
func (lv *Level) TileProperties(layer string, col, row int) (Properties, bool) {
	m := lv.Map
	if col < 0 || row < 0 || col >= m.Width || row >= m.Height {
		return Properties{}, false
	}
	for _, l := range m.Layers {
		if l.Name != layer {
			continue
		}
		i := row*m.Width + col
		if i >= len(l.Tiles) || l.Tiles[i] == nil || l.Tiles[i].Nil {
			return Properties{}, false
		}
		t := l.Tiles[i]
		owner := fmt.Sprintf("tile %d of tileset %q", t.ID, t.Tileset.Name)
		if tt, err := t.Tileset.GetTilesetTile(t.ID); err == nil {
			return properties(owner, tt.Properties), true
		}
		return Properties{Owner: owner}, true
	}
	return Properties{}, false
}
