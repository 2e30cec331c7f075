package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// yamlOf renders v (anything encoding/json can marshal) as YAML, with the
// fields in the order the types declare them, the way kubectl get -o yaml
// prints an object. It goes through JSON so that every field is written as
// the API writes it (timestamps as RFC 3339, quantities as strings).
func yamlOf(v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return yamlOfJSON(data)
}

// yamlOfJSON renders a JSON document as YAML, keeping its key order.
func yamlOfJSON(data []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	root, err := readNode(dec)
	if err != nil {
		return "", err
	}
	var lines []string
	switch root.kind {
	case '{', '[':
		lines = root.lines(0)
	default:
		lines = []string{root.scalar}
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// yamlNode is a JSON value with its keys in the order they were written.
type yamlNode struct {
	kind   byte // '{', '[' or 0 for a scalar
	scalar string
	keys   []string
	items  []*yamlNode
}

func readNode(dec *json.Decoder) (*yamlNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &yamlNode{kind: byte(t)}
		for dec.More() {
			if n.kind == '{' {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, yamlScalar(fmt.Sprint(k)))
			}
			item, err := readNode(dec)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, item)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	case string:
		return &yamlNode{scalar: yamlScalar(t)}, nil
	case nil:
		return &yamlNode{scalar: "null"}, nil
	default:
		return &yamlNode{scalar: fmt.Sprint(t)}, nil
	}
}

// inline is how n reads after "key: " or "- " when it fits on that line.
func (n *yamlNode) inline() (string, bool) {
	switch {
	case n.kind == 0:
		return n.scalar, true
	case len(n.items) > 0:
		return "", false
	case n.kind == '{':
		return "{}", true
	default:
		return "[]", true
	}
}

// lines renders a mapping or a sequence at the given depth. Sequences
// under a key sit at the key's depth, as kubectl prints them.
func (n *yamlNode) lines(depth int) []string {
	pad := strings.Repeat("  ", depth)
	var out []string
	for i, item := range n.items {
		if n.kind == '{' {
			key := n.keys[i]
			if s, ok := item.inline(); ok {
				out = append(out, pad+key+": "+s)
				continue
			}
			out = append(out, pad+key+":")
			if item.kind == '[' {
				out = append(out, item.lines(depth)...)
			} else {
				out = append(out, item.lines(depth+1)...)
			}
			continue
		}
		if s, ok := item.inline(); ok {
			out = append(out, pad+"- "+s)
			continue
		}
		inner := item.lines(depth + 1)
		inner[0] = pad + "- " + strings.TrimPrefix(inner[0], pad+"  ")
		out = append(out, inner...)
	}
	return out
}

// yamlScalar writes a string plainly when YAML reads it back as the same
// string, and quoted otherwise.
func yamlScalar(s string) string {
	if s == "" {
		return `""`
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n":
		return strconv.Quote(s)
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return strconv.Quote(s)
	}
	if strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@` ") || strings.Contains(s, ": ") || strings.Contains(s, " #") ||
		strings.HasSuffix(s, ":") || strings.HasSuffix(s, " ") || strings.ContainsAny(s, "\n\t\"\\") {
		return strconv.Quote(s)
	}
	return s
}
