package assets

import (
	"embed"
	"io/fs"
)

// Names of the sprites in the default atlas (images/atlas.json).
const (
	SpritePlayer    = "player"     // the player's ship, cyan, nose towards +x
	SpriteAgent     = "agent"      // an arena creature, red-orange, eyes towards +x
	SpriteAgentHurt = "agent_hurt" // the same creature, pale
	SpriteBox       = "prop_box"   // a wooden crate
	SpriteBall      = "prop_ball"  // a grey ball
	SpriteGoal      = "goal"       // a yellow star
	SpriteParticle  = "particle"   // a soft white dot fading to transparent at its edge
	SpriteWall      = "wall"       // an opaque grey tile that fills its whole frame
	SpritePixel     = "pixel"      // 1x1 opaque white: scale and tint it to draw rectangles
)

//go:embed images/atlas.png images/atlas.json fonts/Go-Regular.ttf
var embedded embed.FS

// Embedded returns the files compiled into the binary: the paths named by
// [DefaultManifest]. The result is read-only and safe for concurrent use.
func Embedded() fs.FS { return embedded }

// Manifest names the files of one bundle, as slash-separated paths inside
// the [io/fs.FS] given to [Decode] or [Load]. Every field is required.
type Manifest struct {
	// Atlas is the sprite atlas, a PNG image (at most MaxAtlasSize pixels on
	// each side).
	Atlas string
	// Index is the atlas's index, a JSON object that maps each sprite's name
	// to its rectangle in atlas pixels: {"player": {"x": 0, "y": 0, "w": 32,
	// "h": 32}, ...}. Unknown fields are an error.
	Index string
	// Font is a TrueType or OpenType font file.
	Font string
}

// DefaultManifest returns the manifest of the embedded files (see
// [Embedded]): images/atlas.png, images/atlas.json and fonts/Go-Regular.ttf.
func DefaultManifest() Manifest {
	return Manifest{
		Atlas: "images/atlas.png",
		Index: "images/atlas.json",
		Font:  "fonts/Go-Regular.ttf",
	}
}
