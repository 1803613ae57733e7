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
		num, typ, n := consumeTag(rest)
		if n < 0 {
			return errMalformed
		}
		v, _, m := consumeField(num, typ, rest[n:])
		if m < 0 {
			return errMalformed
		}
		rest = rest[n+m:]
		switch {
		case num == envelopeMatchData && typ == protowire.BytesType:
			found = true
		case num == envelopeCid && typ == protowire.BytesType && len(v) == 0:
			// an empty cid is no cid
		case num == envelopeMatchData || num == envelopeCid:
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
		num, typ, n := consumeTag(rest)
		v, _, m := consumeField(num, typ, rest[n:])
		rest = rest[n+m:]
		if num == envelopeMatchData {
			if err := d.decode(v); err != nil {
				return err
			}
		}
	}
	return nil
}

// decode decodes a MatchData's fields into d, merging with what d holds.
func (d *matchData) decode(b []byte) error {
	for len(b) > 0 {
		num, typ, n := consumeTag(b)
		if n < 0 {
			return errMalformed
		}
		v, x, m := consumeField(num, typ, b[n:])
		if m < 0 {
			return errMalformed
		}
		b = b[n+m:]
		switch {
		case num == matchDataMatchID && typ == protowire.BytesType:
			if !utf8.Valid(v) {
				return errUTF8
			}
			d.matchID = v
		case num == matchDataPresence && typ == protowire.BytesType:
			d.presence.set = true
			if err := d.presence.decode(v); err != nil {
				return err
			}
		case num == matchDataOpCode && typ == protowire.VarintType:
			d.op = int64(x)
		case num == matchDataData && typ == protowire.BytesType:
			d.data = v
		case num == matchDataReliable && typ == protowire.VarintType:
			d.reliable = x != 0
		}
	}
	return nil
}

// decode decodes a UserPresence's fields into p, merging with what p holds.
func (p *presence) decode(b []byte) error {
	for len(b) > 0 {
		num, typ, n := consumeTag(b)
		if n < 0 {
			return errMalformed
		}
		v, x, m := consumeField(num, typ, b[n:])
		if m < 0 {
			return errMalformed
		}
		b = b[n+m:]
		var s *[]byte
		switch {
		case num == presenceUserID && typ == protowire.BytesType:
			s = &p.userID
		case num == presenceSessionID && typ == protowire.BytesType:
			s = &p.sessionID
		case num == presenceUsername && typ == protowire.BytesType:
			s = &p.username
		case num == presencePersistence && typ == protowire.VarintType:
			p.persistence = x != 0
		case num == presenceStatus && typ == protowire.BytesType:
			p.statusSet = true
			for w := v; len(w) > 0; { // a StringValue
				num, typ, n := consumeTag(w)
				if n < 0 {
					return errMalformed
				}
				sv, _, m := consumeField(num, typ, w[n:])
				if m < 0 {
					return errMalformed
				}
				w = w[n+m:]
				if num == stringValue && typ == protowire.BytesType {
					if !utf8.Valid(sv) {
						return errUTF8
					}
					p.status = sv
				}
			}
		}
		if s != nil {
			if !utf8.Valid(v) {
				return errUTF8
			}
			*s = v
		}
	}
	return nil
}

// consumeTag is protowire.ConsumeTag refusing, as proto.Unmarshal does,
// field numbers past the largest valid one.
func consumeTag(b []byte) (protowire.Number, protowire.Type, int) {
	num, typ, n := protowire.ConsumeTag(b)
	if n >= 0 && num > protowire.MaxValidNumber {
		return 0, 0, -1
	}
	return num, typ, n
}

// consumeField returns the value of field num of wire type typ at the
// start of b: its bytes when it is length-delimited, its number when it is
// a varint, and its length (negative when malformed).
func consumeField(num protowire.Number, typ protowire.Type, b []byte) (v []byte, x uint64, n int) {
	switch typ {
	case protowire.BytesType:
		v, n = protowire.ConsumeBytes(b)
	case protowire.VarintType:
		x, n = protowire.ConsumeVarint(b)
	default:
		n = protowire.ConsumeFieldValue(num, typ, b)
	}
	return v, x, n
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
