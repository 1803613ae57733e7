package engine_test

import (
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
)

// A run from a state refuses what needs the ticks before it (a
// recording, a replay, a load, -synctest, keyframes), and a state file
// that is not one, before anything runs.
func TestFromStateRefused(t *testing.T) {
	state := []byte("not a state file")
	scene := engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) {
		t.Error("the scene ran")
		return nil, nil
	})
	for _, c := range []struct {
		opts engine.Options
		want string
	}{
		{engine.Options{FromState: state, Record: &engine.InputLog{}}, "Record"},
		{engine.Options{FromState: state, Replay: &engine.InputLog{}}, "Replay"},
		{engine.Options{FromState: state, SyncTest: 4}, "SyncTest"},
		{engine.Options{FromState: state, Keyframes: 60}, "Keyframes"},
		{engine.Options{FromState: state}, "FromState"},
	} {
		c.opts.Headless = &engine.Headless{FPS: 60}
		if err := engine.Run(scene, &c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.want, err)
		}
	}
}
