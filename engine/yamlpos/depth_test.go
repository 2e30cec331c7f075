package yamlpos

import (
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
