// Command plugin is the game server's Nakama runtime module: built with
// -buildmode=plugin into a .so that Nakama loads from its runtime path, it
// registers the games it serves as authoritative matches (package match).
// It must be built with the same Go toolchain and the same version of
// every package it shares with the nakama binary that loads it: both are
// built from this module (scripts/server.sh), and TestVersions checks it.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/heroiclabs/nakama-common/runtime"

	"github.com/fixedstep/fixedstep/cmd/bounce/rally"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/scenes/arena"
	"github.com/fixedstep/fixedstep/server/match"
)

// InitModule is what Nakama calls when it loads the plugin.
func InitModule(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule, initializer runtime.Initializer) error {
	var opts match.Options
	if env, _ := ctx.Value(runtime.RUNTIME_CTX_ENV).(map[string]string); env["fixedstep_records"] == "off" {
		opts.NoRecords = true
		logger.Info("fixedstep: matches store no record for a resume (fixedstep_records=off)")
	}
	if env, _ := ctx.Value(runtime.RUNTIME_CTX_ENV).(map[string]string); env["fixedstep_resume_within"] != "" {
		d, err := time.ParseDuration(env["fixedstep_resume_within"])
		if err != nil || d <= 2*match.PersistEvery {
			return fmt.Errorf("fixedstep: fixedstep_resume_within %q: want a duration over %v (2m, 30s): a running match's record is written every %v",
				env["fixedstep_resume_within"], 2*match.PersistEvery, match.PersistEvery)
		}
		opts.ResumeWithin = d
		logger.Info("fixedstep: a match's record may be resumed within %v of its last write (fixedstep_resume_within)", d)
	}
	if env, _ := ctx.Value(runtime.RUNTIME_CTX_ENV).(map[string]string); env["fixedstep_piece_bytes"] != "" {
		n, err := strconv.Atoi(env["fixedstep_piece_bytes"])
		if err != nil || n < match.MinPieceBytes || n > match.MaxHistoryBytes {
			return fmt.Errorf("fixedstep: fixedstep_piece_bytes %q: want %d to %d bytes", env["fixedstep_piece_bytes"], match.MinPieceBytes, match.MaxHistoryBytes)
		}
		opts.PieceBytes = n
		logger.Info("fixedstep: a running match stores its history in pieces of %d bytes or more (fixedstep_piece_bytes)", n)
	}
	for _, g := range []*lockstep.Game{&arena.Spec, &rally.Spec} {
		if err := match.RegisterWith(initializer, g, opts); err != nil {
			return err
		}
		logger.Info("fixedstep: serving %s version %s as authoritative matches at %d Hz", g.Name, g.Version, g.Hz)
	}
	return nil
}

func main() {}
