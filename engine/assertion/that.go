package assertion

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"reconcile/engine/api"
)

// Assertion is a parsed `that:` expression. It has one of two forms.
//
// A field of one object, or of every object a name pattern matches:
//
//	KIND/NAME PATH OP VALUE
//	deployment/web status.availableReplicas == 5
//	deployment/web status.observedGeneration == metadata.generation
//	deployment/web status.conditions[type=Progressing].reason == NewReplicaSetAvailable
//	replicaset/web-* status.replicas >= 0            every match must hold, and one must exist
//
// A count of objects of a kind, filtered:
//
//	KIND{TERM,TERM,...} OP NUMBER
//	pods{app=web,phase=Running,ready} == 5
//	pods{node=worker-2,!terminating} == 0
//	nodes{ready} == 3
//
// KIND is deployment (deploy), replicaset (rs), pod (po), node (no), lease,
// in the singular or the plural, or a kind the scenario's manifests declare
// (service, configmap, ...). PATH is a Path. OP is one of == != < <= > >=
// contains. VALUE is a number, a word, a "quoted string", a duration such as
// 30s (for time fields), a quantity such as 500m (for quantity fields), or a
// path of the same object when it starts with metadata., spec., status. or
// data. — quote it to compare with that text instead.
//
// The terms of a count are ANDed: name=GLOB and namespace=NS for any kind;
// phase=P, node=N and the flags ready and scheduled for pods; ready and
// unschedulable for nodes; terminating for any kind; each flag negated with
// a leading "!". Any other KEY=VALUE, KEY!=VALUE, KEY or !KEY matches labels
// (write labels.phase=x for a label named like a reserved key).
type Assertion struct {
	// Text is the expression as written.
	Text string
	// Kind is the canonical kind, e.g. "Deployment".
	Kind string
	// Name is the object's name, or a pattern where * matches any run of
	// characters. Empty for a count.
	Name string
	// Path is the field compared; empty for a count.
	Path Path
	// Count is true for the count form, filtered by Terms.
	Count bool
	Terms []Term
	// Op is ==, !=, <, <=, >, >= or contains.
	Op    string
	Value Operand
	// Traffic is set for the traffic form (traffic.go): a count of the
	// requests of the lesson's request stream.
	Traffic *TrafficQuery
}

// Term is one filter of a count.
type Term struct {
	// Key is a reserved key (name, namespace, phase, node), a flag (ready,
	// scheduled, unschedulable, terminating) or a label key.
	Key string
	// Value is what Key must (or must not) equal; empty for flags and label
	// existence.
	Value string
	// Not negates the term: KEY!=VALUE or !FLAG.
	Not bool
	// Label is true when the term matches a label.
	Label bool
	// Flag is true for a flag, or for a label that must merely exist.
	Flag bool
}

// Operand is the right-hand side of an assertion: a literal or a path.
type Operand struct {
	// Path is set when the value is another field of the same object.
	Path Path
	// Text is the literal, without quotes.
	Text string
	// Quoted is true when the literal was written in quotes: it is then
	// always text.
	Quoted bool
}

// Error is a malformed expression; Offset is the byte offset in the
// expression where the problem starts.
type Error struct {
	Offset int
	Msg    string
}

// Error returns the message, without the offset.
func (e *Error) Error() string { return e.Msg }

// Ops are the comparison operators of an assertion.
var Ops = []string{"==", "!=", "<", "<=", ">", ">=", "contains"}

// KindFor returns the canonical kind a word names ("rs" → "ReplicaSet"),
// looking also among extra kinds (e.g. the kinds a scenario's manifests
// declare), in the singular or the plural, in any case.
func KindFor(word string, extra []string) (string, bool) {
	w := strings.ToLower(word)
	if k, ok := api.KindNamed(w); ok && k.Simulated() {
		return k.Name, true
	}
	for _, k := range extra {
		if l := strings.ToLower(k); w == l || w == l+"s" || w == l+"es" {
			return k, true
		}
	}
	return "", false
}

// kindType is the Go type objects of kind are stored as.
func kindType(kind string) reflect.Type {
	if k, ok := api.KindOf(kind); ok && k.Simulated() {
		return reflect.TypeOf(k.New()).Elem()
	}
	return reflect.TypeOf(api.Unstructured{})
}

// MatchName reports whether name matches pattern, where * matches any run
// of characters (possibly empty) and everything else matches itself. It
// takes time linear in len(pattern)+len(name) times the backtracking of
// the last star only: a pattern of many stars is as fast as one.
func MatchName(pattern, name string) bool {
	p, n := 0, 0
	star, mark := -1, 0 // the last star seen, and where in name it resumes
	for n < len(name) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, n
			p++
		case p < len(pattern) && pattern[p] == name[n]:
			p++
			n++
		case star >= 0:
			// The last star takes one more character; earlier stars
			// never need to, since it can absorb whatever they would.
			mark++
			p, n = star+1, mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

type token struct {
	text string
	off  int
}

// tokens splits s at spaces, keeping quoted strings and bracketed groups
// ([...], {...}) whole.
func tokens(s string) ([]token, error) {
	var out []token
	i := 0
	for i < len(s) {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		start, depth := i, 0
		for i < len(s) && (depth > 0 || (s[i] != ' ' && s[i] != '\t')) {
			switch c := s[i]; c {
			case '"', '\'':
				end := strings.IndexByte(s[i+1:], c)
				if end < 0 {
					return nil, &Error{Offset: i, Msg: fmt.Sprintf("the quote %c at offset %d is not closed", c, i)}
				}
				i += end + 1
			case '[', '{':
				depth++
			case ']', '}':
				depth--
			}
			i++
		}
		if depth > 0 {
			return nil, &Error{Offset: start, Msg: fmt.Sprintf("a bracket in %q is not closed", s[start:])}
		}
		out = append(out, token{s[start:i], start})
	}
	return out, nil
}

var valueRoots = []string{"metadata.", "spec.", "status.", "data."}

// Parse parses and checks a `that:` expression: the kind must be
// known (extra adds kinds, such as those of a scenario's manifests), paths
// must exist in the kind's object, and the operator and value must suit the
// field's type.
func Parse(text string, extra []string) (*Assertion, error) {
	toks, err := tokens(text)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, &Error{Msg: "empty expect: want KIND/NAME PATH OP VALUE or KIND{FILTERS} OP NUMBER"}
	}
	a := &Assertion{Text: text}
	head, _, _ := strings.Cut(toks[0].text, "{")
	if isTrafficForm(head) {
		err = a.parseTrafficForm(toks)
	} else if strings.Contains(head, "/") {
		err = a.parseObjectForm(toks, extra)
	} else {
		err = a.parseCountForm(toks, extra)
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

func wantForm(end int, form string) error {
	return &Error{Offset: end, Msg: "incomplete expect: want " + form}
}

const (
	objectForm = "KIND/NAME PATH OP VALUE, e.g. deployment/web status.availableReplicas == 5"
	countForm  = "KIND{FILTERS} OP NUMBER, e.g. pods{app=web,ready} == 5"
)

func (a *Assertion) parseObjectForm(toks []token, extra []string) error {
	if len(toks) < 4 {
		last := toks[len(toks)-1]
		return wantForm(last.off+len(last.text), objectForm)
	}
	if len(toks) > 4 {
		return &Error{Offset: toks[4].off, Msg: fmt.Sprintf("unexpected %q after the value: quote a value that has spaces", toks[4].text)}
	}
	kindWord, name, _ := strings.Cut(toks[0].text, "/")
	kind, ok := KindFor(kindWord, extra)
	if !ok {
		return unknownKind(kindWord, toks[0].off, extra)
	}
	if name == "" || strings.ContainsAny(name, "/{}[]\"'") {
		return &Error{Offset: toks[0].off + len(kindWord) + 1, Msg: fmt.Sprintf("bad object %q: want KIND/NAME, e.g. deployment/web or replicaset/web-*", toks[0].text)}
	}
	a.Kind, a.Name = kind, name
	p, err := ParsePath(toks[1].text)
	if err != nil {
		return offsetBy(err, toks[1].off)
	}
	a.Path = p
	leaf, err := p.Check(kindType(kind))
	if err != nil {
		return &Error{Offset: toks[1].off, Msg: fmt.Sprintf("%s has no field %s: %v", strings.ToLower(kind), p, err)}
	}
	if err := a.parseOp(toks[2]); err != nil {
		return err
	}
	return a.parseValue(toks[3], leaf, kind)
}

func offsetBy(err error, off int) error {
	if ae, ok := err.(*Error); ok {
		return &Error{Offset: ae.Offset + off, Msg: ae.Msg}
	}
	return err
}

func unknownKind(word string, off int, extra []string) error {
	known := "deployment, replicaset (rs), pod, node, lease"
	if len(extra) > 0 {
		known += " or a kind of the manifests (" + strings.ToLower(strings.Join(extra, ", ")) + ")"
	}
	return &Error{Offset: off, Msg: fmt.Sprintf("unknown kind %q: want %s", word, known)}
}

func (a *Assertion) parseOp(t token) error {
	for _, op := range Ops {
		if t.text == op {
			a.Op = op
			return nil
		}
	}
	return &Error{Offset: t.off, Msg: fmt.Sprintf("unknown operator %q: want one of %s", t.text, strings.Join(Ops, " "))}
}

// valueClass is what kind of value a field holds, for checking operators.
type valueClass int

const (
	classDynamic valueClass = iota // unknown until run time
	classNumber
	classDuration
	classQuantity
	classString
	classBool
	classComposite
)

func classOf(t reflect.Type) valueClass {
	if t == nil {
		return classDynamic
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == timeType:
		return classDuration
	case t == quantityType:
		return classQuantity
	case t == intOrStringType, t.Kind() == reflect.Interface:
		return classDynamic
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return classNumber
	case reflect.String:
		return classString
	case reflect.Bool:
		return classBool
	}
	return classComposite
}

var classNames = map[valueClass]string{
	classNumber: "a number", classDuration: "a time", classQuantity: "a quantity", classString: "text",
	classBool: "a boolean", classComposite: "a list or an object",
}

func (a *Assertion) parseValue(t token, leaf reflect.Type, kind string) error {
	text := t.text
	class := classOf(leaf)
	if a.Op == "contains" && (class == classNumber || class == classDuration || class == classBool) {
		return &Error{Offset: t.off, Msg: fmt.Sprintf("contains needs text or a list, but %s is %s", a.Path, classNames[class])}
	}
	ordering := a.Op != "==" && a.Op != "!=" && a.Op != "contains"
	if ordering && (class == classString || class == classBool || class == classComposite) {
		return &Error{Offset: t.off, Msg: fmt.Sprintf("%s compares numbers, times or quantities, but %s is %s", a.Op, a.Path, classNames[class])}
	}
	if len(text) >= 2 && (text[0] == '"' || text[0] == '\'') && text[len(text)-1] == text[0] {
		a.Value = Operand{Text: text[1 : len(text)-1], Quoted: true}
		if text[0] == '"' {
			if s, err := strconv.Unquote(text); err == nil {
				a.Value.Text = s
			}
		}
		if class == classNumber || class == classBool || class == classDuration {
			return &Error{Offset: t.off, Msg: fmt.Sprintf("%s is %s; write the value without quotes", a.Path, classNames[class])}
		}
		return nil
	}
	for _, root := range valueRoots {
		if strings.HasPrefix(text, root) {
			p, err := ParsePath(text)
			if err != nil {
				return offsetBy(err, t.off)
			}
			rleaf, err := p.Check(kindType(kind))
			if err != nil {
				return &Error{Offset: t.off, Msg: fmt.Sprintf("%s has no field %s: %v", strings.ToLower(kind), p, err)}
			}
			if rc := classOf(rleaf); class != classDynamic && rc != classDynamic && rc != class &&
				!(class == classNumber && rc == classQuantity) && !(class == classQuantity && rc == classNumber) {
				return &Error{Offset: t.off, Msg: fmt.Sprintf("%s is %s but %s is %s: they cannot be compared", a.Path, classNames[class], p, classNames[rc])}
			}
			a.Value = Operand{Path: p}
			return nil
		}
	}
	a.Value = Operand{Text: text}
	bad := func(want string) error {
		return &Error{Offset: t.off, Msg: fmt.Sprintf("%s is %s: want %s, got %q", a.Path, classNames[class], want, text)}
	}
	switch class {
	case classNumber:
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			return bad("a number")
		}
	case classBool:
		if text != "true" && text != "false" {
			return bad("true or false")
		}
	case classDuration:
		if _, err := api.ParseDuration(text); err != nil {
			return bad("a duration such as 30s or 2m")
		}
	case classQuantity:
		if ordering {
			if _, err := api.Quantity(text).Parse(); err != nil {
				return bad("a quantity such as 500m or 2Gi")
			}
		}
	}
	if ordering && class == classDynamic {
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			if _, err := api.Quantity(text).Parse(); err != nil {
				return &Error{Offset: t.off, Msg: fmt.Sprintf("%s compares numbers, times or quantities; %q is none", a.Op, text)}
			}
		}
	}
	return nil
}

func (a *Assertion) parseCountForm(toks []token, extra []string) error {
	if len(toks) < 3 {
		last := toks[len(toks)-1]
		return wantForm(last.off+len(last.text), countForm)
	}
	if len(toks) > 3 {
		if !strings.Contains(toks[0].text, "{") {
			return &Error{Offset: toks[0].off, Msg: fmt.Sprintf("%q names no object: want %s, or %s", toks[0].text, objectForm, countForm)}
		}
		return &Error{Offset: toks[3].off, Msg: fmt.Sprintf("unexpected %q: want %s", toks[3].text, countForm)}
	}
	head, filters, braced := strings.Cut(toks[0].text, "{")
	kind, ok := KindFor(head, extra)
	if !ok {
		if head == "" || strings.ContainsAny(head, ".[") {
			return &Error{Offset: toks[0].off, Msg: fmt.Sprintf("bad expect %q: want %s or %s", a.Text, objectForm, countForm)}
		}
		return unknownKind(head, toks[0].off, extra)
	}
	a.Kind, a.Count = kind, true
	if braced {
		if !strings.HasSuffix(filters, "}") {
			return &Error{Offset: toks[0].off, Msg: fmt.Sprintf("bad filters in %q: want %s{...}", toks[0].text, head)}
		}
		off := toks[0].off + len(head) + 1
		for _, f := range strings.Split(strings.TrimSuffix(filters, "}"), ",") {
			term, err := parseTerm(strings.TrimSpace(f), kind)
			if err != nil {
				return &Error{Offset: off, Msg: err.Error()}
			}
			if term != nil {
				a.Terms = append(a.Terms, *term)
			}
			off += len(f) + 1
		}
	}
	if err := a.parseOp(toks[1]); err != nil {
		return err
	}
	if a.Op == "contains" {
		return &Error{Offset: toks[1].off, Msg: "a count compares with ==, !=, <, <=, > or >="}
	}
	if _, err := strconv.ParseUint(toks[2].text, 10, 32); err != nil {
		return &Error{Offset: toks[2].off, Msg: fmt.Sprintf("a count compares with a whole number, got %q", toks[2].text)}
	}
	a.Value = Operand{Text: toks[2].text}
	return nil
}

// flagsFor lists the flags each kind's count filters accept.
func flagsFor(kind string) []string {
	switch kind {
	case "Pod":
		return []string{"ready", "scheduled", "terminating"}
	case "Node":
		return []string{"ready", "unschedulable", "terminating"}
	}
	return []string{"terminating"}
}

func parseTerm(f, kind string) (*Term, error) {
	if f == "" {
		return nil, nil
	}
	not := strings.HasPrefix(f, "!")
	body := strings.TrimPrefix(f, "!")
	key, value, hasValue := strings.Cut(body, "=")
	if hasValue && !not && strings.HasSuffix(key, "!") {
		key, not = strings.TrimSuffix(key, "!"), true
	}
	if strings.HasPrefix(key, "labels.") {
		return &Term{Key: strings.TrimPrefix(key, "labels."), Value: value, Not: not, Label: true, Flag: !hasValue}, nil
	}
	if !hasValue {
		for _, fl := range flagsFor(kind) {
			if key == fl {
				return &Term{Key: key, Not: not, Flag: true}, nil
			}
		}
		switch key {
		case "ready", "scheduled", "unschedulable":
			return nil, fmt.Errorf("%s is not a filter of %s; its flags are %s", key, strings.ToLower(kind)+"s", strings.Join(flagsFor(kind), ", "))
		}
		return &Term{Key: key, Not: not, Label: true, Flag: true}, nil
	}
	if strings.HasPrefix(f, "!") {
		return nil, fmt.Errorf("bad filter %q: write KEY!=VALUE", f)
	}
	switch key {
	case "name", "namespace":
	case "phase", "node":
		if kind != "Pod" {
			return nil, fmt.Errorf("%s= filters pods only", key)
		}
		if key == "phase" {
			switch value {
			case api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed, api.PodUnknown:
			default:
				return nil, fmt.Errorf("unknown pod phase %q: want Pending, Running, Succeeded, Failed or Unknown", value)
			}
		}
	default:
		if key == "" {
			return nil, fmt.Errorf("bad filter %q: a label key is missing", f)
		}
		return &Term{Key: key, Value: value, Not: not, Label: true}, nil
	}
	return &Term{Key: key, Value: value, Not: not}, nil
}

// jsonText renders v as compact JSON (or with %v if it cannot be).
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// ParseObjectRef splits "kind/name" as an event expect names an object; the
// kind may be any kind (events are about kinds the engine does not simulate
// too) and the name may use *.
func ParseObjectRef(s string) (kind, name string, err error) {
	k, n, ok := strings.Cut(s, "/")
	if !ok || k == "" || n == "" || strings.ContainsAny(s, " \t") || strings.Contains(n, "/") {
		return "", "", fmt.Errorf("invalid object %q: want KIND/NAME, e.g. replicaset/web-*", s)
	}
	if c, ok := KindFor(k, nil); ok {
		k = c
	}
	return k, n, nil
}
