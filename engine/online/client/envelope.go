package client

import (
	"errors"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// The match messages of the socket, the server's 60 a second and the
// client's input, are encoded and decoded here by hand, into storage the
// client reuses, rather than through proto.Marshal and proto.Unmarshal,
// which allocate a message of rtapi's and its fields each time. The field
// numbers are rtapi's (nakama-common v1.47.0, rtapi/realtime.proto).
const (
	envelopeCid           = 1  // Envelope.cid
	envelopeMatchData     = 14 // Envelope.match_data: a MatchData
	envelopeMatchDataSend = 15 // Envelope.match_data_send: a MatchDataSend

	matchDataMatchID  = 1 // MatchData.match_id
	matchDataPresence = 2 // MatchData.presence: a UserPresence
	matchDataOpCode   = 3 // MatchData.op_code
	matchDataData     = 4 // MatchData.data
	matchDataReliable = 5 // MatchData.reliable

	sendMatchID  = 1 // MatchDataSend.match_id
	sendOpCode   = 2 // MatchDataSend.op_code
	sendData     = 3 // MatchDataSend.data
	sendReliable = 5 // MatchDataSend.reliable

	presenceUserID      = 1 // UserPresence.user_id
	presenceSessionID   = 2 // UserPresence.session_id
	presenceUsername    = 3 // UserPresence.username
	presencePersistence = 4 // UserPresence.persistence
	presenceStatus      = 5 // UserPresence.status: a google.protobuf.StringValue
	stringValue         = 1 // StringValue.value
)

// matchData is a MatchData envelope's fields as decodeMatchData leaves
// them: its byte slices are the decoded message's own bytes, valid while
// that buffer is.
type matchData struct {
	matchID  []byte
	presence presence
	op       int64
	data     []byte
	reliable bool
}

// presence is a UserPresence's fields (MatchData.presence: who sent the
// message; absent from what the match itself broadcasts).
type presence struct {
	set                         bool // the message had one
	userID, sessionID, username []byte
	persistence                 bool
	status                      []byte
	statusSet                   bool // status (a StringValue) was there, maybe empty
}

var (
	// errNotMatchData: the envelope is not match data alone (a reply with
	// a cid, an error, another message): proto.Unmarshal's to decode.
	errNotMatchData = errors.New("not a match data envelope")
	errMalformed    = errors.New("malformed protobuf")
	errUTF8         = errors.New("a string field is not valid UTF-8")
)

// decodeMatchData decodes b, an rtapi.Envelope, into d when it holds match
// data and nothing else; d's slices are b's. It returns errNotMatchData
// for any other envelope (decoding nothing: proto.Unmarshal decodes it as
// before), and an error for bytes proto.Unmarshal refuses too (cut short,
// a bad tag or wire type, a string that is not UTF-8). It decodes as
// proto.Unmarshal does: fields it does not know are skipped, as are known
// fields of another wire type; a field given twice keeps its last value,
// and a message field given twice merges. It allocates nothing.
func decodeMatchData(b []byte, d *matchData) error {
	// The envelope's fields: match data alone, or it is not ours to decode.
	// Checked before d is touched, so that a fallback starts clean.
	found := false
	for rest := b; len(rest) > 0; {
		f, after, err := consume(rest)
		if err != nil {
			return err
		}
		rest = after
		switch {
		case f.is(envelopeMatchData, protowire.BytesType):
			found = true
		case f.is(envelopeCid, protowire.BytesType) && len(f.v) == 0:
			// an empty cid is no cid
		case f.num == envelopeMatchData || f.num == envelopeCid:
			return errNotMatchData // another wire type: proto keeps it as an unknown field
		default:
			return errNotMatchData
		}
	}
	if !found {
		return errNotMatchData
	}
	*d = matchData{}
	for rest := b; len(rest) > 0; {
		f, after, _ := consume(rest) // well formed: read above
		rest = after
		if f.is(envelopeMatchData, protowire.BytesType) {
			if err := d.decode(f.v); err != nil {
				return err
			}
		}
	}
	return nil
}

// decode decodes a MatchData's fields into d, merging with what d holds.
func (d *matchData) decode(b []byte) error {
	for len(b) > 0 {
		f, rest, err := consume(b)
		if err != nil {
			return err
		}
		b = rest
		switch {
		case f.is(matchDataMatchID, protowire.BytesType):
			if !utf8.Valid(f.v) {
				return errUTF8
			}
			d.matchID = f.v
		case f.is(matchDataPresence, protowire.BytesType):
			d.presence.set = true
			if err := d.presence.decode(f.v); err != nil {
				return err
			}
		case f.is(matchDataOpCode, protowire.VarintType):
			d.op = int64(f.x)
		case f.is(matchDataData, protowire.BytesType):
			d.data = f.v
		case f.is(matchDataReliable, protowire.VarintType):
			d.reliable = f.x != 0
		}
	}
	return nil
}

// decode decodes a UserPresence's fields into p, merging with what p holds.
func (p *presence) decode(b []byte) error {
	for len(b) > 0 {
		f, rest, err := consume(b)
		if err != nil {
			return err
		}
		b = rest
		var s *[]byte
		switch {
		case f.is(presenceUserID, protowire.BytesType):
			s = &p.userID
		case f.is(presenceSessionID, protowire.BytesType):
			s = &p.sessionID
		case f.is(presenceUsername, protowire.BytesType):
			s = &p.username
		case f.is(presencePersistence, protowire.VarintType):
			p.persistence = f.x != 0
		case f.is(presenceStatus, protowire.BytesType):
			p.statusSet = true
			for w := f.v; len(w) > 0; { // a StringValue
				sv, after, err := consume(w)
				if err != nil {
					return err
				}
				w = after
				if sv.is(stringValue, protowire.BytesType) {
					if !utf8.Valid(sv.v) {
						return errUTF8
					}
					p.status = sv.v
				}
			}
		}
		if s != nil {
			if !utf8.Valid(f.v) {
				return errUTF8
			}
			*s = f.v
		}
	}
	return nil
}

// A field is one field of a protobuf message: its number, its wire type
// and its value (the bytes of a length-delimited one, the number of a
// varint).
type field struct {
	num protowire.Number
	typ protowire.Type
	v   []byte
	x   uint64
}

// is reports whether f is field num of wire type typ.
func (f *field) is(num protowire.Number, typ protowire.Type) bool {
	return f.num == num && f.typ == typ
}

// consume reads the field at the start of b, and returns it and the bytes
// after it: errMalformed when it is cut short or its tag is bad (a field
// number past the largest valid one too, as proto.Unmarshal refuses).
func consume(b []byte) (field, []byte, error) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 || num > protowire.MaxValidNumber {
		return field{}, nil, errMalformed
	}
	f, m := field{num: num, typ: typ}, 0
	switch typ {
	case protowire.BytesType:
		f.v, m = protowire.ConsumeBytes(b[n:])
	case protowire.VarintType:
		f.x, m = protowire.ConsumeVarint(b[n:])
	default:
		m = protowire.ConsumeFieldValue(num, typ, b[n:])
	}
	if m < 0 {
		return field{}, nil, errMalformed
	}
	return f, b[n+m:], nil
}

// appendMatchDataSend appends the rtapi.Envelope of a MatchDataSend of
// match id, op code op and data to b, with the bytes proto.Marshal gives
// it (fields in order, those of zero value left out). It allocates
// nothing when b has room.
func appendMatchDataSend(b []byte, id string, op int64, data []byte, reliable bool) []byte {
	size := 0
	if id != "" {
		size += protowire.SizeTag(sendMatchID) + protowire.SizeBytes(len(id))
	}
	if op != 0 {
		size += protowire.SizeTag(sendOpCode) + protowire.SizeVarint(uint64(op))
	}
	if len(data) > 0 {
		size += protowire.SizeTag(sendData) + protowire.SizeBytes(len(data))
	}
	if reliable {
		size += protowire.SizeTag(sendReliable) + 1
	}
	b = protowire.AppendTag(b, envelopeMatchDataSend, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(size))
	if id != "" {
		b = protowire.AppendTag(b, sendMatchID, protowire.BytesType)
		b = protowire.AppendString(b, id)
	}
	if op != 0 {
		b = protowire.AppendTag(b, sendOpCode, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(op))
	}
	if len(data) > 0 {
		b = protowire.AppendTag(b, sendData, protowire.BytesType)
		b = protowire.AppendBytes(b, data)
	}
	if reliable {
		b = protowire.AppendTag(b, sendReliable, protowire.VarintType)
		b = protowire.AppendVarint(b, 1)
	}
	return b
}
