package session

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestNamesAreTheirRegexps holds IsSlot and isFileName to the regexps
// they replace: every string of up to 3 bytes of 10 classes, strings
// around the length limits, and random ones.
func TestNamesAreTheirRegexps(t *testing.T) {
	alphabet := []byte("aZ09-._/ \n")
	var all []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		all = append(all, prefix)
		if n > 0 {
			for _, c := range alphabet {
				grow(prefix+string(c), n-1)
			}
		}
	}
	grow("", 3)
	for _, n := range []int{62, 63, 64, 65, 66} {
		all = append(all, strings.Repeat("a", n), "A"+strings.Repeat("-", n-1), strings.Repeat("a", n-1)+"\n", "a."+strings.Repeat("0", n-2))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		b := make([]byte, 1+r.IntN(70))
		for i := range b {
			b[i] = "abz09-._A"[r.IntN(9)]
			if r.IntN(50) == 0 {
				b[i] = alphabet[r.IntN(len(alphabet))]
			}
		}
		all = append(all, string(b))
	}
	for range 2000 { // lesson ids, and what is nearly one
		b := make([]byte, 1+r.IntN(70))
		for i := range b {
			b[i] = "az09-"[r.IntN(5)]
		}
		all = append(all, string(b))
	}
	for _, c := range []struct {
		re    string
		match func(string) bool
	}{
		{`^[a-z0-9-]{1,64}$`, IsSlot},
		{`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`, isFileName},
	} {
		re := regexp.MustCompile(c.re)
		matched := 0
		for _, s := range all {
			want := re.MatchString(s)
			if got := c.match(s); got != want {
				t.Errorf("%s: %q matches %v, the regexp says %v", c.re, s, got, want)
			}
			if want {
				matched++
			}
		}
		if matched < 500 {
			t.Errorf("%s: only %d of %d strings match: the test tells too little", c.re, matched, len(all))
		}
	}
}
