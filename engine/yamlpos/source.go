package yamlpos

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"reconcile/engine/limits"
)

// Source says where a YAML text sits in the file it came from, so that a
// position in the text becomes a position in the file. A manifests block is
// a text inside a scenario file: its line 1, column 1 is where the block's
// content starts. The zero Source places nothing (positions without a file).
type Source struct {
	File      string
	Line, Col int
	// Fixed pins every position to (Line, Col): for texts written as quoted
	// strings, whose lines do not sit at a known column of the file.
	Fixed bool
}

// File returns the Source of a whole file.
func File(name string) Source { return Source{File: name, Line: 1, Col: 1} }

// At returns the file position of line and col of the text.
func (m Source) At(line, col int) Pos {
	if m.Fixed || line <= 0 {
		return Pos{File: m.File, Line: m.Line, Col: m.Col}
	}
	return Pos{File: m.File, Line: m.Line + line - 1, Col: m.Col + col - 1}
}

// Of returns the file position of a node of the text.
func (m Source) Of(n *yaml.Node) Pos { return m.At(n.Line, n.Column) }

// Budget is what is left of a file's limits, shared by every YAML text the
// file holds (a scenario itself and each manifests block in it).
type Budget struct {
	aliases, nodes int
	// Objects is how many more Kubernetes objects the file may declare
	// (limits.MaxObjects in all); the manifest decoder charges it.
	Objects int
}

// NewBudget returns the budget of one file.
func NewBudget() *Budget {
	return &Budget{aliases: limits.MaxAliases, nodes: limits.MaxYAMLNodes, Objects: limits.MaxObjects}
}

// The regexps that read yaml.v3's errors are compiled at the first error,
// not at every start: a lesson that loads has none.
var (
	yamlErrorREs    sync.Once
	yamlLineRE      *regexp.Regexp
	unknownAnchorRE *regexp.Regexp
)

func compileYAMLErrorREs() {
	yamlErrorREs.Do(func() {
		yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
		unknownAnchorRE = regexp.MustCompile(`^yaml: unknown anchor '(.*)' referenced$`)
	})
}

// Parse parses every document of text, charging each to b. A syntax error
// is reported at its line; yaml.v3 does not give the column, so the column
// is where that line's content starts. Parse never panics: a panic in the
// parser is an error at the start of the text.
func Parse(text string, pm Source, b *Budget) (docs []*yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			docs, err = nil, ErrorList{{Pos: pm.At(1, 1), Msg: fmt.Sprintf("malformed YAML: %v", r)}}
		}
	}()
	if _, line := nestingBound(text, parseDepth); line > 0 {
		return nil, ErrorList{{Pos: pm.At(line, 1+Leading(lineOf(text, line))), Msg: limits.DepthMessage()}}
	}
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

func syntaxError(err error, text string, pm Source) *Error {
	compileYAMLErrorREs()
	msg := err.Error()
	lines := strings.Split(text, "\n")
	at := func(line int) Pos {
		line = max(1, min(line, len(lines)))
		return pm.At(line, 1+Leading(lines[line-1]))
	}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if strings.Contains(m[2], "tab character") {
			if pos, ok := tabAt(lines, line, pm); ok {
				return &Error{Pos: pos, Msg: "malformed YAML: " + m[2]}
			}
		}
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
				return &Error{Pos: pm.At(i+1, c+1), Msg: fmt.Sprintf("malformed YAML: unknown anchor '%s' referenced", m[1])}
			}
		}
	}
	return &Error{Pos: pm.At(1, 1), Msg: "malformed YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

// take charges one parsed document to the budget: its aliases, and its size
// once aliases are expanded. It also refuses an alias that contains itself.
// After take, walking the document always ends.
func (b *Budget) take(doc *yaml.Node, pm Source) *Error {
	aliases, nodes := 0, 0
	var count func(n *yaml.Node, depth int) *Error
	count = func(n *yaml.Node, depth int) *Error {
		nodes++
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			// The walk stops at the bound: it never recurses deeper
			// than MaxDepth+1 levels itself.
			if depth++; depth > limits.MaxDepth {
				return &Error{Pos: pm.Of(n), Msg: limits.DepthMessage()}
			}
		}
		if n.Kind == yaml.MappingNode {
			if e := duplicateKey(n, pm); e != nil {
				return e
			}
		}
		if strings.HasPrefix(n.Tag, "!") && !strings.HasPrefix(n.Tag, "!!") && n.Tag != "!" {
			// A local tag (!foo) means nothing to Kubernetes or to a
			// scenario: the value would read as a string of no type.
			return &Error{Pos: pm.Of(n), Msg: fmt.Sprintf("malformed YAML: unknown tag %s: Kubernetes YAML uses no tags", n.Tag)}
		}
		if n.Kind == yaml.AliasNode {
			aliases++
			if b.aliases--; b.aliases < 0 {
				return &Error{Pos: pm.Of(n), Msg: fmt.Sprintf("too many YAML aliases: the limit is %d aliases per file (MaxAliases)", limits.MaxAliases)}
			}
			return nil
		}
		for _, c := range n.Content {
			if e := count(c, depth); e != nil {
				return e
			}
		}
		return nil
	}
	if e := count(doc, 0); e != nil {
		return e
	}
	if aliases == 0 {
		// A document without aliases is a tree: its expanded size is
		// its nodes, counted above (a scenario of 1,000 nodes need not
		// memoise 20,000 sizes in a map).
		if b.nodes -= min(nodes, limits.MaxYAMLNodes+1); b.nodes < 0 {
			return &Error{Pos: pm.Of(doc), Msg: fmt.Sprintf("too much YAML: with aliases expanded the file holds more than %d nodes (MaxYAMLNodes)", limits.MaxYAMLNodes)}
		}
		return nil
	}
	// Expanded size and depth, memoised per node, saturating past the
	// limits. A node's depth is checked before its parent's: an alias
	// that nests a deep node deeper still is refused where it is used.
	const visiting = -1
	type sized struct{ size, depth int }
	size := map[*yaml.Node]sized{}
	var expand func(n *yaml.Node) (sized, *Error)
	expand = func(n *yaml.Node) (sized, *Error) {
		if s, ok := size[n]; ok {
			if s.size == visiting {
				return s, &Error{Pos: pm.Of(n), Msg: "a YAML alias refers to a node that contains it"}
			}
			return s, nil
		}
		size[n] = sized{size: visiting}
		total := sized{size: 1}
		kids := n.Content
		if n.Kind == yaml.AliasNode {
			kids = []*yaml.Node{n.Alias}
		}
		for _, c := range kids {
			s, e := expand(c)
			if e != nil {
				return s, e
			}
			if total.size += s.size; total.size > limits.MaxYAMLNodes {
				total.size = limits.MaxYAMLNodes + 1
			}
			total.depth = max(total.depth, s.depth)
		}
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			if total.depth++; total.depth > limits.MaxDepth {
				return total, &Error{Pos: pm.Of(n), Msg: limits.DepthMessage()}
			}
		}
		size[n] = total
		return total, nil
	}
	st, e := expand(doc)
	if e != nil {
		return e
	}
	s := st.size
	if b.nodes -= s; b.nodes < 0 {
		return &Error{Pos: pm.Of(doc), Msg: fmt.Sprintf("too much YAML: with aliases expanded the file holds more than %d nodes (MaxYAMLNodes)", limits.MaxYAMLNodes)}
	}
	return nil
}

// tabAt finds the tab yaml.v3 complains about: the first tab in the
// indentation of a line from the one it names on (it may name the line
// before), at the tab's own column.
func tabAt(lines []string, from int, pm Source) (Pos, bool) {
	for i := max(from, 1) - 1; i < len(lines); i++ {
		indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]
		if c := strings.IndexByte(indent, '\t'); c >= 0 {
			return pm.At(i+1, c+1), true
		}
	}
	return Pos{}, false
}

// duplicateKey refuses a mapping that names a key twice, as yaml.v3 does
// when it decodes into Go values (it does not when it builds a tree): at
// the second key, naming the line of the first.
func duplicateKey(n *yaml.Node, pm Source) *Error {
	plain := func(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && k.Value != "<<" }
	dup := func(first, k *yaml.Node) *Error {
		return &Error{Pos: pm.Of(k), Msg: fmt.Sprintf("mapping key %q already defined at line %d", k.Value, pm.Of(first).Line)}
	}
	if len(n.Content) <= 16 {
		// A small mapping (most are) is compared pair by pair, with no map.
		for i := 2; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if !plain(k) {
				continue
			}
			for j := 0; j < i; j += 2 {
				if f := n.Content[j]; plain(f) && f.Value == k.Value {
					return dup(f, k)
				}
			}
		}
		return nil
	}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !plain(k) {
			continue
		}
		if first, ok := seen[k.Value]; ok {
			return dup(first, k)
		}
		seen[k.Value] = k
	}
	return nil
}
