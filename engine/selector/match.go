package selector

// Hand-written matchers for the name formats of names.go (the *Fmt
// constants, which the messages still quote): every label key and value of
// every object written is checked with them, so they run in every pass that
// writes, and a regexp for each would be compiled at start. Validation uses
// them too; its match_test.go holds each to its regular expression.

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isLowerAlnum(c) || c >= 'A' && c <= 'Z' }

// MatchDNS1123Label matches dns1123LabelFmt: [a-z0-9]([-a-z0-9]*[a-z0-9])?
func MatchDNS1123Label(s string) bool {
	if s == "" || !isLowerAlnum(s[0]) || !isLowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; c != '-' && !isLowerAlnum(c) {
			return false
		}
	}
	return true
}

// MatchDNS1123Subdomain matches dns1123SubdomainFmt: labels joined by '.'.
func MatchDNS1123Subdomain(s string) bool {
	for {
		i := 0
		for i < len(s) && s[i] != '.' {
			i++
		}
		if !MatchDNS1123Label(s[:i]) {
			return false
		}
		if i == len(s) {
			return true
		}
		s = s[i+1:]
	}
}

// MatchQualifiedName matches qualifiedNameFmt:
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
func MatchQualifiedName(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; c != '-' && c != '_' && c != '.' && !isAlnum(c) {
			return false
		}
	}
	return true
}

// MatchLabelValue matches labelValueFmt: empty, or a qualified name.
func MatchLabelValue(s string) bool { return s == "" || MatchQualifiedName(s) }
