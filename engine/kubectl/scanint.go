package kubectl

import (
	"strconv"
	"strings"
	"unicode"
)

// Integers read off a command line or an object as fmt's scanner reads
// them, without it: fmt.Sscan and Sscanf are what would make app.wasm
// carry the scanner. scanint_test.go holds each to the fmt call it
// replaces.

// leadingInt reads s as fmt.Sscanf(s, "%d", &n) does: an optional sign,
// then decimal digits; what follows them is left unread.
func leadingInt(s string) (int, bool) {
	end := 0
	if end < len(s) && (s[end] == '+' || s[end] == '-') {
		end++
	}
	digits := end
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == digits {
		return 0, false
	}
	n, err := strconv.Atoi(s[:end])
	return n, err == nil
}

// scannedInt reads s as fmt.Sscan(s, &n) does into an int, 0 when it
// cannot: space first, an optional sign, then an integer in Go's syntax
// (0b, 0o, 0x or a leading 0 for octal, underscores between digits);
// what follows it is left unread.
func scannedInt(s string) int {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	end := 0
	if end < len(s) && (s[end] == '+' || s[end] == '-') {
		end++
	}
	digits, prefixed := "0123456789_", false
	if end < len(s) && s[end] == '0' {
		end++
		prefixed = true
		digits = "01234567_"
		if end < len(s) {
			switch s[end] {
			case 'b', 'B':
				end, digits = end+1, "01_"
			case 'o', 'O':
				end++
			case 'x', 'X':
				end, digits = end+1, "0123456789aAbBcCdDeEfF_"
			}
		}
	}
	start := end
	for end < len(s) && strings.IndexByte(digits, s[end]) >= 0 {
		end++
	}
	if end == start && !prefixed {
		return 0
	}
	n, err := strconv.ParseInt(s[:end], 0, strconv.IntSize)
	if err != nil {
		return 0
	}
	return int(n)
}
