package inputlog

import "fmt"

// Encode returns the whole log in its file format, as one chunk: a log
// recorded to a File holds the same records in many. A setting longer
// than MaxSetting is an error.
func Encode(run Run, l *Log) ([]byte, error) {
	if err := CheckSettings(run.Settings); err != nil {
		return nil, err
	}
	p := appendScenes(appendRunRecord(nil, run), l)
	if l.Complete {
		p = append(p, recRunEnd)
	}
	return appendChunk(Header(run.Version), p), nil
}

// CheckSettings refuses a setting longer than MaxSetting.
func CheckSettings(settings map[string]string) error {
	for k, v := range settings {
		if len(k) > MaxSetting || len(v) > MaxSetting {
			return fmt.Errorf("engine: input log: setting %.40q of %d bytes, more than %d", k, len(k)+len(v), MaxSetting)
		}
	}
	return nil
}

// appendScenes appends the records of the log's timelines to p.
func appendScenes(p []byte, l *Log) []byte {
	for i := range l.Scenes {
		s := &l.Scenes[i]
		p = appendSceneRecord(p, s)
		for g, data := range s.Input {
			for off := 0; off < len(data); {
				start := off
				_, n := uvarint(data[off:])
				off, _ = ReadEntry(data, off+n, nil, nil)
				p = appendInputRecord(p, g, data[start:off])
			}
		}
		var prev int64
		for _, c := range s.Checks {
			p = appendCheckRecord(p, c.Tick-prev, c.Sum)
			prev = c.Tick
		}
		for g := range s.Sys {
			d := &s.Sys[g]
			for _, ns := range d.names {
				p = appendNamesRecord(p, g, ns.from, ns.names)
			}
			prev = 0
			for k, t := range d.ticks {
				p = appendSystemsRecord(p, g, t-prev, d.sums[d.start[k]:d.start[k+1]])
				prev = t
			}
		}
		prev = 0
		named := 0
		for k, t := range s.Parts.ticks {
			maxIdx := named
			for j := s.Parts.start[k]; j < s.Parts.start[k+1]; j++ {
				maxIdx = max(maxIdx, s.Parts.idx[j]+1)
			}
			p = appendPartsRecord(p, t-prev, s.Parts.names[named:maxIdx], &s.Parts, k)
			named, prev = maxIdx, t
		}
		if s.End != EndNone {
			p = appendEndRecord(p, s)
		} else {
			p = appendProgressRecord(p, s.Ticks)
		}
	}
	return p
}
