package store

import (
	"fmt"
	"strconv"
	"testing"
)

// TestNewEventStrings checks the strings cut from one against the ones
// they replace, each made on its own.
func TestNewEventStrings(t *testing.T) {
	for _, c := range []struct {
		name       string
		v, uid, rv int64
		seq        uint64
	}{
		{"web-7d4b9c-x2k4q", 0x18a3f2c4b5d6e7f8, 1, 1, 0x18a3f2c4b5d6e7f8},
		{"a", 1, 0xabcdef, 123456, 2},
		{"db-0", 1754000000000000123, 0x1234567890ab, 99, 1<<63 + 5},
		{string(make([]byte, 300)), 42, 7, 8, 9}, // longer than the stack buffer
	} {
		got := newEventStrings(c.name, c.v, c.uid, c.rv, c.seq)
		want := eventStrings{
			name: c.name + "." + strconv.FormatInt(c.v, 16),
			uid:  fmt.Sprintf("%08x-0000-4000-8000-%012x", c.uid, c.uid),
			rv:   strconv.FormatInt(c.rv, 10),
			key:  seqKey(c.seq),
		}
		if got != want {
			t.Errorf("newEventStrings(%.20q, %d, %d, %d, %d) = %q, want %q", c.name, c.v, c.uid, c.rv, c.seq, got, want)
		}
		if u := uidOf(c.uid); u != want.uid {
			t.Errorf("uidOf(%d) = %q, want %q", c.uid, u, want.uid)
		}
	}
}
