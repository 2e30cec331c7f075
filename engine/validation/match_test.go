package validation

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// TestMatchersAreTheirRegexps holds each hand-written matcher of match.go
// to the regular expression of its format: every string of up to four
// bytes over an alphabet of every class the formats tell apart, then
// longer random strings of the same bytes, and strings of digits and %.
func TestMatchersAreTheirRegexps(t *testing.T) {
	cases := []struct {
		name  string
		re    string
		match func(string) bool
	}{
		// The formats as k8s.io/apimachinery/pkg/util/validation writes
		// them (the DNS-1123 and label ones live in selector/names.go).
		{"DNS-1123 label", "[a-z0-9]([-a-z0-9]*[a-z0-9])?", matchDNS1123Label},
		{"DNS-1123 subdomain", "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*", matchDNS1123Subdomain},
		{"DNS-1035 label", dns1035LabelFmt, matchDNS1035Label},
		{"qualified name", "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]", matchQualifiedName},
		{"label value", "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?", matchLabelValue},
		{"percent", "[0-9]+%", matchPercent},
	}
	alphabet := []byte("aZ09-_.%/ \n\xc3")
	var all []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		all = append(all, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(prefix+string(c), n-1)
		}
	}
	grow("", 4)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, 5+r.IntN(40))
		for i := range b {
			// Mostly the characters names are made of, so that many match.
			if r.IntN(8) == 0 {
				b[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				b[i] = "abz09-."[r.IntN(7)]
			}
		}
		all = append(all, string(b))
	}
	for range 2000 { // percents, and what is nearly one
		b := make([]byte, 1+r.IntN(6))
		for i := range b {
			b[i] = "0129%a"[r.IntN(6)]
		}
		all = append(all, string(b))
	}
	for _, c := range cases {
		re := regexp.MustCompile("^" + c.re + "$")
		matched := 0
		for _, s := range all {
			want := re.MatchString(s)
			if got := c.match(s); got != want {
				t.Errorf("%s: %q matches %v, its regexp says %v", c.name, s, got, want)
			}
			if want {
				matched++
			}
		}
		if matched < 100 {
			t.Errorf("%s: only %d of %d strings match: the test tells too little", c.name, matched, len(all))
		}
	}
}
