package selector

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Operator relates a requirement's key to its values.
type Operator string

// The operators of a label selector, as the API server names them.
const (
	Equals       Operator = "="
	DoubleEquals Operator = "=="
	NotEquals    Operator = "!="
	In           Operator = "in"
	NotIn        Operator = "notin"
	Exists       Operator = "exists"
	DoesNotExist Operator = "!"
	GreaterThan  Operator = "gt"
	LessThan     Operator = "lt"
)

// Requirement is one term of a label selector: a key, an operator and, for
// the operators that take them, values (sorted, without duplicates).
type Requirement struct {
	Key      string
	Operator Operator
	Values   []string
}

// Labels is a label selector: every requirement must hold. The empty
// selector selects everything.
type Labels []Requirement

// Everything is the selector that matches every set of labels.
var Everything = Labels{}

// ParseLabels reads a label selector, as the API server reads the
// labelSelector of a list or watch. An error reads as the API server's.
func ParseLabels(s string) (Labels, error) {
	p := &labelParser{items: lex(s)}
	reqs, err := p.parse()
	if err != nil {
		return nil, err
	}
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].Key < reqs[j].Key })
	return reqs, nil
}

// Matches reports whether labels satisfy every requirement.
func (s Labels) Matches(labels map[string]string) bool {
	for _, r := range s {
		if !r.Matches(labels) {
			return false
		}
	}
	return true
}

// Empty reports whether s selects everything.
func (s Labels) Empty() bool { return len(s) == 0 }

// String renders s as the API server does: requirements by key, joined by
// commas ("app=web,env in (prod,qa),!canary").
func (s Labels) String() string {
	parts := make([]string, len(s))
	for i, r := range s {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// Matches reports whether labels satisfy r.
func (r Requirement) Matches(labels map[string]string) bool {
	v, has := labels[r.Key]
	switch r.Operator {
	case In, Equals, DoubleEquals:
		return has && slices.Contains(r.Values, v)
	case NotIn, NotEquals:
		return !has || !slices.Contains(r.Values, v)
	case Exists:
		return has
	case DoesNotExist:
		return !has
	case GreaterThan, LessThan:
		if !has || len(r.Values) != 1 {
			return false
		}
		a, err1 := strconv.ParseInt(v, 10, 64)
		b, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		return (r.Operator == GreaterThan && a > b) || (r.Operator == LessThan && a < b)
	}
	return false
}

// String renders r as the API server does.
func (r Requirement) String() string {
	switch r.Operator {
	case Exists:
		return r.Key
	case DoesNotExist:
		return "!" + r.Key
	case In, NotIn:
		return r.Key + " " + string(r.Operator) + " (" + strings.Join(r.Values, ",") + ")"
	case GreaterThan:
		return r.Key + ">" + strings.Join(r.Values, "")
	case LessThan:
		return r.Key + "<" + strings.Join(r.Values, "")
	}
	return r.Key + string(r.Operator) + strings.Join(r.Values, "")
}

// token kinds of the label selector language.
type token int

const (
	tokError token = iota
	tokEnd
	tokClose
	tokComma
	tokNot
	tokDoubleEquals
	tokEquals
	tokGreater
	tokIdent
	tokIn
	tokLess
	tokNotEquals
	tokNotIn
	tokOpen
)

var symbols = map[string]token{")": tokClose, ",": tokComma, "!": tokNot, "==": tokDoubleEquals, "=": tokEquals,
	">": tokGreater, "in": tokIn, "<": tokLess, "!=": tokNotEquals, "notin": tokNotIn, "(": tokOpen}

type item struct {
	tok token
	lit string
}

func special(c byte) bool { return strings.IndexByte("=!(),><", c) >= 0 }
func space(c byte) bool   { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// lex splits a selector into tokens, ending with tokEnd. Identifiers run
// to the next space or symbol; "in" and "notin" are keywords; a run of
// symbols yields the longest known operator.
func lex(s string) []item {
	var out []item
	for i := 0; ; {
		for i < len(s) && space(s[i]) {
			i++
		}
		if i == len(s) {
			return append(out, item{tokEnd, ""})
		}
		start := i
		if !special(s[i]) {
			for i < len(s) && !special(s[i]) && !space(s[i]) {
				i++
			}
			w := s[start:i]
			if t, ok := symbols[w]; ok {
				out = append(out, item{t, w})
			} else {
				out = append(out, item{tokIdent, w})
			}
			continue
		}
		last := item{}
		for i < len(s) && special(s[i]) {
			if t, ok := symbols[s[start:i+1]]; ok {
				last = item{t, s[start : i+1]}
			} else if last.tok != tokError {
				break
			}
			i++
		}
		if last.tok == tokError {
			out = append(out, item{tokError, fmt.Sprintf("error expected: keyword found '%s'", s[start:i])})
			continue
		}
		out = append(out, last)
	}
}

type labelParser struct {
	items []item
	pos   int
}

// peek and next read the current token; in and notin read as identifiers
// where values are expected (valuePos), so "x in (in)" is a selector.
func (p *labelParser) peek(valuePos bool) item {
	it := p.items[p.pos]
	if valuePos && (it.tok == tokIn || it.tok == tokNotIn) {
		it.tok = tokIdent
	}
	return it
}

func (p *labelParser) next(valuePos bool) item {
	it := p.peek(valuePos)
	p.pos++
	return it
}

func (p *labelParser) parse() (Labels, error) {
	var reqs Labels
	for {
		switch it := p.peek(true); it.tok {
		case tokIdent, tokNot:
			r, err := p.requirement()
			if err != nil {
				return nil, fmt.Errorf("unable to parse requirement: %v", err)
			}
			reqs = append(reqs, r)
			switch it := p.next(true); it.tok {
			case tokEnd:
				return reqs, nil
			case tokComma:
				if t := p.peek(true); t.tok != tokIdent && t.tok != tokNot {
					return nil, fmt.Errorf("found '%s', expected: identifier after ','", t.lit)
				}
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or 'end of string'", it.lit)
			}
		case tokEnd:
			return reqs, nil
		default:
			return nil, fmt.Errorf("found '%s', expected: !, identifier, or 'end of string'", it.lit)
		}
	}
}

func (p *labelParser) requirement() (Requirement, error) {
	r := Requirement{}
	it := p.next(true)
	if it.tok == tokNot {
		r.Operator = DoesNotExist
		it = p.next(true)
	}
	if it.tok != tokIdent {
		return r, fmt.Errorf("found '%s', expected: identifier", it.lit)
	}
	r.Key = it.lit
	if msgs := IsQualifiedName(r.Key); len(msgs) > 0 {
		return r, invalid("<nil>", r.Key, msgs)
	}
	if t := p.peek(true).tok; t == tokEnd || t == tokComma {
		if r.Operator != DoesNotExist {
			r.Operator = Exists
		}
		return r, nil
	}
	if r.Operator == DoesNotExist {
		return r, r.check()
	}
	switch it := p.next(false); it.tok {
	case tokIn:
		r.Operator = In
	case tokNotIn:
		r.Operator = NotIn
	case tokEquals:
		r.Operator = Equals
	case tokDoubleEquals:
		r.Operator = DoubleEquals
	case tokNotEquals:
		r.Operator = NotEquals
	case tokGreater:
		r.Operator = GreaterThan
	case tokLess:
		r.Operator = LessThan
	default:
		return r, fmt.Errorf("found '%s', expected: in, notin, =, ==, !=, gt, lt", it.lit)
	}
	var err error
	if r.Operator == In || r.Operator == NotIn {
		r.Values, err = p.valueSet()
	} else {
		r.Values, err = p.exactValue()
	}
	if err != nil {
		return r, err
	}
	return r, r.check()
}

// valueSet reads "(a,b,,c)": a possibly empty list of possibly empty values.
func (p *labelParser) valueSet() ([]string, error) {
	if it := p.next(true); it.tok != tokOpen {
		return nil, fmt.Errorf("found '%s' expected: '('", it.lit)
	}
	first := p.peek(true)
	switch first.tok {
	case tokClose:
		p.next(true)
		return []string{""}, nil
	case tokIdent, tokComma:
	default:
		return nil, fmt.Errorf("found '%s', expected: ',', ')' or identifier", first.lit)
	}
	set := map[string]bool{}
	for done := false; !done; {
		switch it := p.next(true); it.tok {
		case tokIdent:
			set[it.lit] = true
			switch t := p.peek(true); t.tok {
			case tokComma:
			case tokClose:
				done = true
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or ')'", t.lit)
			}
		case tokComma:
			if len(set) == 0 {
				set[""] = true // "(,"
			}
			switch p.peek(true).tok {
			case tokClose: // ",)"
				set[""], done = true, true
			case tokComma: // ",,"
				p.next(true)
				set[""] = true
			}
		default:
			return nil, fmt.Errorf("found '%s', expected: ',', or identifier", it.lit)
		}
	}
	if p.next(true).tok != tokClose {
		return nil, fmt.Errorf("found '%s', expected: ')'", first.lit)
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return out, nil
}

func (p *labelParser) exactValue() ([]string, error) {
	if t := p.peek(true).tok; t == tokEnd || t == tokComma {
		return []string{""}, nil
	}
	it := p.next(true)
	if it.tok != tokIdent {
		return nil, fmt.Errorf("found '%s', expected: identifier", it.lit)
	}
	return []string{it.lit}, nil
}

// check validates a parsed requirement as the API server's constructor
// does: integer values for gt and lt, valid label values.
func (r Requirement) check() error {
	var errs []string
	if r.Operator == GreaterThan || r.Operator == LessThan {
		for i, v := range r.Values {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				errs = append(errs, invalid(fmt.Sprintf("values[%d]", i), v, []string{"for 'Gt', 'Lt' operators, the value must be an integer"}).Error())
			}
		}
	}
	for i, v := range r.Values {
		if msgs := IsLabelValue(v); len(msgs) > 0 {
			errs = append(errs, invalid(fmt.Sprintf("values[%d][%s]", i, r.Key), v, msgs).Error())
		}
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%s", errs[0])
	}
	return fmt.Errorf("[%s]", strings.Join(errs, ", "))
}

func invalid(field, value string, msgs []string) error {
	return fmt.Errorf("%s: Invalid value: %q: %s", field, value, strings.Join(msgs, "; "))
}
