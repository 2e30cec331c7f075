package selector

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"reconcile/engine/api"
)

// FieldTerm is one term of a field selector: field=value, or field!=value
// when Not.
type FieldTerm struct {
	Field, Value string
	Not          bool
}

// Fields is a field selector: every term must hold. It is empty for "".
type Fields []FieldTerm

// ParseFields reads a field selector as the API server does: terms split
// at unescaped commas, each split at its first !=, == or =; a value may
// escape \, , and = with a backslash.
func ParseFields(s string) (Fields, error) {
	var terms []string
	start, escaped := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case escaped:
			escaped = false
		case s[i] == '\\':
			escaped = true
		case s[i] == ',':
			terms, start = append(terms, s[start:i]), i+1
		}
	}
	if s != "" {
		terms = append(terms, s[start:])
	}
	sort.Strings(terms)
	var out Fields
	for _, t := range terms {
		if t == "" {
			continue
		}
		i := -1
		for j := 0; j < len(t) && i < 0; j++ {
			if t[j] == '=' || strings.HasPrefix(t[j:], "!=") {
				i = j
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", s, t)
		}
		term := FieldTerm{Field: t[:i], Not: t[i] == '!'}
		rest := t[i+1:]
		if term.Not || strings.HasPrefix(t[i:], "==") {
			rest = t[i+2:]
		}
		v, err := unescape(rest)
		if err != nil {
			return nil, err
		}
		term.Value = v
		if term.Field == "" && term.Value == "" {
			continue // the API server reads an empty term as no term
		}
		out = append(out, term)
	}
	return out, nil
}

func unescape(s string) (string, error) {
	var b strings.Builder
	escaped := false
	for _, c := range s {
		switch {
		case escaped:
			if c != '\\' && c != ',' && c != '=' {
				return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", string([]rune{'\\', c}))
			}
			b.WriteRune(c)
			escaped = false
		case c == '\\':
			escaped = true
		case c == ',' || c == '=':
			return "", fmt.Errorf("invalid field selector: unescaped character in value: %v", c)
		default:
			b.WriteRune(c)
		}
	}
	if escaped {
		return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", "\\")
	}
	return b.String(), nil
}

// String renders f as the API server does.
func (f Fields) String() string {
	parts := make([]string, len(f))
	for i, t := range f {
		op := "="
		if t.Not {
			op = "!="
		}
		v := strings.NewReplacer(`\`, `\\`, `,`, `\,`, `=`, `\=`).Replace(t.Value)
		parts[i] = t.Field + op + v
	}
	return strings.Join(parts, ",")
}

// fieldKinds returns the fields of kind beyond metadata.name (and
// metadata.namespace, for namespaced kinds) that the API server lets a
// field selector use, and how it words a refusal (a format with the field;
// "" for "field label not supported: %s"). Kinds not listed (listed false)
// take only the metadata fields. A switch, not a map literal: a table in
// code costs app.wasm less than the init code that fills a map.
func fieldKinds(kind string) (fields []string, refuse string, listed bool) {
	switch kind {
	case "Pod":
		return []string{"spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName",
			"spec.hostNetwork", "status.phase", "status.podIP", "status.podIPs", "status.nominatedNodeName"}, "", true
	case "Node":
		return []string{"spec.unschedulable"}, "", true
	case "Event":
		return []string{"involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid",
			"involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"}, "", true
	case "Namespace":
		return []string{"status.phase"}, "", true
	case "Secret":
		return []string{"type"}, "", true
	case "Service":
		return []string{"spec.clusterIP", "spec.type"}, "", true
	case "Job":
		return []string{"status.successful"}, "field label %q not supported for Job", true
	}
	return nil, "", false
}

// SelectableFields returns the fields a field selector may name for kind,
// in the API server's order.
func SelectableFields(kind string) []string {
	k, _ := api.KindOf(kind)
	out := []string{"metadata.name"}
	fields, _, listed := fieldKinds(kind)
	if k.Namespaced || !listed {
		out = append(out, "metadata.namespace")
	}
	return append(out, fields...)
}

// CheckFields refuses a field selector that names a field kind cannot be
// selected by, with the API server's message.
func (f Fields) CheckFields(kind string) error {
	allowed := SelectableFields(kind)
	_, refuse, listed := fieldKinds(kind)
	for _, t := range f {
		field := t.Field
		if kind == "Pod" && field == "spec.host" {
			continue // an old name of spec.nodeName
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == field
		}
		switch {
		case ok:
		case !listed:
			return fmt.Errorf("%q is not a known field selector: only %q, %q", field, "metadata.name", "metadata.namespace")
		case refuse != "":
			return fmt.Errorf(refuse, field)
		default:
			return fmt.Errorf("field label not supported: %s", field)
		}
	}
	return nil
}

// Matches reports whether o satisfies every term. Fields must have passed
// CheckFields for o's kind.
func (f Fields) Matches(o api.Object) bool {
	for _, t := range f {
		if (FieldValue(o, t.Field) == t.Value) == t.Not {
			return false
		}
	}
	return true
}

// FieldValue is the value of a selectable field of o, as the API server
// renders it for matching ("" when unset; booleans and counts as text).
func FieldValue(o api.Object, field string) string {
	m := o.Meta()
	switch field {
	case "metadata.name":
		return m.Name
	case "metadata.namespace":
		return m.Namespace
	}
	switch t := o.(type) {
	case *api.Pod:
		switch field {
		case "spec.nodeName", "spec.host":
			return t.Spec.NodeName
		case "spec.restartPolicy":
			return t.Spec.RestartPolicy
		case "spec.schedulerName":
			return t.Spec.SchedulerName
		case "spec.hostNetwork":
			return "false"
		case "status.phase":
			return t.Status.Phase
		case "status.podIP":
			return t.Status.PodIP
		}
	case *api.Node:
		if field == "spec.unschedulable" {
			return strconv.FormatBool(t.Spec.Unschedulable)
		}
	case *api.Event:
		r := t.InvolvedObject
		switch field {
		case "involvedObject.kind":
			return r.Kind
		case "involvedObject.namespace":
			return r.Namespace
		case "involvedObject.name":
			return r.Name
		case "involvedObject.uid":
			return r.UID
		case "involvedObject.apiVersion":
			return r.APIVersion
		case "involvedObject.resourceVersion":
			return r.ResourceVersion
		case "involvedObject.fieldPath":
			return r.FieldPath
		case "reason":
			return t.Reason
		case "source":
			// the API server's (pkg/registry/core/event/strategy.go
			// ToSelectableFields): the source's component, else the
			// reporting controller (the scheduler's events)
			return t.Component()
		case "reportingComponent":
			return t.ReportingController
		case "type":
			return t.Type
		}
	case *api.Job:
		if field == "status.successful" {
			return strconv.Itoa(int(t.Status.Succeeded))
		}
	case *api.Unstructured:
		if v, ok := t.Spec[strings.TrimPrefix(field, "spec.")].(string); ok && strings.HasPrefix(field, "spec.") {
			return v
		}
	}
	return ""
}
