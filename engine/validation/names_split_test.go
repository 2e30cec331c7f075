package validation

import (
	"slices"
	"strings"
	"testing"
)

// isQualifiedNameBySplit is isQualifiedName as it was written with
// strings.Split, the oracle of the hand-split one.
func isQualifiedNameBySplit(value string) []string {
	var errs []string
	parts := strings.Split(value, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		var prefix string
		prefix, name = parts[0], parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, m := range IsDNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return []string{"a qualified name " + regexError(qualifiedNameMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > qualifiedNameMaxLength {
		errs = append(errs, "name part "+maxLenError(qualifiedNameMaxLength))
	}
	if !matchQualifiedName(name) {
		errs = append(errs, "name part "+regexError(qualifiedNameMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// TestQualifiedNameSplit: every string of up to five bytes over the
// classes a qualified name tells apart, and long ones, get the same
// messages as with strings.Split.
func TestQualifiedNameSplit(t *testing.T) {
	alphabet := []string{"a", "A", "0", "-", ".", "/", "_", " "}
	all := []string{strings.Repeat("a", 64), strings.Repeat("a", 63), "example.com/" + strings.Repeat("b", 64), strings.Repeat("c", 254) + "/d"}
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		all = append(all, prefix)
		if n > 0 {
			for _, c := range alphabet {
				grow(prefix+c, n-1)
			}
		}
	}
	grow("", 5)
	valid := 0
	for _, s := range all {
		got, want := isQualifiedName(s), isQualifiedNameBySplit(s)
		if !slices.Equal(got, want) {
			t.Fatalf("isQualifiedName(%q) = %q, with strings.Split %q", s, got, want)
		}
		if len(got) == 0 {
			valid++
		}
	}
	if valid < 100 {
		t.Errorf("only %d of %d names are valid: the test tells too little", valid, len(all))
	}
}

// TestLabelValueShared: the label value check label selectors use gives,
// for values short and long, valid and not, the messages written with
// this package's formats.
func TestLabelValueShared(t *testing.T) {
	byFormat := func(value string) []string {
		var errs []string
		if len(value) > labelValueMaxLength {
			errs = append(errs, maxLenError(labelValueMaxLength))
		}
		if !matchLabelValue(value) {
			errs = append(errs, regexError(labelValueMsg, labelValueFmt, "MyValue", "my_value", "12345"))
		}
		return errs
	}
	values := []string{"", "a", "A-b_c.d", "-a", "a-", "a b", "é", strings.Repeat("a", 63), strings.Repeat("a", 64), "-" + strings.Repeat("a", 70)}
	bad := 0
	for _, v := range values {
		got, want := isLabelValue(v), byFormat(v)
		if !slices.Equal(got, want) {
			t.Errorf("isLabelValue(%q) = %q, want %q", v, got, want)
		}
		if len(want) > 0 {
			bad++
		}
	}
	if bad != 6 {
		t.Errorf("%d of the values are invalid, want 6", bad)
	}
}
