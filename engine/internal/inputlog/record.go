package inputlog

import (
	"encoding/binary"
	"hash/crc32"
	"slices"
)

// The records, appended to a chunk's payload. A recording appends each as
// it happens (Log's recording methods); Encode appends them all from the
// log's data; Parse reads them back.

func appendRunRecord(b []byte, run Run) []byte {
	b = append(b, recRun)
	b = binary.LittleEndian.AppendUint64(b, run.Seed)
	keys := make([]string, 0, len(run.Settings))
	for k := range run.Settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		b = appendStr(b, k)
		b = appendStr(b, run.Settings[k])
	}
	if run.Players > 1 {
		b = binary.AppendUvarint(append(b, recPlayers), uint64(run.Players))
	}
	if run.Determinism > 0 {
		b = binary.AppendUvarint(append(b, recArith), uint64(run.Determinism))
	}
	return b
}

func appendSceneRecord(b []byte, s *Scene) []byte {
	b = append(b, recScene)
	b = appendStr(b, s.Name)
	b = binary.AppendUvarint(b, uint64(s.Every))
	b = binary.AppendUvarint(b, uint64(len(s.Groups)))
	for _, g := range s.Groups {
		b = appendStr(b, g.Name)
		b = appendF64(b, g.Hz)
	}
	return b
}

func appendInputRecord(b []byte, stream int, entry []byte) []byte {
	b = append(b, recInput)
	b = binary.AppendUvarint(b, uint64(stream))
	return append(b, entry...)
}

func appendCheckRecord(b []byte, step int64, sum uint64) []byte {
	b = append(b, recCheck)
	b = binary.AppendUvarint(b, uint64(step))
	return binary.LittleEndian.AppendUint64(b, sum)
}

func appendTicks(b []byte, ticks []int64) []byte {
	b = binary.AppendUvarint(b, uint64(len(ticks)))
	for _, t := range ticks {
		b = binary.AppendUvarint(b, uint64(t))
	}
	return b
}

func appendProgressRecord(b []byte, ticks []int64) []byte {
	return appendTicks(append(b, recProgress), ticks)
}

func appendEndRecord(b []byte, s *Scene) []byte {
	b = appendTicks(append(b, recEnd, byte(s.End)), s.Ticks)
	msg := s.Err
	if len(msg) > MaxSetting {
		msg = msg[:MaxSetting]
	}
	return appendStr(b, msg)
}

func appendNamesRecord(b []byte, group int, from int64, names []string) []byte {
	b = append(b, recNames)
	b = binary.AppendUvarint(b, uint64(group))
	b = binary.AppendUvarint(b, uint64(from))
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		b = appendStr(b, n)
	}
	return b
}

func appendSystemsRecord(b []byte, group int, step int64, sums []uint32) []byte {
	b = append(b, recSystems)
	b = binary.AppendUvarint(b, uint64(group))
	b = binary.AppendUvarint(b, uint64(step))
	b = binary.AppendUvarint(b, uint64(len(sums)))
	for _, v := range sums {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

// appendPartsRecord appends tick k of p: its new names, its parts.
func appendPartsRecord(b []byte, step int64, newNames []string, p *PartDetail, k int) []byte {
	b = append(b, recParts)
	b = binary.AppendUvarint(b, uint64(step))
	b = binary.AppendUvarint(b, uint64(len(newNames)))
	for _, n := range newNames {
		b = appendStr(b, n)
	}
	b = binary.AppendUvarint(b, uint64(p.start[k+1]-p.start[k]))
	for j := p.start[k]; j < p.start[k+1]; j++ {
		b = binary.AppendUvarint(b, uint64(p.idx[j]))
		b = binary.LittleEndian.AppendUint32(b, p.sums[j])
	}
	return b
}

// appendChunk appends payload framed as a chunk.
func appendChunk(b, payload []byte) []byte {
	start := len(b)
	b = binary.AppendUvarint(b, uint64(len(payload)))
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}
