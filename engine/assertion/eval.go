package assertion

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"reconcile/engine/api"
)

// Eval evaluates the assertion over objects (every object of the world;
// it picks those of its kind). It returns whether it holds and, when it
// does not, what was found ("got 3").
func (a *Assertion) Eval(objs []api.Object) (got string, ok bool) {
	var ofKind []api.Object
	for _, o := range objs {
		if o.GetTypeMeta().Kind == a.Kind {
			ofKind = append(ofKind, o)
		}
	}
	if a.Count {
		n := 0
		for _, o := range ofKind {
			if matchesTerms(o, a.Terms) {
				n++
			}
		}
		want, _ := strconv.ParseFloat(a.Value.Text, 64)
		if compareNumbers(float64(n), a.Op, want) {
			return "", true
		}
		return fmt.Sprintf("got %d", n), false
	}
	kind := api.LowerKind(a.Kind)
	var matched []api.Object
	for _, o := range ofKind {
		if MatchName(a.Name, o.Meta().Name) {
			matched = append(matched, o)
		}
	}
	wildcard := strings.Contains(a.Name, "*")
	if len(matched) == 0 {
		if wildcard {
			return fmt.Sprintf("no %s matches %s", kind, a.Name), false
		}
		return fmt.Sprintf("no %s named %q", kind, a.Name), false
	}
	var failed []string
	for _, o := range matched {
		got, ok := holds(o, a)
		if ok {
			continue
		}
		if len(matched) > 1 || wildcard {
			got = kind + "/" + o.Meta().Name + " " + got
		}
		failed = append(failed, got)
	}
	switch len(failed) {
	case 0:
		return "", true
	case 1:
		return failed[0], false
	}
	return fmt.Sprintf("%s (and %d more)", failed[0], len(failed)-1), false
}

// holds evaluates an assertion's comparison on one object.
func holds(obj api.Object, a *Assertion) (string, bool) {
	left, err := a.Path.Lookup(obj)
	if err != nil {
		return fmt.Sprintf("got nothing (%v)", err), a.Op == "!="
	}
	l := scalarOf(left)
	var r scalar
	if a.Value.Path != nil {
		right, err := a.Value.Path.Lookup(obj)
		if err != nil {
			return fmt.Sprintf("got %s, and %s is missing (%v)", l.text, a.Value.Path, err), false
		}
		r = scalarOf(right)
	} else {
		r = literal(a.Value, left)
	}
	ok, why := compare(l, a.Op, r)
	got := "got " + quoteText(l, left)
	if a.Value.Path != nil {
		got += fmt.Sprintf(" and %s is %s", a.Value.Path, r.text)
	}
	if why != "" {
		got += " (" + why + ")"
	}
	return got, ok
}

// scalar is a value reduced to what comparisons need: a number when it is
// one (times in milliseconds, quantities in base units) and its text.
type scalar struct {
	num   float64
	isNum bool
	text  string
}

func scalarOf(v reflect.Value) scalar {
	s := scalar{text: Render(v)}
	if !v.IsValid() {
		return s
	}
	for (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && !v.IsNil() {
		v = v.Elem()
	}
	switch {
	case v.Type() == timeType:
		s.num, s.isNum = float64(v.Int()), true
	case v.Type() == quantityType:
		if f, err := api.Quantity(v.String()).Parse(); err == nil {
			s.num, s.isNum = f, true
		}
	case v.Type() == intOrStringType:
		if is := v.Interface().(api.IntOrString); !is.IsString {
			s.num, s.isNum = float64(is.Int), true
		}
	default:
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			s.num, s.isNum = float64(v.Int()), true
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			s.num, s.isNum = float64(v.Uint()), true
		case reflect.Float32, reflect.Float64:
			s.num, s.isNum = v.Float(), true
		}
	}
	return s
}

// literal reads the written value in the terms of the field it is compared
// with: a duration for a time, a number or a quantity for a number.
func literal(o Operand, left reflect.Value) scalar {
	s := scalar{text: o.Text}
	if o.Quoted {
		return s
	}
	if left.IsValid() && left.Type() == timeType {
		if d, err := api.ParseDuration(o.Text); err == nil {
			s.num, s.isNum = float64(d), true
		}
		return s
	}
	if f, err := strconv.ParseFloat(o.Text, 64); err == nil {
		s.num, s.isNum = f, true
	} else if f, err := api.Quantity(o.Text).Parse(); err == nil {
		s.num, s.isNum = f, true
	}
	return s
}

// compare applies op; why explains a comparison that could not be made.
func compare(l scalar, op string, r scalar) (ok bool, why string) {
	switch op {
	case "contains":
		return strings.Contains(l.text, r.text), ""
	case "==", "!=":
		eq := l.text == r.text
		if l.isNum && r.isNum {
			eq = l.num == r.num
		}
		return eq == (op == "=="), ""
	}
	if !l.isNum || !r.isNum {
		return false, fmt.Sprintf("%s needs numbers, times or quantities", op)
	}
	return compareNumbers(l.num, op, r.num), ""
}

func compareNumbers(a float64, op string, b float64) bool {
	switch op {
	case "==":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	case ">=":
		return a >= b
	}
	return false
}

// quoteText renders a found value for a message: text in quotes, the rest
// as is.
func quoteText(s scalar, v reflect.Value) string {
	for v.IsValid() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && !v.IsNil() {
		v = v.Elem()
	}
	if v.IsValid() && v.Kind() == reflect.String && v.Type() != quantityType {
		return strconv.Quote(s.text)
	}
	return s.text
}

// matchesTerms reports whether an object passes every filter of a count.
func matchesTerms(o api.Object, terms []Term) bool {
	for _, t := range terms {
		if matchTerm(o, t) == t.Not {
			return false
		}
	}
	return true
}

func matchTerm(o api.Object, t Term) bool {
	m := o.Meta()
	pod, _ := o.(*api.Pod)
	node, _ := o.(*api.Node)
	switch {
	case t.Label:
		v, ok := m.Labels[t.Key]
		return ok && (t.Flag || v == t.Value)
	case t.Key == "name":
		return MatchName(t.Value, m.Name)
	case t.Key == "namespace":
		return m.Namespace == t.Value
	case t.Key == "terminating":
		return m.DeletionTimestamp != nil
	case t.Key == "phase":
		return pod != nil && pod.Status.Phase == t.Value
	case t.Key == "node":
		return pod != nil && pod.Spec.NodeName == t.Value
	case t.Key == "scheduled":
		return pod != nil && pod.Spec.NodeName != ""
	case t.Key == "unschedulable":
		return node != nil && node.Spec.Unschedulable
	case t.Key == "ready" && pod != nil:
		for _, c := range pod.Status.Conditions {
			if c.Type == "Ready" {
				return c.Status == "True"
			}
		}
	case t.Key == "ready" && node != nil:
		for _, c := range node.Status.Conditions {
			if c.Type == "Ready" {
				return c.Status == "True"
			}
		}
	}
	return false
}
