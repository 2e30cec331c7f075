package validation

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Path is a field path as Kubernetes prints it: "spec.template.spec.containers[0].image",
// "spec.template.spec.containers[0].resources.requests[cpu]".
type Path string

// Child returns p extended by one or more field names.
func (p Path) Child(name string, more ...string) Path {
	// One string built per call: validation extends paths for every field
	// of every object written, most of which never appear in an error.
	s := string(p)
	if s == "" {
		s = name
	} else {
		s = s + "." + name
	}
	for _, n := range more {
		if s == "" {
			s = n
		} else {
			s = s + "." + n
		}
	}
	return Path(s)
}

// Index returns p extended by a list index: "containers[0]".
func (p Path) Index(i int) Path { return Path(string(p) + "[" + strconv.Itoa(i) + "]") }

// Key returns p extended by a map key: "requests[cpu]".
func (p Path) Key(k string) Path { return Path(string(p) + "[" + k + "]") }

// String returns the path as text.
func (p Path) String() string { return string(p) }

// ErrorType says why a field is wrong. The values are the cause types the
// API server reports (metav1.CauseType).
type ErrorType string

// Error types, with the words Kubernetes prints for each.
const (
	TypeNotFound     ErrorType = "FieldValueNotFound"
	TypeRequired     ErrorType = "FieldValueRequired"
	TypeDuplicate    ErrorType = "FieldValueDuplicate"
	TypeInvalid      ErrorType = "FieldValueInvalid"
	TypeNotSupported ErrorType = "FieldValueNotSupported"
	TypeForbidden    ErrorType = "FieldValueForbidden"
	TypeTooLong      ErrorType = "FieldValueTooLong"
	TypeTooMany      ErrorType = "FieldValueTooMany"
)

// String returns the words Kubernetes prints for t: "Invalid value".
func (t ErrorType) String() string {
	switch t {
	case TypeNotFound:
		return "Not found"
	case TypeRequired:
		return "Required value"
	case TypeDuplicate:
		return "Duplicate value"
	case TypeInvalid:
		return "Invalid value"
	case TypeNotSupported:
		return "Unsupported value"
	case TypeForbidden:
		return "Forbidden"
	case TypeTooLong:
		return "Too long"
	case TypeTooMany:
		return "Too many"
	}
	return fmt.Sprintf("<unknown error %q>", string(t))
}

// FieldError is one cause of a refusal: a field, what is wrong with it, the
// offending value and a detail.
type FieldError struct {
	Type     ErrorType
	Field    string
	BadValue any
	Detail   string
}

// Error renders e as "field: body", e.g.
// "spec.replicas: Invalid value: -1: must be greater than or equal to 0".
func (e *FieldError) Error() string { return e.Field + ": " + e.Body() }

// Body renders e without its field name: the type, the value when the type
// shows one, and the detail. Since Kubernetes v1.34 composite values render
// as JSON ({"app":"web"}); numbers and booleans plainly; strings quoted.
func (e *FieldError) Body() string {
	s := e.Type.String()
	switch e.Type {
	case TypeInvalid, TypeNotSupported, TypeNotFound, TypeDuplicate, TypeTooMany:
		if _, omit := e.BadValue.(omitValue); !omit {
			s += ": " + renderValue(e.BadValue)
		}
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func renderValue(v any) string {
	switch t := v.(type) {
	case int64, int32, float64, float32, bool:
		return fmt.Sprint(t)
	case string:
		return strconv.Quote(t)
	case rawValue:
		return string(t)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", v)
}

// rawValue is a bad value already rendered, for the few places where the
// API server prints one of its internal types.
type rawValue string

// RenderedType is the type Plain holds a bad value as.
var RenderedType = reflect.TypeFor[rawValue]()

// Plain returns a copy of e whose bad values are the text they render as
// (strings kept, as positions look them up): the same words, without the
// types behind them (a selector, a list), so that a run can keep the error
// among its outputs and in its snapshots.
func (e *Error) Plain() *Error {
	c := *e
	c.Causes = make(ErrorList, len(e.Causes))
	for i, f := range e.Causes {
		g := *f
		switch g.BadValue.(type) {
		case nil, string, rawValue:
		default:
			g.BadValue = rawValue(renderValue(g.BadValue))
		}
		c.Causes[i] = &g
	}
	return &c
}

// omitValue is field.OmitValueType: an Invalid error that shows no value.
type omitValue struct{}

// Required reports a missing value.
func Required(p Path, detail string) *FieldError {
	return &FieldError{Type: TypeRequired, Field: p.String(), Detail: detail}
}

// Invalid reports a malformed value.
func Invalid(p Path, value any, detail string) *FieldError {
	return &FieldError{Type: TypeInvalid, Field: p.String(), BadValue: value, Detail: detail}
}

// NotSupported reports a value outside an enumeration; supported lists the
// allowed values in the order Kubernetes lists them.
func NotSupported(p Path, value any, supported ...string) *FieldError {
	detail := ""
	if len(supported) > 0 {
		q := make([]string, len(supported))
		for i, s := range supported {
			q[i] = strconv.Quote(s)
		}
		detail = "supported values: " + strings.Join(q, ", ")
	}
	return &FieldError{Type: TypeNotSupported, Field: p.String(), BadValue: value, Detail: detail}
}

// Forbidden reports a value that is well-formed but not allowed here.
func Forbidden(p Path, detail string) *FieldError {
	return &FieldError{Type: TypeForbidden, Field: p.String(), Detail: detail}
}

// Duplicate reports a value that must be unique.
func Duplicate(p Path, value any) *FieldError {
	return &FieldError{Type: TypeDuplicate, Field: p.String(), BadValue: value}
}

// TooLong reports a value longer than max bytes.
func TooLong(p Path, max int) *FieldError {
	return &FieldError{Type: TypeTooLong, Field: p.String(), Detail: fmt.Sprintf("may not be more than %d bytes", max)}
}

// Immutable reports a change to a field that may not change.
func Immutable(p Path, newValue any) *FieldError {
	return Invalid(p, newValue, "field is immutable")
}

// ErrorList is the causes found in one object, in the order found.
type ErrorList []*FieldError

// messages returns the rendered causes, without duplicates, in order.
func (l ErrorList) messages() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range l {
		m := e.Error()
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// Error is the API server's Invalid error (HTTP 422): the object's kind,
// group and name, and the causes. Callers format it with Error (kubectl's
// wording) or Message (the API server's).
type Error struct {
	Kind   string
	Group  string
	Name   string
	Causes ErrorList
}

// NewError returns the Invalid error for an object of kind named name, or
// nil when errs is empty.
func NewError(kind, name string, errs ErrorList) *Error {
	if len(errs) == 0 {
		return nil
	}
	return &Error{Kind: kind, Group: groupOf(kind), Name: name, Causes: errs}
}

// Error renders e the way kubectl prints an Invalid error: one line for a
// single cause,
//
//	The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
//
// and a header followed by one "* cause" line each for several.
func (e *Error) Error() string {
	return e.render(fmt.Sprintf("The %s %q is invalid", e.Kind, e.Name), func(msgs []string) string {
		return ": \n* " + strings.Join(msgs, "\n* ")
	})
}

// Message renders e in the API server's words, as a controller receives it:
// `Deployment.apps "web" is invalid: spec.replicas: ...`, with several
// causes in brackets: `Pod "web-x" is invalid: [a, b]`.
func (e *Error) Message() string {
	kind := e.Kind
	if e.Group != "" {
		kind += "." + e.Group
	}
	return e.render(fmt.Sprintf("%s %q is invalid", kind, e.Name), func(msgs []string) string {
		return ": [" + strings.Join(msgs, ", ") + "]"
	})
}

// render puts the causes after head: one inline, several as several says.
func (e *Error) render(head string, several func(msgs []string) string) string {
	switch msgs := e.Causes.messages(); len(msgs) {
	case 0:
		return head
	case 1:
		return head + ": " + msgs[0]
	default:
		return head + several(msgs)
	}
}

// Reason returns "Invalid", the API status reason of every *Error.
func (e *Error) Reason() string { return "Invalid" }

func groupOf(kind string) string {
	switch kind {
	case "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "ControllerRevision":
		return "apps"
	case "Job", "CronJob":
		return "batch"
	case "Lease":
		return "coordination.k8s.io"
	}
	return ""
}
