package kubectl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// JSONPath is kubectl's template language (-o jsonpath=..., --sort-by,
// custom-columns), over objects as JSON values: map[string]any, []any,
// string, json.Number, bool and nil. Text outside braces is printed as
// written; an action inside braces is a path (.metadata.name,
// .items[*].spec, ..image, [?(@.type=="Ready")].status, ['a','b']), a
// quoted string ({"\n"}), or range ... end.
type JSONPath struct {
	root []jpNode
	// AllowMissing makes a missing field print nothing (kubectl's
	// --allow-missing-template-keys, true by default) instead of failing.
	AllowMissing bool
}

// ParseJSONPath reads a template. Its errors read as kubectl's.
func ParseJSONPath(text string) (*JSONPath, error) {
	p := &jpParser{in: text}
	if err := p.text(); err != nil {
		return nil, err
	}
	return &JSONPath{root: p.root, AllowMissing: true}, nil
}

// jpNode is one node of a parsed template.
type jpNode interface{}

type (
	jpText      string
	jpList      []jpNode
	jpField     string
	jpWildcard  struct{}
	jpRecursive struct{}
	jpIdent     string
	jpUnion     []jpList
	jpNumber    json.Number
	jpBool      bool
	jpArray     [3]jpParam
	jpFilter    struct {
		left, right jpList
		op          string
	}
)

// jpParam is one of start:end:step; known says it was written, derived
// that end was implied by a single index.
type jpParam struct {
	value          int
	known, derived bool
}

type jpParser struct {
	in         string
	pos, start int
	root       []jpNode
}

func (p *jpParser) next() rune {
	if p.pos >= len(p.in) {
		return -1
	}
	r, w := utf8.DecodeRuneInString(p.in[p.pos:])
	p.pos += w
	return r
}

func (p *jpParser) backup(r rune) {
	if r >= 0 {
		p.pos -= utf8.RuneLen(r)
	}
}

func (p *jpParser) take() string {
	s := p.in[p.start:p.pos]
	p.start = p.pos
	return s
}

// text reads literal text up to the next action.
func (p *jpParser) text() error {
	for {
		if strings.HasPrefix(p.in[p.pos:], "{") {
			if p.pos > p.start {
				p.root = append(p.root, jpText(p.take()))
			}
			p.pos++
			p.take()
			list := &jpList{}
			if err := p.action(list); err != nil {
				return err
			}
			p.root = append(p.root, *list)
			return p.text()
		}
		if p.next() < 0 {
			break
		}
	}
	if p.pos > p.start {
		p.root = append(p.root, jpText(p.take()))
	}
	return nil
}

func jpTerminator(r rune) bool {
	return r < 0 || strings.ContainsRune(" \t\r\n.,[]$@{}", r)
}

func jpAlnum(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// action reads the inside of one action into cur, through its "}".
func (p *jpParser) action(cur *jpList) error {
	rest := p.in[p.pos:]
	switch {
	case strings.HasPrefix(rest, "}"):
		p.pos++
		p.take()
		return nil
	case strings.HasPrefix(rest, "[?("):
		return p.filter(cur)
	case strings.HasPrefix(rest, ".."):
		if len(*cur) > 0 {
			if _, ok := (*cur)[len(*cur)-1].(jpRecursive); ok {
				return fmt.Errorf("invalid multiple recursive descent")
			}
		}
		p.pos += 2
		p.take()
		*cur = append(*cur, jpRecursive{})
		if jpAlnum(p.peek()) {
			return p.field(cur)
		}
		return p.action(cur)
	}
	switch r := p.next(); {
	case r < 0 || r == '\r' || r == '\n':
		return fmt.Errorf("unclosed action")
	case r == ' ' || r == '@' || r == '$':
		p.take()
	case r == '[':
		return p.array(cur)
	case r == '"' || r == '\'':
		return p.quote(cur, r)
	case r == '.':
		return p.field(cur)
	case r == '+' || r == '-' || unicode.IsDigit(r):
		p.backup(r)
		return p.number(cur)
	case jpAlnum(r):
		p.backup(r)
		for {
			if r := p.next(); jpTerminator(r) {
				p.backup(r)
				break
			}
		}
		switch w := p.take(); w {
		case "true", "false":
			*cur = append(*cur, jpBool(w == "true"))
		default:
			*cur = append(*cur, jpIdent(w))
		}
	default:
		return fmt.Errorf("unrecognized character in action: %#U", r)
	}
	return p.action(cur)
}

func (p *jpParser) peek() rune {
	r := p.next()
	p.backup(r)
	return r
}

func (p *jpParser) number(cur *jpList) error {
	if r := p.next(); r != '+' && r != '-' {
		p.backup(r)
	}
	for {
		r := p.next()
		if r != '.' && !unicode.IsDigit(r) {
			p.backup(r)
			break
		}
	}
	v := p.take()
	if _, err := strconv.Atoi(v); err == nil {
		*cur = append(*cur, jpNumber(v))
		return p.action(cur)
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		*cur = append(*cur, jpNumber(v))
		return p.action(cur)
	}
	return fmt.Errorf("cannot parse number %s", v)
}

var (
	jpDictKey = &lazyRegexp{expr: `^'([^']*)'$`}
	jpSlice   = &lazyRegexp{expr: `^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$`}
	jpCompare = &lazyRegexp{expr: `^([^!<>=]+)([!<>=]+)(.+?)$`}
)

// subAction parses text as one action of its own, for the pieces of
// unions, dictionary keys and filters.
func subAction(text string) (jpList, error) {
	p := &jpParser{in: text}
	list := &jpList{}
	if err := p.action(list); err != nil && err.Error() != "unclosed action" {
		return nil, err
	}
	return *list, nil
}

func (p *jpParser) array(cur *jpList) error {
	for {
		r := p.next()
		if r < 0 || r == '\n' {
			return fmt.Errorf("unterminated array")
		}
		if r == ']' {
			break
		}
	}
	text := p.take()
	text = text[1 : len(text)-1]
	if text == "*" {
		text = ":"
	}
	if parts := strings.Split(text, ","); len(parts) > 1 {
		var u jpUnion
		for _, s := range parts {
			l, err := subAction("[" + strings.Trim(s, " ") + "]")
			if err != nil {
				return err
			}
			u = append(u, l)
		}
		*cur = append(*cur, u)
		return p.action(cur)
	}
	if m := jpDictKey.get().FindStringSubmatch(text); m != nil {
		l, err := subAction("." + m[1])
		if err != nil {
			return err
		}
		*cur = append(*cur, l...)
		return p.action(cur)
	}
	m := jpSlice.get().FindStringSubmatch(text)
	if m == nil {
		return fmt.Errorf("invalid array index %s", text)
	}
	var a jpArray
	for i, v := range m[1:] {
		switch {
		case v == "" && i == 1:
			a[1] = jpParam{value: a[0].value + 1, known: true, derived: true}
		case v == "":
		case i > 0 && v == ":":
		default:
			if i > 0 {
				v = v[1:]
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("array index %s is not a number", v)
			}
			a[i] = jpParam{value: n, known: true}
		}
	}
	*cur = append(*cur, a)
	return p.action(cur)
}

func (p *jpParser) filter(cur *jpList) error {
	p.pos += 3
	p.take()
	begin, end := false, false
	var pair rune
	for {
		r := p.next()
		if r < 0 || r == '\n' {
			return fmt.Errorf("unterminated filter")
		}
		if r == '"' || r == '\'' {
			if !begin {
				begin, pair = true, r
				continue
			}
			if p.in[p.pos-2] != '\\' && r == pair {
				end = true
			}
		}
		if r == ')' && begin == end {
			break
		}
	}
	if p.next() != ']' {
		return fmt.Errorf("unclosed array expect ]")
	}
	text := p.take()
	text = text[:len(text)-2]
	f := jpFilter{op: "exists"}
	var err error
	if m := jpCompare.get().FindStringSubmatch(text); m != nil {
		if f.left, err = subAction(m[1]); err != nil {
			return err
		}
		if f.right, err = subAction(m[3]); err != nil {
			return err
		}
		f.op = m[2]
	} else if f.left, err = subAction(text); err != nil {
		return err
	}
	*cur = append(*cur, f)
	return p.action(cur)
}

func (p *jpParser) quote(cur *jpList, end rune) error {
	for {
		r := p.next()
		if r < 0 || r == '\n' {
			return fmt.Errorf("unterminated quoted string")
		}
		if r == end && p.in[p.pos-2] != '\\' {
			break
		}
	}
	raw := p.take()
	s, err := unquoteEither(raw)
	if err != nil {
		return fmt.Errorf("unquote string %s error %v", raw, err)
	}
	*cur = append(*cur, jpText(s))
	return p.action(cur)
}

// unquoteEither unquotes a Go string literal in double or single quotes.
func unquoteEither(s string) (string, error) {
	q := s[0]
	body := s[1 : len(s)-1]
	var b strings.Builder
	for len(body) > 0 {
		r, _, rest, err := strconv.UnquoteChar(body, q)
		if err != nil {
			return "", fmt.Errorf("invalid syntax")
		}
		b.WriteRune(r)
		body = rest
	}
	return b.String(), nil
}

func (p *jpParser) field(cur *jpList) error {
	p.take()
	for {
		r := p.next()
		if r == '\\' {
			p.next()
			continue
		}
		if jpTerminator(r) {
			p.backup(r)
			break
		}
	}
	if v := p.take(); v == "*" {
		*cur = append(*cur, jpWildcard{})
	} else {
		*cur = append(*cur, jpField(strings.ReplaceAll(v, `\`, "")))
	}
	return p.action(cur)
}

// Execute evaluates the template against data and returns the text, or
// with asJSON each action's results as an indented JSON array
// (-o jsonpath-as-json).
func (j *JSONPath) Execute(data any, asJSON bool) (string, error) {
	var b strings.Builder
	err := j.run(&b, j.root, data, asJSON)
	return b.String(), err
}

func (j *JSONPath) run(b *strings.Builder, nodes []jpNode, data any, asJSON bool) error {
	for i := 0; i < len(nodes); i++ {
		list, isList := nodes[i].(jpList)
		if isList && len(list) > 0 && list[0] == jpIdent("range") {
			items, err := j.eval([]any{data}, list[1:])
			if err != nil {
				return err
			}
			end := matchingEnd(nodes, i)
			for _, it := range items {
				if err := j.run(b, nodes[i+1:end], it, asJSON); err != nil {
					return err
				}
			}
			i = end
			continue
		}
		if isList && len(list) == 1 && list[0] == jpIdent("end") {
			return fmt.Errorf("not in range, nothing to end")
		}
		var res []any
		if t, ok := nodes[i].(jpText); ok {
			res = []any{string(t)}
		} else {
			var err error
			if res, err = j.eval([]any{data}, list); err != nil {
				return err
			}
		}
		if err := printResults(b, res, asJSON); err != nil {
			return err
		}
	}
	return nil
}

// matchingEnd finds the {end} closing the {range} at nodes[i], or the end
// of the template.
func matchingEnd(nodes []jpNode, i int) int {
	depth := 0
	for k := i + 1; k < len(nodes); k++ {
		if l, ok := nodes[k].(jpList); ok && len(l) > 0 {
			switch l[0] {
			case jpIdent("range"):
				depth++
			case jpIdent("end"):
				if depth == 0 {
					return k
				}
				depth--
			}
		}
	}
	return len(nodes)
}

func printResults(b *strings.Builder, res []any, asJSON bool) error {
	if asJSON {
		if res == nil {
			res = []any{}
		}
		out, err := json.MarshalIndent(res, "", "    ")
		if err != nil {
			return err
		}
		b.Write(out)
		b.WriteByte('\n')
		return nil
	}
	for i, r := range res {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch v := r.(type) {
		case map[string]any, []any:
			out, err := json.Marshal(v)
			if err != nil {
				return err
			}
			b.Write(out)
		case nil:
			b.WriteString("null")
		default:
			fmt.Fprint(b, v)
		}
	}
	return nil
}

func (j *JSONPath) eval(in []any, list jpList) ([]any, error) {
	cur := in
	for _, n := range list {
		var err error
		if cur, err = j.step(cur, n); err != nil {
			return nil, err
		}
	}
	return cur, nil
}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "map[string]interface {}"
	case []any:
		return "[]interface {}"
	case json.Number:
		return "json.Number"
	}
	return fmt.Sprintf("%T", v)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// children are a value's members: a map's values by key, a list's items.
func children(v any) []any {
	var out []any
	switch t := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(t) {
			out = append(out, t[k])
		}
	case []any:
		out = append(out, t...)
	}
	return out
}

func (j *JSONPath) step(in []any, n jpNode) ([]any, error) {
	var out []any
	switch n := n.(type) {
	case jpText:
		return []any{string(n)}, nil
	case jpNumber:
		return repeat(json.Number(n), len(in)), nil
	case jpBool:
		return repeat(bool(n), len(in)), nil
	case jpList:
		return j.eval(in, n)
	case jpIdent:
		return nil, fmt.Errorf("unrecognized identifier %v", string(n))
	case jpField:
		for _, v := range in {
			if m, ok := v.(map[string]any); ok {
				if x, found := m[string(n)]; found {
					out = append(out, x)
				}
			}
		}
		if len(out) == 0 && len(in) > 0 && !j.AllowMissing {
			return nil, fmt.Errorf("%s is not found", string(n))
		}
	case jpWildcard:
		for _, v := range in {
			out = append(out, children(v)...)
		}
	case jpRecursive:
		var walk func(v any)
		walk = func(v any) {
			if c := children(v); len(c) > 0 {
				out = append(out, v)
				for _, x := range c {
					walk(x)
				}
			}
		}
		for _, v := range in {
			walk(v)
		}
	case jpUnion:
		for _, l := range n {
			r, err := j.eval(in, l)
			if err != nil {
				return nil, err
			}
			out = append(out, r...)
		}
	case jpArray:
		for _, v := range in {
			if v == nil {
				continue
			}
			list, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("%s is not array or slice", typeName(v))
			}
			r, err := slice(list, n)
			if err != nil {
				return nil, err
			}
			out = append(out, r...)
		}
	case jpFilter:
		for _, v := range in {
			list, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("%v is not array or slice and cannot be filtered", v)
			}
			for _, item := range list {
				pass, err := j.filterPasses(item, n)
				if err != nil {
					return nil, err
				}
				if pass {
					out = append(out, item)
				}
			}
		}
	}
	return out, nil
}

func repeat(v any, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func slice(list []any, a jpArray) ([]any, error) {
	n := len(list)
	start, end := a[0].value, n
	if !a[0].known {
		start = 0
	}
	if start < 0 {
		start += n
	}
	if a[1].known {
		end = a[1].value
	}
	if end < 0 || (end == 0 && a[1].derived) {
		end += n
	}
	if start == end {
		return nil, nil
	}
	switch {
	case start >= n || start < 0:
		return nil, fmt.Errorf("array index out of bounds: index %d, length %d", start, n)
	case end > n || end < 0:
		return nil, fmt.Errorf("array index out of bounds: index %d, length %d", end-1, n)
	case start > end:
		return nil, fmt.Errorf("starting index %d is greater than ending index %d", start, end)
	}
	step := 1
	if a[2].known {
		if a[2].value <= 0 {
			return nil, fmt.Errorf("step must be > 0")
		}
		step = a[2].value
	}
	var out []any
	for i := start; i < end; i += step {
		out = append(out, list[i])
	}
	return out, nil
}

func (j *JSONPath) filterPasses(item any, f jpFilter) (bool, error) {
	lefts, err := j.eval([]any{item}, f.left)
	if f.op == "exists" {
		return len(lefts) > 0, nil
	}
	if err != nil {
		return false, err
	}
	if len(lefts) == 0 {
		return false, nil
	}
	if len(lefts) > 1 {
		return false, fmt.Errorf("can only compare one element at a time")
	}
	rights, err := j.eval([]any{item}, f.right)
	if err != nil {
		return false, err
	}
	if len(rights) == 0 {
		return false, nil
	}
	if len(rights) > 1 {
		return false, fmt.Errorf("can only compare one element at a time")
	}
	return compare(lefts[0], rights[0], f.op)
}

// compare compares two values of one basic kind, as Go templates do.
func compare(a, b any, op string) (bool, error) {
	var c int
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		if !ok {
			return false, fmt.Errorf("incompatible types for comparison")
		}
		c = strings.Compare(x, y)
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false, fmt.Errorf("incompatible types for comparison")
		}
		fx, _ := x.Float64()
		fy, _ := y.Float64()
		switch {
		case fx < fy:
			c = -1
		case fx > fy:
			c = 1
		}
	case bool:
		y, ok := b.(bool)
		if !ok {
			return false, fmt.Errorf("incompatible types for comparison")
		}
		if op != "==" && op != "!=" {
			return false, fmt.Errorf("invalid type for comparison")
		}
		if x != y {
			c = 1
		}
	default:
		return false, fmt.Errorf("invalid type for comparison")
	}
	switch op {
	case "==":
		return c == 0, nil
	case "!=":
		return c != 0, nil
	case "<":
		return c < 0, nil
	case ">":
		return c > 0, nil
	case "<=":
		return c <= 0, nil
	case ">=":
		return c >= 0, nil
	}
	return false, fmt.Errorf("unrecognized filter operator %s", op)
}

// toJSON turns v (an object, or a List of them) into the JSON values the
// template language walks: numbers stay as written.
func toJSON(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	var out any
	d.Decode(&out)
	return out
}
