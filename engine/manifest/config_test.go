package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"reconcile/engine/yamlpos"
)

// TestJSONShapedIsTheRoundTrip holds jsonShaped to what it stands for, the
// JSON round trip configOf made before: on every mapping of the bundled
// lessons and of the manifests they hold, and on the edge cases of
// Generic's values (big integers, floats, NaN and infinities, null,
// unicode, nesting). A string that is not valid UTF-8 is left to the
// round trip.
func TestJSONShapedIsTheRoundTrip(t *testing.T) {
	texts := map[string]string{"edges": `
a: 9007199254740993
b: -9223372036854775808
c: 0x1F
d: 1_000
e: 1.5e300
f: -0.0
g: .nan
h: -.inf
i: 2e308
j: null
k: [1, 2.5, "3", true, ~, {x: [ {y: 1} ]}]
"ключ ✓": "<&> \"quoted\" \u00e9"
l: !!float 3
m: 00012
`}
	files, err := filepath.Glob("../../scenarios/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no lessons: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[f] = string(b)
	}
	mappings := 0
	var walk func(name string, n *yaml.Node)
	walk = func(name string, n *yaml.Node) {
		switch n.Kind {
		case yaml.MappingNode:
			mappings++
			want := jsonRoundTrip(jsonable(yamlpos.Generic(n)))
			got, ok := jsonShaped(jsonable(yamlpos.Generic(n)))
			if !ok || !reflect.DeepEqual(got, want) {
				t.Errorf("%s:%d: jsonShaped %v (%v), the round trip %v", name, n.Line, got, ok, want)
			}
		case yaml.ScalarNode:
			if strings.Contains(n.Value, "apiVersion:") {
				docs, err := yamlpos.Parse(n.Value, yamlpos.Source{File: name}, yamlpos.NewBudget())
				if err == nil {
					for _, d := range docs {
						walk(name+" (a block)", d)
					}
				}
			}
		}
		for _, c := range n.Content {
			walk(name, c)
		}
	}
	for name, text := range texts {
		docs, err := yamlpos.Parse(text, yamlpos.Source{File: name}, yamlpos.NewBudget())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, d := range docs {
			walk(name, d)
		}
	}
	if mappings < 1000 {
		t.Errorf("only %d mappings compared", mappings)
	}
	t.Logf("%d mappings", mappings)
	if got, ok := jsonShaped(map[string]any{"bad": "\xff"}); ok || got != nil {
		t.Errorf("invalid UTF-8: %v, %v; want it left to the round trip", got, ok)
	}
	if got := jsonRoundTrip(map[string]any{"bad": "\xff", "n": int64(1)}); !reflect.DeepEqual(got, map[string]any{"bad": "\ufffd", "n": 1.0}) {
		t.Errorf("the round trip of invalid UTF-8: %v", got)
	}
	if got, ok := jsonShaped([]any{int64(1)}); !ok || got != nil {
		t.Errorf("a list at the top: %v, %v; want nil, as the round trip gives", got, ok)
	}
}
