package selector

import (
	"fmt"
	"strings"
)

// The formats of label keys and values, with the messages the API server
// prints when one does not match. (The double space between examples is
// Kubernetes' own.)
const (
	qualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	qualifiedNameMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt    = "(" + qualifiedNameFmt + ")?"
	labelValueMsg    = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	dnsLabelFmt      = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dnsSubdomainFmt  = dnsLabelFmt + "(\\." + dnsLabelFmt + ")*"
	dnsSubdomainMsg  = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
)

func regexError(msg, format string, examples ...string) string {
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + format + "')"
}

func maxLen(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

// IsQualifiedName returns why key is not a valid label or annotation key
// (an optional DNS subdomain prefix and '/', then a name of at most 63
// characters), or nil.
func IsQualifiedName(key string) []string {
	var errs []string
	// Split at "/" by hand (strings.Split allocates a slice; every label
	// key and toleration key of every object written comes here).
	prefix, name, hasPrefix := strings.Cut(key, "/")
	if !hasPrefix {
		name = prefix
	}
	switch {
	case !hasPrefix:
	case strings.Contains(name, "/"):
		return []string{"a qualified name " + regexError(qualifiedNameMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	case prefix == "":
		errs = append(errs, "prefix part must be non-empty")
	default:
		if len(prefix) > 253 {
			errs = append(errs, "prefix part "+maxLen(253))
		}
		if !MatchDNS1123Subdomain(prefix) {
			errs = append(errs, "prefix part "+regexError(dnsSubdomainMsg, dnsSubdomainFmt, "example.com"))
		}
	}
	switch {
	case name == "":
		errs = append(errs, "name part must be non-empty")
	case len(name) > 63:
		errs = append(errs, "name part "+maxLen(63))
	}
	if !MatchQualifiedName(name) {
		errs = append(errs, "name part "+regexError(qualifiedNameMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsLabelValue returns why v is not a valid label value (empty, or at most
// 63 characters that start and end alphanumeric), or nil.
func IsLabelValue(v string) []string {
	var errs []string
	if len(v) > 63 {
		errs = append(errs, maxLen(63))
	}
	if !MatchLabelValue(v) {
		errs = append(errs, regexError(labelValueMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}
