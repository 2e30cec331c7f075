package yamlpos

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// treeDepth is how deeply yaml.v3's tree of text nests mappings and
// sequences (aliases not followed), or -1 where yaml.v3 refuses the text.
func treeDepth(text string) int {
	dec := yaml.NewDecoder(strings.NewReader(text))
	deepest := 0
	var walk func(n *yaml.Node, d int)
	walk = func(n *yaml.Node, d int) {
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			d++
		}
		deepest = max(deepest, d)
		for _, c := range n.Content {
			walk(c, d)
		}
	}
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return deepest
		}
		if err != nil {
			return -1
		}
		walk(&doc, 0)
	}
}

// Texts where a bracket, a quote or a line means something else than it
// seems: in every one the bound must not fall below the tree's depth.
var trickyNesting = []string{
	"a: [[[[[1]]]]]\n",
	"a: {b: {c: [d, {e: [f]}]}}\n",
	"- - - - - x\n",
	"a:\n- b:\n  - c:\n    - d\n",
	"a: \"]]]]\"\nb: [[[[[x]]]]]\n",
	"[{\"a\":\"]\"}, [{\"a\":\"]\"}, [{\"a\":\"]\"}, [1]]]]\n",
	"['it''s ]]', [['x']]]\n",
	"a: x \"\nb: [[[[[[1]]]]]]\nc: y \"\n",
	"a: |\n  \"\nb: [[[[[[1]]]]]]\nc: |\n  \"\n",
	"a: x\n  \"\nb: [[[[[1]]]]]\nc: y\n  \"\n",
	"a:\n  value\n  \"\nb: [[[[[1]]]]]\nc: \"\n",
	"- x\n- \"\nb\"\n- [[[[[1]]]]]\n",
	"---\na:\n  b:\n    c:\n      d: [[[1]]]\n---\n- [[[[2]]]]\n",
	"--- [[[[[1]]]]]\n",
	"a: &x [[1]]\nb: !!seq [[[[*x]]]]\n",
	"a: !t \"]]]\"\nb: [[[[[1]]]]]\n",
	"{a:\"b]]\", c: [[[[1]]]]}\n",
	"[a #]]]]\n, [[[[1]]]]]\n",
	"[\"multi\n]]]]\nline\", [[[[1]]]]]\n",
	"? - [[[a]]]\n: - [[[b]]]\n",
	"a: >-\n  ]]]] \"\n  text\nb: [[[[1]]]]\n",
	"- |\n  x\n- - [[[[1]]]]\n",
	"a: b: c\n",
	"k:\n" + strings.Repeat("  ", 1) + "- " + strings.Repeat("- ", 30) + "x\n",
}

// The bound is never below the depth of the tree yaml.v3 builds, on every
// bundled lesson, every scenario the tests read and the texts above.
func TestNestingBoundNeverBelowTheTree(t *testing.T) {
	texts := append([]string(nil), trickyNesting...)
	for _, glob := range []string{"../../scenarios/*.yaml", "../../cmd/reconcile/testdata/*/*.yaml", "../scenario/testdata/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, string(b))
		}
	}
	if len(texts) < len(trickyNesting)+20 {
		t.Fatalf("only %d texts read", len(texts))
	}
	for _, text := range texts {
		d := treeDepth(text)
		b, _ := nestingBound(text, 1<<30)
		if d >= 0 && b < d {
			t.Errorf("bound %d below the tree's depth %d:\n%s", b, d, clip(text))
		}
		if d >= 0 && d < 30 && b > parseDepth/4 {
			t.Errorf("bound %d for a tree %d deep: a real text would be refused:\n%s", b, d, clip(text))
		}
	}
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

func FuzzNestingBound(f *testing.F) {
	for _, s := range trickyNesting {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		d := treeDepth(text)
		if b, _ := nestingBound(text, 1<<30); d >= 0 && b < d {
			t.Errorf("bound %d below the tree's depth %d: %q", b, d, text)
		}
	})
}
