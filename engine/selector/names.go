package selector

import (
	"fmt"
	"strings"
)

// The name formats of Kubernetes, with the messages the API server prints
// when a value does not match. This file is their one home: validation
// checks object names, label keys and values with these functions, and
// label selectors check keys and values with them too. Each gives the
// messages of k8s.io/apimachinery/pkg/util/validation, word for word
// (scenarios/k8sapi/names_test.go holds them to it).
const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	qualifiedNameFmt    = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	qualifiedNameMsg    = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt       = "(" + qualifiedNameFmt + ")?"
	labelValueMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

	// DNS1123LabelMaxLength is the longest DNS label (container names, namespaces).
	DNS1123LabelMaxLength = 63
	// DNS1123SubdomainMaxLength is the longest DNS subdomain (most object names).
	DNS1123SubdomainMaxLength = 253
	// LabelValueMaxLength is the longest label value.
	LabelValueMaxLength = 63
	// QualifiedNameMaxLength is the longest name part of a label or annotation key.
	QualifiedNameMaxLength = 63
)

// RegexError appends Kubernetes' "(e.g. ..., regex used for validation is
// '...')" tail to msg. The double space between examples is Kubernetes' own.
func RegexError(msg, format string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + format + "')"
	}
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + format + "')"
}

// MaxLenError says a value is longer than n characters.
func MaxLenError(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

// IsDNS1123Label returns why value is not a DNS label (nil if it is).
func IsDNS1123Label(value string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, MaxLenError(DNS1123LabelMaxLength))
	}
	switch {
	case MatchDNS1123Label(value):
	case MatchDNS1123Subdomain(value):
		// A subdomain but no label: its length is checked above, so what
		// is wrong is its dots, and Kubernetes says only that.
		errs = append(errs, "must not contain dots")
	default:
		errs = append(errs, RegexError(dns1123LabelMsg, dns1123LabelFmt, "my-name", "123-abc"))
	}
	return errs
}

// IsDNS1123Subdomain returns why value is not a DNS subdomain (nil if it is).
func IsDNS1123Subdomain(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, MaxLenError(DNS1123SubdomainMaxLength))
	}
	if !MatchDNS1123Subdomain(value) {
		errs = append(errs, RegexError(dns1123SubdomainMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

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
		return []string{"a qualified name " + RegexError(qualifiedNameMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	case prefix == "":
		errs = append(errs, "prefix part must be non-empty")
	default:
		for _, m := range IsDNS1123Subdomain(prefix) {
			errs = append(errs, "prefix part "+m)
		}
	}
	switch {
	case name == "":
		errs = append(errs, "name part must be non-empty")
	case len(name) > QualifiedNameMaxLength:
		errs = append(errs, "name part "+MaxLenError(QualifiedNameMaxLength))
	}
	if !MatchQualifiedName(name) {
		errs = append(errs, "name part "+RegexError(qualifiedNameMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsLabelValue returns why v is not a valid label value (empty, or at most
// 63 characters that start and end alphanumeric), or nil.
func IsLabelValue(v string) []string {
	var errs []string
	if len(v) > LabelValueMaxLength {
		errs = append(errs, MaxLenError(LabelValueMaxLength))
	}
	if !MatchLabelValue(v) {
		errs = append(errs, RegexError(labelValueMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}
