package render

import (
	"image/color"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"
)

// Fill sets every pixel of dst (its bounds, for a sub-image) to c, as
// dst.Fill(c) does, in a pass that samples no texture and blends nothing:
// a shader that writes the colour it is given, drawn with
// ebiten.BlendCopy. A background, a floor, any fill of the whole screen
// each frame should use it.
//
// ebiten's Image.Fill draws a quad of its white image, read through the
// sprite shader and blended over what is there. A GPU does either in no
// time; a browser that draws WebGL in software (SwiftShader: no GPU, or
// one it will not use) pays for every pixel's texture read and blend:
// cmd/web's BenchmarkArenaFrameRate draws more frames a second with the
// Arena's floor filled by Fill (BENCHMARKS.md, "A floor drawn without a
// texture"). Natively Fill costs a draw call more than Image.Fill (it
// batches with nothing but another Fill); the pixels are the same.
//
// It allocates nothing after its first call, which compiles the shader.
func Fill(dst *ebiten.Image, c color.Color) {
	fillShaderOnce.Do(func() {
		s, err := ebiten.NewShader(fillShaderSrc)
		if err != nil {
			panic("render: the fill shader does not compile: " + err.Error())
		}
		fillShader = s
	})
	b := dst.Bounds()
	op := ebiten.DrawRectShaderOptions{Blend: ebiten.BlendCopy}
	op.GeoM.Translate(float64(b.Min.X), float64(b.Min.Y))
	op.ColorScale.ScaleWithColor(c)
	dst.DrawRectShader(b.Dx(), b.Dy(), fillShader, &op)
}

// fillShaderSrc writes each pixel the colour of its vertices: the colour
// scale of the DrawRectShader call, premultiplied, as Image.Fill's.
var fillShaderSrc = []byte(`//kage:unit pixels

package main

func Fragment(dst vec4, src vec2, color vec4) vec4 {
	return color
}
`)

var (
	fillShaderOnce sync.Once
	fillShader     *ebiten.Shader
)
