// Package netplay is networked play for games on the engine: rollback
// sessions of 2 to 4 players (and spectators) over UDP. Every player's run
// simulates the whole game; each sends the others its input, and runs
// ahead with a prediction of theirs (the last input it knows of, held)
// until it arrives, rolling back and simulating again where a prediction
// proves wrong (engine.Session says how the loop does it). Since the
// simulation is deterministic, every run goes through the same states, and
// the players compare their state checksums as they go.
//
//	s, err := netplay.Host(ctx, netplay.Config{Addr: ":7777", Players: 2, Game: "demo", Version: "1"})
//	// or: s, err := netplay.Join(ctx, netplay.Config{Addr: "192.0.2.1:7777", Game: "demo", Version: "1"})
//	err = engine.Run(first, &engine.Options{Session: s, ...})
//	s.Close() // lets the others finish, then says goodbye
//
// A game on cli.App that lists netplaymode.Mode (package
// engine/cli/netplaymode) among its modes gets -host, -join, -spectate,
// -players, -delay and -netsim.
//
// # Topology and protocol
//
// The host is player 0 and the hub: the others join it, send it their
// input, and it sends each of them everyone else's (a spectator gets every
// player's). A joiner's input reaches another joiner through the host, one
// hop more. The host's Config (its seed, its settings: a game's flags) is
// every peer's: a joiner gets them in the welcome. Every message is one
// datagram (see "The packets" below): the handshake checks the
// game, its version and the seed; input is sent again in every packet
// until the receiver acknowledges it, so that a lost packet costs no
// rollback; sequence numbers drop stale and replayed packets; a peer not
// heard from for Config.Timeout has left.
//
// # The packets
//
// One UDP datagram per message, little-endian throughout,
// each at most MaxPacket bytes:
//
//	packet = "FSNP" version:u8 kind:u8 session:u32 seq:u32 payload crc:u32
//
// crc is the CRC-32C of everything before it; session is the number the
// host gave the session (0 in a hello); seq counts the sender's packets to
// that receiver, from 1, so that a stale, reordered or replayed packet is
// known and dropped (inputs are sent again in every packet until acked,
// so a dropped packet loses nothing). str is a uvarint length and bytes.
//
//	hello   nonce:u64 role:u8 game:str version:str determinism:u8 seedGiven:u8 seed:u64 settings:uvarint (key:str value:str)*
//	        fromStart:u8
//	welcome nonce:u64 player:u8 players:u8 delay:u8 maxPrediction:u8 seed:u64 settings:uvarint (key:str value:str)*
//	        underWay:u8
//	refuse  nonce:u64 reason:str
//	start
//	input   from:u8 tick:uvarint advantage:varint sentAt:u32 echo:u32 echoAge:u16
//	        acks:u8 (player:u8 tick:uvarint)*
//	        sumAck:uvarint sums:u8 first:uvarint sum:u64*
//	        blocks:u8 (player:u8 first:uvarint count:uvarint entry*)
//	bye     why:u8 last:uvarint message:uvarint bytes (up to maxMessage)
//	report  tick:uvarint pieces:u16 index:u16 ack:u16 size:uvarint data   (report.go)
//	state   tick:uvarint own:uvarint size:uvarint (index:u16 data | why:str)   (seat.go)
//	stateack tick:uvarint have:u16
//
// A hello asks to join (role 0: a player, 1: a spectator) a session of a
// game and version, with a seed and settings if the joiner was given them; the host
// answers with a welcome (the player's number, 255 for a spectator, the
// session's settings, and whether the session is under way) or a refusal
// that says why, and once every player has joined, start. A joiner under
// way (a spectator, or a player taking back a seat that waits for it)
// that asked for the host's state (fromStart 0) is sent it first, in
// state pieces it acknowledges, then start: see "Joining under way". An input message carries the sender's inputs that the
// receiver has not acknowledged, as a run of input-log entries (package
// engine/internal/inputlog's: the changes from the tick before), what the
// sender holds of each player's input (acks), its final state checksums,
// and what time synchronisation needs: its tick, how far it is ahead of
// the receiver as it sees it, and a timestamp to echo for the round trip.
// A bye says the sender left: finished (its run ended), quit, or failed.
//
// # Joining under way
//
// A spectator may join a session under way, and so may a player whose
// seat waits for it (Config.SeatWait: the others play on, its input empty,
// once it left). It begins from the host's state after a recent final
// tick, sent in pieces: the run passes Session.State to
// engine.Options.FromState. A state of a scene after the first (a game
// past its title screen) is read into that scene made afresh by the run's
// first scene, an engine.SceneMaker. Where the host has no state to give (a
// scene after its first in a game whose first scene is no SceneMaker, or a
// scene with no state as bytes), or the joiner asked for every tick
// (Config.FromFirstTick, for a recording of the whole session), it
// simulates the session from its first tick, with every input from the
// host's history, and catches up. seat.go says how.
//
// # What a game keeps to stay rollback-safe
//
// Everything its update systems read is in the world or declared to the
// stage (stage.Keep), so that a rollback restores it; decisions are made
// on Update events from the tick's input (Event.Players); effects a player
// perceives are played once (systems/sound does: not for a tick simulated
// again); a scene ends through stage.Stage.End, which waits for the tick to
// be final. -synctest N checks the first three alone, on one machine.
//
// # Bad input
//
// Datagrams are hostile: one that is too long, of another protocol, damaged,
// from an address that is no peer, of another session, stale, malformed or
// carrying input that no player can give (a non-finite or out-of-range
// axis) is dropped and counted (Stats.Dropped), and changes nothing. A peer
// that sends another input for a tick than it sent before is refused the
// same way: inputs are final once sent.
package netplay
