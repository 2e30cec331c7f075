package validation

import (
	"fmt"
	"reconcile/engine/selector"
	"sort"
	"strings"
)

// The name formats of Kubernetes, with the messages it prints when a value
// does not match.
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
	labelValueMaxLength       = 63
	qualifiedNameMaxLength    = 63
	annotationsMaxBytes       = 256 * 1024
)

// regexError appends Kubernetes' "(e.g. ..., regex used for validation is
// '...')" tail to msg. The double space between examples is Kubernetes' own.
func regexError(msg, format string, examples ...string) string {
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

func maxLenError(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

// IsDNS1123Label returns why value is not a DNS label (nil if it is).
func IsDNS1123Label(value string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, maxLenError(DNS1123LabelMaxLength))
	}
	if !matchDNS1123Label(value) {
		errs = append(errs, regexError(dns1123LabelMsg, dns1123LabelFmt, "my-name", "123-abc"))
	}
	return errs
}

// IsDNS1123Subdomain returns why value is not a DNS subdomain (nil if it is).
func IsDNS1123Subdomain(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, maxLenError(DNS1123SubdomainMaxLength))
	}
	if !matchDNS1123Subdomain(value) {
		errs = append(errs, regexError(dns1123SubdomainMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// nameIsDNSSubdomain validates an object name; a generateName prefix may
// end in '-'.
func nameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix && strings.HasSuffix(name, "-") {
		name = name[:len(name)-1] + "a"
	}
	return IsDNS1123Subdomain(name)
}

// isQualifiedName validates a label or annotation key: an optional DNS
// subdomain prefix and '/', then a name. Label selectors check keys the
// same way, with the same messages (names_split_test.go holds it to the
// definition written with this package's own formats).
func isQualifiedName(value string) []string { return selector.IsQualifiedName(value) }

// isLabelValue validates a label value, as label selectors do
// (selector.IsLabelValue, the same messages).
func isLabelValue(value string) []string { return selector.IsLabelValue(value) }

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// validateLabels checks label keys and values (in key order, so messages are
// stable).
func validateLabels(labels map[string]string, p Path) ErrorList {
	var errs ErrorList
	for _, k := range sortedKeys(labels) {
		for _, m := range isQualifiedName(k) {
			errs = append(errs, Invalid(p, k, m))
		}
		for _, m := range isLabelValue(labels[k]) {
			errs = append(errs, Invalid(p, labels[k], m))
		}
	}
	return errs
}

// validateAnnotations checks annotation keys and the total size.
func validateAnnotations(annotations map[string]string, p Path) ErrorList {
	var errs ErrorList
	size := 0
	for _, k := range sortedKeys(annotations) {
		for _, m := range isQualifiedName(strings.ToLower(k)) {
			errs = append(errs, Invalid(p, k, m))
		}
		size += len(k) + len(annotations[k])
	}
	if size > annotationsMaxBytes {
		errs = append(errs, TooLong(p, annotationsMaxBytes))
	}
	return errs
}
