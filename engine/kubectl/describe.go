package kubectl

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
)

// describe prints objects as kubectl describe does: each kind's sections
// in kubectl's order, laid out by one tab writer, then its events.
func (k *cmd) describe() (string, error) {
	in := k.in
	if len(in.Args) == 0 {
		return "", fmt.Errorf("error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.")
	}
	if ts, err := targets(in.Args); err == nil {
		k.warnEndpoints(ts)
	}
	objs, errs, err := k.resolve(in.Args, false)
	if err != nil {
		return "", err
	}
	if len(objs) == 0 && len(errs) == 1 && len(in.Args) == 2 && !strings.Contains(in.Args[0], "/") {
		// kubectl describe pod web describes the pods whose names start with web.
		if out, ok := k.describePrefix(in.Args[0], in.Args[1]); ok {
			return out, nil
		}
	}
	var b strings.Builder
	for i, f := range objs {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(k.describeOne(f))
	}
	if len(objs) == 0 && len(errs) == 0 {
		ts, _ := targets(in.Args)
		b.WriteString(k.noneFound(ts))
	}
	return b.String(), errorsText(errs)
}

func (k *cmd) describePrefix(kindWord, prefix string) (string, bool) {
	kinds, err := kindsOf(kindWord)
	if err != nil || len(kinds) != 1 {
		return "", false
	}
	objs, err := k.list(kinds[0], selection{namespace: k.ns})
	if err != nil {
		return "", false
	}
	var b strings.Builder
	for _, o := range objs {
		if strings.HasPrefix(o.Meta().Name, prefix) {
			b.WriteString(k.describeOne(found{kinds[0], o}) + "\n")
		}
	}
	return b.String(), b.Len() > 0
}

// pw writes describe's lines (kinds.Describer): two spaces of indent per
// level, cells split by tabs and aligned by one tab writer.
type pw = kinds.Describer

// describeOne prints one object by its kind's describer, or kubectl's
// generic one for a kind without.
func (k *cmd) describeOne(f found) string {
	var b strings.Builder
	w := kinds.NewDescriber(&b, k.st, k.now, func(w *pw) { k.describeEvents(w, f) })
	if !kinds.Describe(w, f.obj) {
		k.describeGeneric(w, f.obj)
		w.Events()
	}
	w.Flush()
	return b.String()
}

// describeGeneric prints any other object as kubectl's generic describer
// does: its fields, by name, nested.
func (k *cmd) describeGeneric(w *pw, o api.Object) {
	w.Meta(o.Meta())
	doc, _ := toJSON(o).(map[string]any)
	printContent(w, 0, doc, "")
}

var genericSkips = map[string]bool{".metadata.managedFields": true, ".metadata.name": true, ".metadata.namespace": true,
	".metadata.labels": true, ".metadata.annotations": true}

func printContent(w *pw, level int, doc map[string]any, prefix string) {
	for _, f := range sortedKeys(doc) {
		path := prefix + "." + f
		if genericSkips[path] {
			continue
		}
		switch v := doc[f].(type) {
		case map[string]any:
			w.Line(level, "%s:\n", smartLabel(f))
			printContent(w, level+1, v, path)
		case []any:
			w.Line(level, "%s:\n", smartLabel(f))
			for _, c := range v {
				if cm, ok := c.(map[string]any); ok {
					printContent(w, level+1, cm, path)
				} else {
					w.Line(level+1, "%v\n", c)
				}
			}
		case nil:
			w.Line(level, "%s:\t<nil>\n", smartLabel(f))
		default:
			w.Line(level, "%s:\t%v\n", smartLabel(f), v)
		}
	}
}

// smartLabel turns a field name into words as kubectl's generic describer
// does: "creationTimestamp" is "Creation Timestamp", "apiVersion" "API
// Version".
func smartLabel(field string) string {
	for _, r := range field {
		if !unicode.IsLetter(r) && r != '-' {
			return field
		}
	}
	var parts []string
	start := 0
	rs := []rune(field)
	for i := 1; i <= len(rs); i++ {
		if i == len(rs) || (unicode.IsUpper(rs[i]) && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])))) ||
			rs[i] == '-' || rs[i-1] == '-' {
			parts = append(parts, string(rs[start:i]))
			start = i
		}
	}
	out := parts[:0]
	for _, p := range parts {
		switch up := strings.ToUpper(p); {
		case up == "API" || up == "URL" || up == "UID" || up == "OSB" || up == "GUID":
			out = append(out, up)
		default:
			out = append(out, strings.ToUpper(p[:1])+p[1:])
		}
	}
	return strings.Join(out, " ")
}

// describeEvents prints an object's events, oldest last seen first, as
// kubectl's DescribeEvents (pkg/describe/describe.go): sorted by
// lastTimestamp (an event of the events.k8s.io recorder, whose
// lastTimestamp is null, first), the age as kubectl events' (lastSeen),
// From the source's component, else the reporting controller.
func (k *cmd) describeEvents(w *pw, f found) {
	if !k.in.Bool("show-events", true) {
		return
	}
	m := f.obj.Meta()
	evs := k.st.EventsFor(f.kind.Name, m.Namespace, m.Name)
	if len(evs) == 0 {
		w.Line(0, "Events:\t<none>\n")
		return
	}
	w.Flush()
	evs = append([]*api.Event(nil), evs...)
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].LastTimestamp < evs[j].LastTimestamp })
	w.Line(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n")
	w.Line(1, "----\t------\t----\t----\t-------\n")
	for _, e := range evs {
		w.Line(1, "%v\t%v\t%s\t%v\t%v\n", e.Type, e.Reason, k.lastSeen(e), e.Component(), strings.TrimSpace(e.Message))
	}
}
