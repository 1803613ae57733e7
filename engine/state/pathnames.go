package state

import (
	"reflect"
	"strings"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// This file names types as recordings made before format 5
// (engine/internal/inputlog) did, for their replays alone
// (Options.PathNames): a component type by its donburi name and its Go
// package path, a type in an interface by its package path and name. It
// is kept as those recordings need it and never extended: new recordings
// name types by the names they declare (names.go).

// pathTypeName names a type by its package path and name, or for an
// unnamed type its Go syntax. A type of the project's copies of donburi
// and cp is named by its upstream package path, as before the copies; a
// type of the project that moved since is named where it was
// (formerPaths). A type of a command's package (package main) is named as
// in the command, "main." and its name, under go test too (see inMain).
func pathTypeName(t reflect.Type) string {
	if t.Name() != "" && t.PkgPath() != "" {
		if path, ok := inMain(t); ok {
			return "main." + strings.ReplaceAll(t.Name(), path+".", "main.")
		}
		name := upstreamPath(t.PkgPath()) + "." + t.Name()
		if former, ok := formerPaths[name]; ok {
			return former
		}
		return name
	}
	return t.String()
}

// pathComponentName returns the name of component type ct as those
// recordings knew it: as donburi gives it (its type's name unless set),
// with a command's package path in it written main, as in the command
// (see inMain), or the name it had before it was given one of its own
// (formerNames).
func pathComponentName(ct donburi.IComponentType) string {
	name := ct.Name()
	if path, ok := inMain(ct.Typ()); ok {
		name = strings.ReplaceAll(name, path+".", "main.")
	}
	if former, ok := formerNames[pathTypeName(ct.Typ())+" "+name]; ok {
		return former
	}
	return name
}

// inMain reports whether named type t is of a command's package compiled
// under its import path, and returns that path. A command's package is
// "main" in the command, but go test compiles it under its import path,
// which also names the package's types in the type arguments of a generic
// type's name (t.Name). The state names them as the command does, so that
// a game's own tests replay what the game recorded. t.String says the
// package's name, main, either way, and only a command's package is named
// main.
func inMain(t reflect.Type) (path string, ok bool) {
	path = t.PkgPath()
	return path, path != "" && path != "main" && strings.HasPrefix(t.String(), "main.")
}

// formerPaths are the project's types that moved to another package since
// they were recorded, by the path and name they have now: the path and
// name those recordings hold.
var formerPaths = map[string]string{
	"github.com/fixedstep/fixedstep/components/gfx.Sprite":     "github.com/fixedstep/fixedstep/components.Sprite",
	"github.com/fixedstep/fixedstep/scenes/arena.Tally":        "github.com/fixedstep/fixedstep/scenes.Tally",
	"github.com/fixedstep/fixedstep/scenes/arena.goal":         "github.com/fixedstep/fixedstep/scenes.goal",
	"github.com/fixedstep/fixedstep/systems/physics.Collision": "github.com/fixedstep/fixedstep/systems.Collision",
}

// formerNames are the project's component types that were given names of
// their own with format 5 (two of one name are an error now), by their
// type's path name and their name: the name those recordings hold. (A
// game's own tag of one of these names, recorded before format 5, replays
// as an unnamed tag: give it another name.)
var formerNames = map[string]string{
	"github.com/fixedstep/fixedstep/systems.Collision CollisionBegin":    "Collision", // systems/physics
	"github.com/fixedstep/fixedstep/systems.Collision CollisionSeparate": "Collision",
	"github.com/yohamta/donburi.Tag DropThrough":                         "Tag", // systems/physics
	"github.com/yohamta/donburi.Tag Hero":                                "Tag", // cmd/platformer
	"github.com/yohamta/donburi.Tag Enemy":                               "Tag",
	"github.com/yohamta/donburi.Tag Star":                                "Tag",
	"github.com/yohamta/donburi.Tag Exit":                                "Tag",
}

// upstreamPaths are the project's copies of libraries and their upstream
// package paths.
var upstreamPaths = [...][2]string{
	{"github.com/fixedstep/fixedstep/third_party/donburi", "github.com/yohamta/donburi"},
	{"github.com/fixedstep/fixedstep/third_party/cp", "github.com/jakecoffman/cp/v2"},
}

func upstreamPath(pkg string) string {
	for _, p := range upstreamPaths {
		if rest, ok := strings.CutPrefix(pkg, p[0]); ok && (rest == "" || rest[0] == '/') {
			return p[1] + rest
		}
	}
	return pkg
}
