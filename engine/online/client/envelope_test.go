package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/heroiclabs/nakama-common/api"
	"github.com/heroiclabs/nakama-common/rtapi"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// matchDataCases are MatchData messages as the server may send them: of
// several sizes, with and without a presence, with fields at zero.
func matchDataCases() []*rtapi.MatchData {
	data := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*7 + n)
		}
		return b
	}
	who := func() *rtapi.UserPresence {
		return &rtapi.UserPresence{UserId: "6a0f3c1e-2b8d-4f7a-9c11-0d5e8b7a6f42", SessionId: "1c4e7a90-3f2b-4d8e-8a6b-5c9d0e1f2a3b",
			Username: "Ünïcødé player", Persistence: true}
	}
	withStatus := who()
	withStatus.Status = wrapperspb.String("in a match")
	emptyStatus := who()
	emptyStatus.Status = wrapperspb.String("")
	var cases []*rtapi.MatchData
	for _, n := range []int{0, 1, 20, 70, 127, 128, 300, 20000} {
		cases = append(cases, &rtapi.MatchData{MatchId: matchID, OpCode: 2, Data: data(n), Reliable: true})
	}
	return append(cases,
		&rtapi.MatchData{MatchId: matchID, Presence: who(), OpCode: 3, Data: data(20), Reliable: true},
		&rtapi.MatchData{MatchId: matchID, Presence: withStatus, OpCode: 1, Data: data(70)},
		&rtapi.MatchData{MatchId: matchID, Presence: emptyStatus, OpCode: 1},
		&rtapi.MatchData{MatchId: matchID, Presence: &rtapi.UserPresence{}, OpCode: 4, Data: data(5)},
		&rtapi.MatchData{OpCode: -7, Data: data(3)},
		&rtapi.MatchData{MatchId: matchID, OpCode: 1 << 62},
		&rtapi.MatchData{},
	)
}

func envelope(t testing.TB, msg proto.Message) []byte {
	t.Helper()
	var env *rtapi.Envelope
	switch msg := msg.(type) {
	case *rtapi.MatchData:
		env = &rtapi.Envelope{Message: &rtapi.Envelope_MatchData{MatchData: msg}}
	case *rtapi.Envelope:
		env = msg
	}
	b, err := proto.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameAsProto checks what decodeMatchData made of b against what
// proto.Unmarshal makes of it: when the hand decoder takes b, proto
// decodes it to an envelope of match data with the same fields; when it
// refuses b as malformed, so does proto.
func sameAsProto(t *testing.T, b []byte) error {
	t.Helper()
	var d matchData
	err := decodeMatchData(b, &d)
	env := &rtapi.Envelope{}
	perr := proto.Unmarshal(b, env)
	switch {
	case err == errNotMatchData:
		if perr == nil && env.Cid == "" && env.GetMatchData() != nil && len(env.ProtoReflect().GetUnknown()) == 0 && onlyMatchData(b) {
			t.Errorf("%x: match data alone (%v), which the hand decoder left to proto", b, env)
		}
	case err != nil:
		if perr == nil {
			t.Errorf("%x: the hand decoder refused it (%v), proto decoded it: %v", b, err, env)
		}
	case perr != nil:
		t.Errorf("%x: the hand decoder took it, proto refused it: %v", b, perr)
	case env.Cid != "" || env.GetMatchData() == nil:
		t.Errorf("%x: the hand decoder took it as match data, proto decoded %v", b, env)
	default:
		if diff := sameFields(&d, env.GetMatchData()); diff != "" {
			t.Errorf("%x: %s", b, diff)
		}
	}
	return err
}

// onlyMatchData reports whether the envelope b holds no field but cid and
// match data. (Another of the envelope's messages before the match data
// leaves match data alone too, as proto keeps the last of a oneof's
// fields, but the hand decoder leaves those bytes to proto, which checks
// that message.)
func onlyMatchData(b []byte) bool {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return true
		}
		if num != envelopeCid && num != envelopeMatchData {
			return false
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return true
		}
		b = b[n+m:]
	}
	return true
}

// sameFields returns how d differs from want ("" when it does not).
func sameFields(d *matchData, want *rtapi.MatchData) string {
	switch {
	case string(d.matchID) != want.MatchId:
		return fmt.Sprintf("match id %q, want %q", d.matchID, want.MatchId)
	case d.op != want.OpCode:
		return fmt.Sprintf("op code %d, want %d", d.op, want.OpCode)
	case !bytes.Equal(d.data, want.Data):
		return fmt.Sprintf("data %x, want %x", d.data, want.Data)
	case d.reliable != want.Reliable:
		return fmt.Sprintf("reliable %v, want %v", d.reliable, want.Reliable)
	case d.presence.set != (want.Presence != nil):
		return fmt.Sprintf("presence %v, want %v", d.presence.set, want.Presence)
	}
	p, w := &d.presence, want.Presence
	if w == nil {
		return ""
	}
	switch {
	case string(p.userID) != w.UserId || string(p.sessionID) != w.SessionId || string(p.username) != w.Username || p.persistence != w.Persistence:
		return fmt.Sprintf("presence %q %q %q %v, want %v", p.userID, p.sessionID, p.username, p.persistence, w)
	case p.statusSet != (w.Status != nil) || string(p.status) != w.Status.GetValue():
		return fmt.Sprintf("presence's status %v %q, want %v", p.statusSet, p.status, w.Status)
	}
	return ""
}

// The hand decoder gets the fields proto.Unmarshal gets from the match
// data envelopes proto.Marshal makes: of several sizes, with and without
// a presence, with unknown fields (skipped), with known fields of another
// wire type (skipped, as proto does), and given twice (the last value
// kept, messages merged).
func TestDecodeMatchData(t *testing.T) {
	cases := matchDataCases()
	for i, md := range cases {
		b := envelope(t, md)
		if err := sameAsProto(t, b); err != nil {
			t.Errorf("case %d: %v", i, err)
		}

		// Unknown fields in the match data and in its presence.
		md = proto.Clone(md).(*rtapi.MatchData)
		var unknown []byte
		unknown = protowire.AppendTag(unknown, 9, protowire.VarintType)
		unknown = protowire.AppendVarint(unknown, 300)
		unknown = protowire.AppendTag(unknown, 10, protowire.BytesType)
		unknown = protowire.AppendBytes(unknown, []byte("later"))
		unknown = protowire.AppendTag(unknown, 11, protowire.Fixed32Type)
		unknown = protowire.AppendFixed32(unknown, 7)
		unknown = protowire.AppendTag(unknown, 12, protowire.Fixed64Type)
		unknown = protowire.AppendFixed64(unknown, 7)
		unknown = protowire.AppendTag(unknown, 13, protowire.StartGroupType)
		unknown = protowire.AppendTag(unknown, 1, protowire.VarintType)
		unknown = protowire.AppendVarint(unknown, 1)
		unknown = protowire.AppendTag(unknown, 13, protowire.EndGroupType)
		// known numbers, other wire types: proto keeps them as unknown
		unknown = protowire.AppendTag(unknown, matchDataOpCode, protowire.BytesType)
		unknown = protowire.AppendBytes(unknown, []byte{1})
		unknown = protowire.AppendTag(unknown, matchDataData, protowire.VarintType)
		unknown = protowire.AppendVarint(unknown, 5)
		// a known field again, after the others: its last value is kept
		// (a bool of 2 is true)
		unknown = protowire.AppendTag(unknown, matchDataReliable, protowire.VarintType)
		unknown = protowire.AppendVarint(unknown, 2)
		md.ProtoReflect().SetUnknown(unknown)
		if md.Presence != nil {
			md.Presence.ProtoReflect().SetUnknown(unknown)
		}
		b = envelope(t, md)
		if err := sameAsProto(t, b); err != nil {
			t.Errorf("case %d with unknown fields: %v", i, err)
		}

		// Two envelopes back to back: one message, merged.
		b = append(envelope(t, cases[(i+1)%len(cases)]), b...)
		if err := sameAsProto(t, b); err != nil {
			t.Errorf("case %d after another: %v", i, err)
		}
	}
}

// Decoding into the same storage again leaves nothing of the message
// before.
func TestDecodeReuses(t *testing.T) {
	var d matchData
	for _, md := range append(matchDataCases(), matchDataCases()...) {
		if err := decodeMatchData(envelope(t, md), &d); err != nil {
			t.Fatal(err)
		}
		if diff := sameFields(&d, md); diff != "" {
			t.Errorf("%v, decoded after another: %s", md, diff)
		}
	}
}

// Envelopes other than match data alone are proto.Unmarshal's: a reply
// (a cid), an error, an RPC, match data with a cid or beside an unknown
// field of the envelope, an empty envelope.
func TestDecodeLeavesOtherEnvelopes(t *testing.T) {
	md := matchDataCases()[2]
	withUnknown := &rtapi.Envelope{Message: &rtapi.Envelope_MatchData{MatchData: md}}
	withUnknown.ProtoReflect().SetUnknown(protowire.AppendVarint(protowire.AppendTag(nil, 99, protowire.VarintType), 1))
	for _, env := range []*rtapi.Envelope{
		{Cid: "12", Message: &rtapi.Envelope_Match{Match: &rtapi.Match{MatchId: matchID}}},
		{Cid: "3", Message: &rtapi.Envelope_Error{Error: &rtapi.Error{Code: 3, Message: "no"}}},
		{Message: &rtapi.Envelope_Error{Error: &rtapi.Error{Code: 3, Message: "no"}}},
		{Cid: "4", Message: &rtapi.Envelope_Rpc{Rpc: &api.Rpc{Id: "arena_find", Payload: "{}"}}},
		{Cid: "5", Message: &rtapi.Envelope_MatchData{MatchData: md}},
		withUnknown,
		{},
	} {
		b := envelope(t, env)
		var d matchData
		if err := decodeMatchData(b, &d); err != errNotMatchData {
			t.Errorf("%v: %v, want errNotMatchData", env, err)
		}
		sameAsProto(t, b)
	}
}

// Malformed envelopes are an error, never a panic, and the hand decoder
// refuses what proto.Unmarshal refuses: every envelope cut short, bad
// tags and wire types, strings that are not UTF-8.
func TestDecodeMalformed(t *testing.T) {
	for _, md := range matchDataCases() {
		b := envelope(t, md)
		for n := range len(b) {
			sameAsProto(t, b[:n])
		}
	}
	field := func(b []byte, num protowire.Number, v []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
	}
	badUTF8 := []byte{'m', 0xff, 0xfe}
	presence := field(nil, presenceUsername, badUTF8)
	status := field(nil, presenceStatus, field(nil, stringValue, badUTF8))
	for name, b := range map[string][]byte{
		"a match id not UTF-8":    field(nil, envelopeMatchData, field(nil, matchDataMatchID, badUTF8)),
		"a username not UTF-8":    field(nil, envelopeMatchData, field(nil, matchDataPresence, presence)),
		"a status not UTF-8":      field(nil, envelopeMatchData, field(nil, matchDataPresence, status)),
		"field 0":                 field(nil, envelopeMatchData, []byte{0x02, 0x00}),
		"field past the largest":  field(nil, envelopeMatchData, protowire.AppendVarint(protowire.AppendVarint(nil, uint64(protowire.MaxValidNumber+1)<<3), 0)),
		"wire type 7":             field(nil, envelopeMatchData, []byte{0x0f}),
		"an end group unopened":   field(nil, envelopeMatchData, []byte{0x0c}),
		"a group not closed":      field(nil, envelopeMatchData, []byte{0x0b, 0x08, 0x01}),
		"a varint of 11 bytes":    field(nil, envelopeMatchData, []byte{0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}),
		"a length past the end":   {0x72, 0x05, 0x0a},
		"a presence cut short":    field(nil, envelopeMatchData, []byte{0x12, 0x04, 0x0a, 0x05}),
		"a status cut short":      field(nil, envelopeMatchData, field(nil, matchDataPresence, []byte{0x2a, 0x02, 0x0a, 0x03})),
		"the envelope's tag only": {0x72},
	} {
		var d matchData
		err := decodeMatchData(b, &d)
		if err == nil || err == errNotMatchData {
			t.Errorf("%s (%x): %v, want an error", name, b, err)
		}
		sameAsProto(t, b)
	}
}

// FuzzDecodeMatchData: no input crashes the hand decoder, and what it
// decodes is what proto.Unmarshal decodes. It starts from the envelopes of
// what a match sends, as Nakama marshals them (proto.Marshal of an
// rtapi.Envelope): its start, its ticks (AppendTick's), the history a
// player who comes back is sent, its end; from the socket's other
// messages a client gets: a join's reply, a presence event, an error; and
// from matchDataCases.
func FuzzDecodeMatchData(f *testing.F) {
	for _, md := range matchDataCases() {
		if len(md.Data) < 1000 {
			f.Add(envelope(f, md))
		}
	}
	msgs, envs := ticks(f, 6)
	for _, env := range envs {
		f.Add(env)
	}
	var history []byte
	for _, m := range msgs {
		history = wire.AppendHistory(history, m)
	}
	start, _ := json.Marshal(wire.Start{Game: "arena", Version: "1", Determinism: engine.Determinism, Match: matchID, Players: 2, Seat: 1, Seed: 7,
		Settings: map[string]string{"churn": "1"}, Ticks: 3600, Hz: 60, MaxLead: 8, Resumed: 6})
	end, _ := json.Marshal(wire.End{Reason: "the match ran its 3600 ticks", Tick: 3600, Stats: json.RawMessage(`{"ticks":3600}`)})
	for op, data := range map[int64][]byte{wire.OpStart: start, wire.OpHistory: history, wire.OpEnd: end} {
		f.Add(envelope(f, &rtapi.MatchData{MatchId: matchID, OpCode: op, Data: data, Reliable: true}))
	}
	who := &rtapi.UserPresence{UserId: "6a0f3c1e-2b8d-4f7a-9c11-0d5e8b7a6f42", SessionId: "1c4e7a90-3f2b-4d8e-8a6b-5c9d0e1f2a3b", Username: "player"}
	f.Add(envelope(f, &rtapi.Envelope{Cid: "2", Message: &rtapi.Envelope_Match{Match: &rtapi.Match{MatchId: matchID,
		Authoritative: true, Size: 2, Self: who, Presences: []*rtapi.UserPresence{who}}}}))
	f.Add(envelope(f, &rtapi.Envelope{Message: &rtapi.Envelope_MatchPresenceEvent{MatchPresenceEvent: &rtapi.MatchPresenceEvent{
		MatchId: matchID, Joins: []*rtapi.UserPresence{who}}}}))
	f.Add(envelope(f, &rtapi.Envelope{Cid: "3", Message: &rtapi.Envelope_Error{Error: &rtapi.Error{Code: 3,
		Message: "Match not found", Context: map[string]string{"match": matchID}}}}))
	f.Add(envelope(f, &rtapi.Envelope{Cid: "1", Message: &rtapi.Envelope_Match{Match: &rtapi.Match{MatchId: matchID}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		sameAsProto(t, b)
	})
}

// The hand encoder's envelope is proto.Marshal's, byte for byte.
func TestAppendMatchDataSend(t *testing.T) {
	for _, id := range []string{matchID, "", "ü"} {
		for _, op := range []int64{0, 1, 7, 127, 128, -1, 1 << 40} {
			for _, n := range []int{0, 1, 19, 120, 127, 128, 20000} {
				for _, reliable := range []bool{true, false} {
					data := bytes.Repeat([]byte{byte(n)}, n)
					want, err := proto.Marshal(&rtapi.Envelope{Message: &rtapi.Envelope_MatchDataSend{MatchDataSend: &rtapi.MatchDataSend{
						MatchId: id, OpCode: op, Data: data, Reliable: reliable}}})
					if err != nil {
						t.Fatal(err)
					}
					if got := appendMatchDataSend([]byte("x"), id, op, data, reliable); !bytes.Equal(got[1:], want) || got[0] != 'x' {
						t.Errorf("%q %d, %d bytes, %v: %x, proto.Marshal %x", id, op, n, reliable, got[1:], want)
					}
				}
			}
		}
	}
}

// Decoding a tick's envelope and encoding an input's allocate nothing.
func TestEnvelopesAllocateNothing(t *testing.T) {
	b := envelope(t, matchDataCases()[9]) // with a presence
	var d matchData
	if n := testing.AllocsPerRun(100, func() {
		if err := decodeMatchData(b, &d); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("decoding: %v allocations, want 0", n)
	}
	out := make([]byte, 0, 64)
	data := make([]byte, 20)
	if n := testing.AllocsPerRun(100, func() { out = appendMatchDataSend(out[:0], matchID, 2, data, true) }); n != 0 {
		t.Errorf("encoding: %v allocations, want 0", n)
	}
}

// BenchmarkDecode: a tick's envelope decoded by proto.Unmarshal (what the
// reader did for every message) and by hand.
func BenchmarkDecode(b *testing.B) {
	_, envs := ticks(b, 64)
	b.Run("proto", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			env := &rtapi.Envelope{}
			if err := proto.Unmarshal(envs[i%64], env); err != nil || env.GetMatchData() == nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		var d matchData
		for i := 0; b.Loop(); i++ {
			if err := decodeMatchData(envs[i%64], &d); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkEncode: an input's envelope made and encoded by proto.Marshal
// (what Match.Send did) and by hand.
func BenchmarkEncode(b *testing.B) {
	data := make([]byte, 12)
	b.Run("proto", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			env := &rtapi.Envelope{Message: &rtapi.Envelope_MatchDataSend{MatchDataSend: &rtapi.MatchDataSend{
				MatchId: matchID, OpCode: 2, Data: data, Reliable: true}}}
			if _, err := proto.Marshal(env); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		var out []byte
		for b.Loop() {
			out = appendMatchDataSend(out[:0], matchID, 2, data, true)
		}
	})
}
