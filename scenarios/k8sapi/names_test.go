package k8sapi_test

import (
	"slices"
	"strings"
	"testing"

	k8svalidation "k8s.io/apimachinery/pkg/util/validation"

	"reconcile/engine/selector"
)

// nameCorpus is every string of up to five bytes over the classes the name
// formats tell apart, then long ones at and over each limit.
func nameCorpus() []string {
	alphabet := []string{"a", "A", "0", "-", ".", "/", "_", " "}
	all := []string{strings.Repeat("a", 63), strings.Repeat("a", 64), "example.com/" + strings.Repeat("b", 64),
		strings.Repeat("c", 254) + "/d", strings.Repeat("c", 253) + "/d", strings.Repeat("a.", 126) + "a",
		strings.Repeat("a.", 127) + "a", "-" + strings.Repeat("a", 70), "é", "a\nb"}
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
	return all
}

// TestNamesAreKubernetes: the name checks validation and label selectors
// share (selector/names.go) give, for every string of the corpus, the
// messages of k8s.io/apimachinery's own, word for word and in order.
func TestNamesAreKubernetes(t *testing.T) {
	checks := []struct {
		name      string
		ours, k8s func(string) []string
		minValid  int
	}{
		{"IsDNS1123Label", selector.IsDNS1123Label, k8svalidation.IsDNS1123Label, 100},
		{"IsDNS1123Subdomain", selector.IsDNS1123Subdomain, k8svalidation.IsDNS1123Subdomain, 100},
		{"IsQualifiedName", selector.IsQualifiedName, k8svalidation.IsQualifiedName, 100},
		{"IsLabelValue", selector.IsLabelValue, k8svalidation.IsValidLabelValue, 100},
	}
	corpus := nameCorpus()
	for _, c := range checks {
		valid := 0
		for _, s := range corpus {
			got, want := c.ours(s), c.k8s(s)
			if !slices.Equal(got, want) {
				t.Fatalf("%s(%q) = %q, Kubernetes says %q", c.name, s, got, want)
			}
			if len(want) == 0 {
				valid++
			}
		}
		if valid < c.minValid {
			t.Errorf("%s: only %d of %d strings are valid: the test tells too little", c.name, valid, len(corpus))
		}
	}
}

// TestRegexErrorIsKubernetes: the "(e.g. …, regex used for validation is
// …)" tail, with no example, one and several, as Kubernetes writes it.
func TestRegexErrorIsKubernetes(t *testing.T) {
	for _, examples := range [][]string{nil, {"1%"}, {"1%", "93%"}, {"MyName", "my.name", "123-abc"}} {
		got := selector.RegexError("must match", "[0-9]+%", examples...)
		want := k8svalidation.RegexError("must match", "[0-9]+%", examples...)
		if got != want {
			t.Errorf("RegexError with %q = %q, Kubernetes says %q", examples, got, want)
		}
	}
	if got, want := selector.MaxLenError(63), k8svalidation.MaxLenError(63); got != want {
		t.Errorf("MaxLenError(63) = %q, Kubernetes says %q", got, want)
	}
}
