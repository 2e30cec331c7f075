package validation

// Hand-written matchers for the name formats of names.go (the *Fmt
// constants, which the messages still quote): every object written is
// checked with them, so they run in every pass that writes, and a
// regexp for each would be compiled at start. The label and DNS-1123 ones
// are the selector package's (label selectors check the same formats).
// match_test.go holds each to its regular expression.

import "reconcile/engine/selector"

func matchDNS1123Label(s string) bool     { return selector.MatchDNS1123Label(s) }
func matchDNS1123Subdomain(s string) bool { return selector.MatchDNS1123Subdomain(s) }
func matchQualifiedName(s string) bool    { return selector.MatchQualifiedName(s) }
func matchLabelValue(s string) bool       { return selector.MatchLabelValue(s) }

// matchDNS1035Label matches dns1035LabelFmt: [a-z]([-a-z0-9]*[a-z0-9])?
func matchDNS1035Label(s string) bool {
	return s != "" && s[0] >= 'a' && s[0] <= 'z' && matchDNS1123Label(s)
}

// matchPercent matches [0-9]+% (a percent of an IntOrString).
func matchPercent(s string) bool {
	if len(s) < 2 || s[len(s)-1] != '%' {
		return false
	}
	for i := 0; i < len(s)-1; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
