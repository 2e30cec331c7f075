package selector_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"reconcile/engine/selector"
)

func ExampleParseLabels() {
	sel, err := selector.ParseLabels("tier in (front,back), !canary, app=web")
	fmt.Println(sel, err)
	fmt.Println(sel.Matches(map[string]string{"app": "web", "tier": "front"}))
	fmt.Println(sel.Matches(map[string]string{"app": "web", "tier": "front", "canary": "true"}))
	_, err = selector.ParseLabels("app in (web")
	fmt.Println(err)
	// Output:
	// app=web,!canary,tier in (back,front) <nil>
	// true
	// false
	// unable to parse requirement: found '', expected: ',' or ')'
}

// FuzzParseLabels reads any string: a selector that parses renders as a
// selector that parses to the same rendering.
func FuzzParseLabels(f *testing.F) {
	for _, s := range []string{"a=b", "x in (a,,b)", "!a,b!=c", "a>1", "a in (", "Foo!", ",", "a=b=c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := selector.ParseLabels(s)
		if err != nil {
			return
		}
		again, err := selector.ParseLabels(sel.String())
		if err != nil || again.String() != sel.String() {
			t.Fatalf("%q renders as %q, which parses as %q (%v)", s, sel.String(), again.String(), err)
		}
	})
}

// FuzzParseFields does the same for field selectors, whose terms the API
// server sorts as written, so a rendering may list them in another order.
func FuzzParseFields(f *testing.F) {
	for _, s := range []string{"a=b", `a=b\,c`, "a!=b,c==d", "a", `a=\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := selector.ParseFields(s)
		if err != nil {
			return
		}
		again, err := selector.ParseFields(sel.String())
		if err != nil || terms(again) != terms(sel) {
			t.Fatalf("%q renders as %q, which parses as %q (%v)", s, sel.String(), again.String(), err)
		}
	})
}

func terms(f selector.Fields) string {
	var out []string
	for _, t := range f {
		out = append(out, selector.Fields{t}.String())
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}
