package yamlpos

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Resolve follows aliases to the node they name.
func Resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// Content returns the node a document holds (nil for an empty document).
func Content(doc *yaml.Node) *yaml.Node {
	if doc == nil {
		return nil
	}
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil
		}
		return Resolve(doc.Content[0])
	}
	return Resolve(doc)
}

// IsNull reports whether n is missing or a YAML null.
func IsNull(n *yaml.Node) bool {
	n = Resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// Pair is one key and value of a mapping.
type Pair struct{ Key, Value *yaml.Node }

// Pairs returns the entries of a mapping, with merge keys (<<: *base)
// expanded: keys written in the mapping win over merged ones, and earlier
// merged mappings over later ones. A key written twice is an error.
func Pairs(n *yaml.Node, pm Source) ([]Pair, *Error) {
	var out []Pair
	seen := map[string]*yaml.Node{}
	var merged []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			v = Resolve(v)
			if v.Kind == yaml.SequenceNode {
				merged = append(merged, v.Content...)
			} else {
				merged = append(merged, v)
			}
			continue
		}
		key := Resolve(k).Value
		if first, dup := seen[key]; dup {
			return nil, &Error{Pos: pm.Of(k), Msg: fmt.Sprintf("mapping key %q already defined at line %d", key, pm.Of(first).Line)}
		}
		seen[key] = k
		out = append(out, Pair{k, v})
	}
	for _, m := range merged {
		m = Resolve(m)
		if m.Kind != yaml.MappingNode {
			return nil, &Error{Pos: pm.Of(m), Msg: "a merge key (<<) needs a mapping or a list of mappings"}
		}
		sub, err := Pairs(m, pm)
		if err != nil {
			return nil, err
		}
		for _, p := range sub {
			if key := Resolve(p.Key).Value; seen[key] == nil {
				seen[key] = p.Key
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// Lookup returns the value of key in a mapping (merges included), or nil.
func Lookup(n *yaml.Node, key string) *yaml.Node {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	ps, _ := Pairs(n, Source{})
	for _, p := range ps {
		if Resolve(p.Key).Value == key {
			return Resolve(p.Value)
		}
	}
	return nil
}

// TypeName names a node's type the way Kubernetes' schema errors do.
func TypeName(n *yaml.Node) string {
	n = Resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		return "object"
	case yaml.SequenceNode:
		return "array"
	}
	switch n.ShortTag() {
	case "!!int":
		return "integer"
	case "!!float":
		return "number"
	case "!!bool":
		return "boolean"
	case "!!null":
		return "null"
	}
	return "string"
}

// Generic converts a node into plain Go data: map[string]any, []any,
// string, int64, float64, bool or nil.
func Generic(n *yaml.Node) any {
	n = Resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		ps, _ := Pairs(n, Source{})
		m := make(map[string]any, len(ps))
		for _, p := range ps {
			m[Resolve(p.Key).Value] = Generic(p.Value)
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			s[i] = Generic(c)
		}
		return s
	}
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		return strings.EqualFold(n.Value, "true")
	case "!!int":
		if i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			return i
		}
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return f
		}
	case "!!float":
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return f
		}
	}
	return n.Value
}

// Article puts "a" or "an" before a type name: "an object", "a string".
func Article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// Leading counts the spaces a line starts with.
func Leading(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// NodeAt returns the node of a field path such as
// "spec.template.spec.containers[0].resources.requests[cpu]" in an object,
// or the deepest node on the way when the path goes further than the YAML.
// A plain scalar value on its key's line is found at its key: "replicas: -1"
// reads best from its start.
func NodeAt(n *yaml.Node, path string) *yaml.Node {
	cur := Resolve(n)
	for _, seg := range splitFieldPath(path) {
		var next *yaml.Node
		if i, err := strconv.Atoi(seg); err == nil && cur.Kind == yaml.SequenceNode {
			if i >= 0 && i < len(cur.Content) {
				next = Resolve(cur.Content[i])
			}
		} else if cur.Kind == yaml.MappingNode {
			ps, _ := Pairs(cur, Source{})
			for _, p := range ps {
				if Resolve(p.Key).Value == seg {
					next = Resolve(p.Value)
					if next.Kind == yaml.ScalarNode || IsNull(next) {
						if next.Line != p.Key.Line {
							next = p.Key
						}
					}
				}
			}
		}
		if next == nil {
			break
		}
		cur = next
	}
	return cur
}

// splitFieldPath splits "a.b[0].c[key.with.dots]" into a, b, 0, c, key.with.dots.
func splitFieldPath(path string) []string {
	var out []string
	for path != "" {
		switch path[0] {
		case '.':
			path = path[1:]
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return append(out, path[1:])
			}
			out = append(out, path[1:end])
			path = path[end+1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			out = append(out, path[:end])
			path = path[end:]
		}
	}
	return out
}
