package scenario

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// posMap turns a position in a YAML text into a position in the file the
// text came from. A manifests block is a text inside a scenario file: its
// line 1, column 1 is where the block's content starts.
type posMap struct {
	file      string
	line, col int
	// fixed pins every position to (line, col): for texts written as quoted
	// strings, whose lines do not sit at a known column of the file.
	fixed bool
}

func (m posMap) at(line, col int) Pos {
	if m.fixed || line <= 0 {
		return Pos{File: m.file, Line: m.line, Col: m.col}
	}
	return Pos{File: m.file, Line: m.line + line - 1, Col: m.col + col - 1}
}

func (m posMap) of(n *yaml.Node) Pos { return m.at(n.Line, n.Column) }

// budget is what is left of a file's limits, shared by every YAML text the
// file holds (the scenario itself and each manifests block).
type budget struct {
	aliases, nodes, objects int
}

func newBudget() *budget {
	return &budget{aliases: MaxAliases, nodes: MaxYAMLNodes, objects: MaxObjects}
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parseDocs parses every document of text. A syntax error is reported at
// its line; yaml.v3 does not give the column, so the column is where that
// line's content starts.
func parseDocs(text string, pm posMap, b *budget) (docs []*yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			docs, err = nil, ErrorList{{Pos: pm.at(1, 1), Msg: fmt.Sprintf("malformed YAML: %v", r)}}
		}
	}()
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, ErrorList{syntaxError(err, text, pm)}
		}
		if e := b.take(&doc, pm); e != nil {
			return nil, ErrorList{e}
		}
		docs = append(docs, &doc)
	}
}

// parserProblems are the messages of yaml.v3's parser (as opposed to its
// scanner), whose line numbers it reports counting from 0.
var parserProblems = []string{"did not find expected", "found undefined tag handle", "found duplicate %",
	"found incompatible YAML document"}

var unknownAnchorRE = regexp.MustCompile(`^yaml: unknown anchor '(.*)' referenced$`)

func syntaxError(err error, text string, pm posMap) *Error {
	msg := err.Error()
	lines := strings.Split(text, "\n")
	at := func(line int) Pos {
		line = max(1, min(line, len(lines)))
		return pm.at(line, 1+leading(lines[line-1]))
	}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		for _, p := range parserProblems {
			if strings.HasPrefix(m[2], p) {
				line++
			}
		}
		return &Error{Pos: at(line), Msg: "malformed YAML: " + m[2]}
	}
	if m := unknownAnchorRE.FindStringSubmatch(msg); m != nil {
		for i, l := range lines {
			if c := strings.Index(l, "*"+m[1]); c >= 0 {
				return &Error{Pos: pm.at(i+1, c+1), Msg: fmt.Sprintf("malformed YAML: unknown anchor '%s' referenced", m[1])}
			}
		}
	}
	return &Error{Pos: pm.at(1, 1), Msg: "malformed YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

// take charges one parsed document to the budget: its aliases, and its size
// once aliases are expanded. It also refuses an alias that contains itself.
// After take, walking the document always ends.
func (b *budget) take(doc *yaml.Node, pm posMap) *Error {
	var count func(n *yaml.Node) *Error
	count = func(n *yaml.Node) *Error {
		if n.Kind == yaml.AliasNode {
			if b.aliases--; b.aliases < 0 {
				return &Error{Pos: pm.of(n), Msg: fmt.Sprintf("too many YAML aliases: the limit is %d aliases per file (MaxAliases)", MaxAliases)}
			}
			return nil
		}
		for _, c := range n.Content {
			if e := count(c); e != nil {
				return e
			}
		}
		return nil
	}
	if e := count(doc); e != nil {
		return e
	}
	// Expanded size, memoised per node, saturating past the limit.
	const visiting = -1
	size := map[*yaml.Node]int{}
	var expand func(n *yaml.Node) (int, *Error)
	expand = func(n *yaml.Node) (int, *Error) {
		if s, ok := size[n]; ok {
			if s == visiting {
				return 0, &Error{Pos: pm.of(n), Msg: "a YAML alias refers to a node that contains it"}
			}
			return s, nil
		}
		size[n] = visiting
		total := 1
		kids := n.Content
		if n.Kind == yaml.AliasNode {
			kids = []*yaml.Node{n.Alias}
		}
		for _, c := range kids {
			s, e := expand(c)
			if e != nil {
				return 0, e
			}
			if total += s; total > MaxYAMLNodes {
				total = MaxYAMLNodes + 1
			}
		}
		size[n] = total
		return total, nil
	}
	s, e := expand(doc)
	if e != nil {
		return e
	}
	if b.nodes -= s; b.nodes < 0 {
		return &Error{Pos: pm.of(doc), Msg: fmt.Sprintf("too much YAML: with aliases expanded the file holds more than %d nodes (MaxYAMLNodes)", MaxYAMLNodes)}
	}
	return nil
}

// resolve follows aliases to the node they name.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// content returns the node a document holds (nil for an empty document).
func content(doc *yaml.Node) *yaml.Node {
	if doc == nil {
		return nil
	}
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil
		}
		return resolve(doc.Content[0])
	}
	return resolve(doc)
}

func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// pair is one key and value of a mapping.
type pair struct{ key, value *yaml.Node }

// pairs returns the entries of a mapping, with merge keys (<<: *base)
// expanded: keys written in the mapping win over merged ones, and earlier
// merged mappings over later ones. A key written twice is an error.
func pairs(n *yaml.Node, pm posMap) ([]pair, *Error) {
	var out []pair
	seen := map[string]*yaml.Node{}
	var merged []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			v = resolve(v)
			if v.Kind == yaml.SequenceNode {
				merged = append(merged, v.Content...)
			} else {
				merged = append(merged, v)
			}
			continue
		}
		key := resolve(k).Value
		if first, dup := seen[key]; dup {
			return nil, &Error{Pos: pm.of(k), Msg: fmt.Sprintf("mapping key %q already defined at line %d", key, pm.of(first).Line)}
		}
		seen[key] = k
		out = append(out, pair{k, v})
	}
	for _, m := range merged {
		m = resolve(m)
		if m.Kind != yaml.MappingNode {
			return nil, &Error{Pos: pm.of(m), Msg: "a merge key (<<) needs a mapping or a list of mappings"}
		}
		sub, err := pairs(m, pm)
		if err != nil {
			return nil, err
		}
		for _, p := range sub {
			if key := resolve(p.key).Value; seen[key] == nil {
				seen[key] = p.key
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// lookup returns the value of key in a mapping (merges included), or nil.
func lookup(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	ps, _ := pairs(n, posMap{})
	for _, p := range ps {
		if resolve(p.key).Value == key {
			return resolve(p.value)
		}
	}
	return nil
}

// typeName names a node's type the way Kubernetes' schema errors do.
func typeName(n *yaml.Node) string {
	n = resolve(n)
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

// generic converts a node into plain Go data: map[string]any, []any,
// string, int64, float64, bool or nil.
func generic(n *yaml.Node) any {
	n = resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		ps, _ := pairs(n, posMap{})
		m := make(map[string]any, len(ps))
		for _, p := range ps {
			m[resolve(p.key).Value] = generic(p.value)
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			s[i] = generic(c)
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
