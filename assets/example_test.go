package assets_test

import (
	"errors"
	"fmt"
	"io/fs"
	"testing/fstest"

	"github.com/fixedstep/fixedstep/assets"
)

// Decode needs no GPU: tools and tests can read and check a bundle's files
// without a window.
func ExampleDecode() {
	d, err := assets.Decode(assets.Embedded(), assets.DefaultManifest())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Atlas().Bounds().Size(), d.Names())
	r, _ := d.Rect(assets.SpriteAgent)
	fmt.Println(assets.SpriteAgent, r)
	// Output:
	// (256,256) [agent agent_hurt goal particle pixel player prop_ball prop_box wall]
	// agent (32,0)-(64,32)
}

// A missing or corrupt file is an error that names it.
func ExampleDecode_errors() {
	m := assets.DefaultManifest()
	_, err := assets.Decode(fstest.MapFS{}, m)
	fmt.Println(err)
	fmt.Println(errors.Is(err, fs.ErrNotExist))

	fsys := fstest.MapFS{m.Atlas: {Data: []byte("not a png")}}
	_, err = assets.Decode(fsys, m)
	fmt.Println(err)
	// Output:
	// assets: images/atlas.png: file does not exist
	// true
	// assets: images/atlas.png: not a valid PNG: png: invalid format: not a PNG file
}
