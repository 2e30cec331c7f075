package validation

// Hand-written matchers for the name formats of names.go (the *Fmt
// constants, which the messages still quote): every object written is
// checked with them, so they run in every pass that writes, and a
// regexp for each would be compiled at start. match_test.go holds each to
// its regular expression.

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isLowerAlnum(c) || c >= 'A' && c <= 'Z' }

// matchDNS1123Label matches dns1123LabelFmt: [a-z0-9]([-a-z0-9]*[a-z0-9])?
func matchDNS1123Label(s string) bool {
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

// matchDNS1123Subdomain matches dns1123SubdomainFmt: labels joined by '.'.
func matchDNS1123Subdomain(s string) bool {
	for {
		i := 0
		for i < len(s) && s[i] != '.' {
			i++
		}
		if !matchDNS1123Label(s[:i]) {
			return false
		}
		if i == len(s) {
			return true
		}
		s = s[i+1:]
	}
}

// matchDNS1035Label matches dns1035LabelFmt: [a-z]([-a-z0-9]*[a-z0-9])?
func matchDNS1035Label(s string) bool {
	return s != "" && s[0] >= 'a' && s[0] <= 'z' && matchDNS1123Label(s)
}

// matchQualifiedName matches qualifiedNameFmt:
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
func matchQualifiedName(s string) bool {
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

// matchLabelValue matches labelValueFmt: empty, or a qualified name.
func matchLabelValue(s string) bool { return s == "" || matchQualifiedName(s) }

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
