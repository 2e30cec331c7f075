package validation

import (
	"sort"
	"strings"

	"reconcile/engine/selector"
)

// The name formats of Kubernetes and their messages have one home,
// selector/names.go (label selectors check keys and values the same way);
// these are this package's names for them.
const (
	// DNS1123LabelMaxLength is the longest DNS label (container names, namespaces).
	DNS1123LabelMaxLength = selector.DNS1123LabelMaxLength
	// DNS1123SubdomainMaxLength is the longest DNS subdomain (most object names).
	DNS1123SubdomainMaxLength = selector.DNS1123SubdomainMaxLength
	annotationsMaxBytes       = 256 * 1024
)

// regexError appends Kubernetes' "(e.g. ..., regex used for validation is
// '...')" tail to msg.
func regexError(msg, format string, examples ...string) string {
	return selector.RegexError(msg, format, examples...)
}

func maxLenError(n int) string { return selector.MaxLenError(n) }

// IsDNS1123Label returns why value is not a DNS label (nil if it is).
func IsDNS1123Label(value string) []string { return selector.IsDNS1123Label(value) }

// IsDNS1123Subdomain returns why value is not a DNS subdomain (nil if it is).
func IsDNS1123Subdomain(value string) []string { return selector.IsDNS1123Subdomain(value) }

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
// same way, with the same messages.
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
