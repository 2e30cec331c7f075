package validation

import (
	"regexp"
	"testing"
)

// The formats as regular expressions: what the matchers must agree with.
var (
	dns1123LabelRE     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRE = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	qualifiedNameRE    = regexp.MustCompile("^" + qualifiedNameFmt + "$")
	labelValueRE       = regexp.MustCompile("^" + labelValueFmt + "$")
)

var nameSamples = []string{
	"", "a", "A", "0", "-", ".", "_", "a-", "-a", "a.", ".a", "a..b", "a.b", "a-b", "a--b", "a_b", "A_b.C-d",
	"web-7d4b9c-x2x9z", "example.com", "kubernetes.io", "my.name", "123-abc", "UPPER", "a.-b", "a-.b", "é", "a\nb",
	"app.kubernetes.io", "a.b.c.d", "node-999", "x_", "_x", "a b", "a/b", "0.0", "..", "a.B",
}

func checkNameMatchers(t *testing.T, s string) {
	t.Helper()
	for _, m := range []struct {
		name string
		fn   func(string) bool
		re   *regexp.Regexp
	}{
		{"matchDNS1123Label", matchDNS1123Label, dns1123LabelRE},
		{"matchDNS1123Subdomain", matchDNS1123Subdomain, dns1123SubdomainRE},
		{"matchQualifiedName", matchQualifiedName, qualifiedNameRE},
		{"matchLabelValue", matchLabelValue, labelValueRE},
	} {
		if got, want := m.fn(s), m.re.MatchString(s); got != want {
			t.Errorf("%s(%q) = %v, the regular expression says %v", m.name, s, got, want)
		}
	}
}

func TestNameMatchersAgreeWithTheFormats(t *testing.T) {
	for _, s := range nameSamples {
		checkNameMatchers(t, s)
	}
	// Every string of up to 4 bytes over the characters that matter.
	const chars = "a0Z-._/ é"
	var walk func(prefix string, n int)
	walk = func(prefix string, n int) {
		checkNameMatchers(t, prefix)
		if n == 0 {
			return
		}
		for i := 0; i < len(chars); i++ {
			walk(prefix+chars[i:i+1], n-1)
		}
	}
	walk("", 4)
}

func FuzzNameMatchers(f *testing.F) {
	for _, s := range nameSamples {
		f.Add(s)
	}
	f.Fuzz(checkNameMatchers)
}
