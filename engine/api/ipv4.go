package api

import (
	"strconv"
	"strings"
)

// ParseIPv4 reads dotted quads, each a decimal 0-255 written without a
// sign or leading zeros.
func ParseIPv4(s string) (uint32, bool) {
	var out uint32
	for i := 0; i < 4; i++ {
		p, rest, found := strings.Cut(s, ".")
		if found == (i == 3) || len(p) == 0 || len(p) > 3 || (len(p) > 1 && p[0] == '0') {
			return 0, false
		}
		n := uint32(0)
		for j := 0; j < len(p); j++ {
			if p[j] < '0' || p[j] > '9' {
				return 0, false
			}
			n = n*10 + uint32(p[j]-'0')
		}
		if n > 255 {
			return 0, false
		}
		out, s = out<<8|n, rest
	}
	return out, true
}

// FormatIPv4 writes an address in dotted quads.
func FormatIPv4(a uint32) string {
	b := make([]byte, 0, 15)
	for i, shift := range [4]uint{24, 16, 8, 0} {
		if i > 0 {
			b = append(b, '.')
		}
		b = strconv.AppendUint(b, uint64(a>>shift&0xff), 10)
	}
	return string(b)
}
