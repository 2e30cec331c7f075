package app

import (
	"strings"
	"testing"
)

func TestReadableAddress(t *testing.T) {
	for _, c := range []struct{ href, want, msg string }{
		{"http://h/play#z=abc", "http://h/play#z=abc", ""},
		{"http://h/play#%", "http://h/play", `invalid URL escape "%" in the part after #`},
		{"http://h/#%zz", "http://h/", `invalid URL escape "%zz" in the part after #`},
		{"http://h/play?work=x#a%2", "http://h/play?work=x", `invalid URL escape "%2"`},
		{"http://h/pl%zzay#z=1", "http://h/", `invalid URL escape "%zz"), so this page opened the site's start`},
	} {
		got, msg := readableAddress(c.href, "http://h")
		if got != c.want || !strings.Contains(msg, c.msg) || (c.msg == "") != (msg == "") {
			t.Errorf("readableAddress(%q) = %q, %q; want %q, …%s…", c.href, got, msg, c.want, c.msg)
		}
	}
}
