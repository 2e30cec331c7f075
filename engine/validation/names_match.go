package validation

// The name formats' matchers, written out: the same strings as the
// formats' regular expressions (names_match_test.go holds them to it), in
// one pass without backtracking. Every object a pass creates or updates
// has its name, labels and keys checked: through package regexp that was
// a fiftieth of the engine's time in the browser.

// isAlnumLower reports whether c is in [a-z0-9].
func isAlnumLower(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// isAlnum reports whether c is in [A-Za-z0-9].
func isAlnum(c byte) bool { return isAlnumLower(c) || 'A' <= c && c <= 'Z' }

// matchDNS1123Label matches dns1123LabelFmt: [a-z0-9]([-a-z0-9]*[a-z0-9])?
func matchDNS1123Label(s string) bool {
	if s == "" || !isAlnumLower(s[0]) || !isAlnumLower(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if !isAlnumLower(s[i]) && s[i] != '-' {
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

// matchQualifiedName matches qualifiedNameFmt:
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
func matchQualifiedName(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// matchLabelValue matches labelValueFmt: empty, or a qualified name.
func matchLabelValue(s string) bool { return s == "" || matchQualifiedName(s) }
