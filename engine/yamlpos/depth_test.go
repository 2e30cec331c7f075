package yamlpos

import (
	"fmt"
	"strings"
	"testing"

	"reconcile/engine/limits"
)

// nested is a YAML text whose value nests n flow lists, or n block
// mappings.
func nested(n int, block bool) string {
	if !block {
		return "k: " + strings.Repeat("[", n-1) + strings.Repeat("]", n-1) + "\n"
	}
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	return b.String()
}

// Nesting deeper than MaxDepth is refused where it passes the bound, in
// flow and block style, and aliases cannot build it from shallow parts.
func TestParseRefusesDeepNesting(t *testing.T) {
	for _, block := range []bool{false, true} {
		if _, err := Parse(nested(limits.MaxDepth, block), File("ok.yaml"), NewBudget()); err != nil {
			t.Errorf("block %v: %d levels refused: %v", block, limits.MaxDepth, err)
		}
		for _, n := range []int{limits.MaxDepth + 1, 3000, 9990} {
			if block && n > 3000 {
				continue // 50 MB of indentation
			}
			_, err := Parse(nested(n, block), File("deep.yaml"), NewBudget())
			want := "nested too deeply: the limit is 100 levels of mappings and lists (MaxDepth)"
			if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "deep.yaml:") {
				t.Errorf("block %v, %d levels: err = %v, want %q", block, n, err, want)
			}
		}
	}
	// Sixty levels under an anchor, used sixty levels deep: 120 in all.
	deep := "a: &x " + strings.Repeat("[", 60) + strings.Repeat("]", 60) + "\nb: " + strings.Repeat("[", 59) + "*x" + strings.Repeat("]", 59) + "\n"
	if _, err := Parse(deep, File("alias.yaml"), NewBudget()); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("an alias nesting a deep node deeper: err = %v", err)
	}
}

// A key named twice in one mapping is refused at its second place, small
// mapping or large, as yaml.v3 refuses it when decoding into Go values.
func TestParseRefusesDuplicateKeys(t *testing.T) {
	var big strings.Builder
	for i := range 20 {
		fmt.Fprintf(&big, "k%d: v\n", i)
	}
	big.WriteString("k3: again\n")
	for _, c := range []struct{ text, want string }{
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nkind: ConfigMap\n", `f.yaml:5:1: mapping key "kind" already defined at line 2`},
		{"a:\n  b: 1\n  b: 2\n", `f.yaml:3:3: mapping key "b" already defined at line 2`},
		{big.String(), `f.yaml:21:1: mapping key "k3" already defined at line 4`},
	} {
		if _, err := Parse(c.text, File("f.yaml"), NewBudget()); err == nil || err.Error() != c.want {
			t.Errorf("%.30q: err = %v, want %s", c.text, err, c.want)
		}
	}
	if _, err := Parse("a: &a {x: 1}\nb:\n  <<: *a\n  <<: *a\n  y: 2\n", File("f.yaml"), NewBudget()); err != nil {
		t.Errorf("merge keys: %v", err)
	}
}

// A local tag is refused at the value, naming it, not read as a string of
// no known type.
func TestParseRefusesLocalTags(t *testing.T) {
	_, err := Parse("metadata:\n  name: !foo c\n", File("f.yaml"), NewBudget())
	if want := "f.yaml:2:9: malformed YAML: unknown tag !foo: Kubernetes YAML uses no tags"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	if _, err := Parse("a: !!str 3\nb: ! c\n", File("f.yaml"), NewBudget()); err != nil {
		t.Errorf("standard tags: %v", err)
	}
}
