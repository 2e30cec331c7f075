package sim

import (
	"strconv"
	"unicode/utf8"
)

// The trace chain hashes each pass's record as JSON. encoding/json finds
// the record's fields by reflection on every pass, and allocates what it
// writes: in the browser that is a tenth of the chain's time and much of
// its garbage. appendPassRecord writes the same bytes as json.Marshal of
// the record (trace_json_test.go holds it to that) into a buffer the
// caller owns, so the digests stay what they were.

// appendPassRecord appends the JSON of r, byte for byte as json.Marshal
// writes it.
func appendPassRecord(b []byte, r *passRecord) []byte {
	b = append(b, `{"n":`...)
	b = strconv.AppendInt(b, int64(r.N), 10)
	b = append(b, `,"at":`...)
	b = appendJSONString(b, r.AtText)
	b = append(b, `,"controller":`...)
	b = appendJSONString(b, r.Controller)
	if r.Host != "" {
		b = append(b, `,"host":`...)
		b = appendJSONString(b, r.Host)
	}
	b = append(b, `,"key":`...)
	b = appendJSONString(b, r.Key)
	b = append(b, `,"trigger":`...)
	b = appendJSONString(b, r.Trigger)
	b = append(b, `,"desired":`...)
	b = appendJSONString(b, r.Desired)
	b = append(b, `,"observed":`...)
	b = appendJSONString(b, r.Observed)
	b = append(b, `,"difference":`...)
	b = appendJSONString(b, r.Difference)
	b = append(b, `,"actions":`...)
	if r.Actions == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, a := range r.Actions {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, a)
		}
		b = append(b, ']')
	}
	b = append(b, `,"outcome":`...)
	b = appendJSONString(b, r.Outcome)
	if len(r.Lines) > 0 {
		b = append(b, `,"lines":[`...)
		for i, l := range r.Lines {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(l), 10)
		}
		b = append(b, ']')
	}
	if r.Variant != "" {
		b = append(b, `,"variant":`...)
		b = appendJSONString(b, r.Variant)
	}
	return append(b, '}')
}

// appendJSONString appends s quoted as encoding/json quotes a string by
// default: control characters, the quote and the backslash escaped (\b,
// \f, \n, \r and \t by name, the others as \u00XX), <, > and & as \u003c,
// \u003e and \u0026 (HTML-safe), U+2028 and U+2029 as \u2028 and \u2029,
// and each byte that is not UTF-8 as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	from := 0 // s[from:i] is yet to be copied
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[from:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			from = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[from:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[from:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		from = i
	}
	b = append(b, s[from:]...)
	return append(b, '"')
}
