package stage

import (
	"sort"
	"strconv"

	"github.com/fixedstep/fixedstep/systems/anim"
	"github.com/fixedstep/fixedstep/systems/stage/core"
)

// NameSheet names an animation sheet of the scene among the stage's
// assets (core.Name), under prefix: the sheet's image as prefix, its
// frames as prefix/frame/0, 1..., its clips as prefix/clip/ and their tags.
// The state as bytes (Stage.AppendState) then writes the components that
// point into it (an anim.Animation's clip, a gfx.Sprite's frame), and a
// stage that reads the bytes finds them again in the sheet it loaded and
// named the same way. Call it as the scene loads the sheet.
func (s *Stage) NameSheet(prefix string, sh *anim.Sheet) {
	core.Name(s.Stage, prefix, sh.Image)
	if all, ok := sh.Clips[""]; ok {
		for i, f := range all.Frames {
			core.Name(s.Stage, prefix+"/frame/"+strconv.Itoa(i), f)
		}
	}
	tags := make([]string, 0, len(sh.Clips))
	for tag := range sh.Clips {
		tags = append(tags, tag)
	}
	sort.Strings(tags) // names given in one order, whatever the map's
	for _, tag := range tags {
		core.Name(s.Stage, prefix+"/clip/"+tag, sh.Clips[tag])
	}
}
