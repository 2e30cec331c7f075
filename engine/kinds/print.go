package kinds

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"reconcile/engine/api"
	"reconcile/engine/selector"
)

// What kubectl's table printers share: the columns most kinds print and
// how kubectl renders labels, selectors and absent values.

// Name is the NAME column.
func Name[T api.Object]() TypedColumn[T] {
	return TypedColumn[T]{Name: "NAME", Cell: func(o T, _ api.Time) string { return o.Meta().Name }}
}

// Age is the AGE column: how long ago the object was created.
func Age[T api.Object]() TypedColumn[T] {
	return TypedColumn[T]{Name: "AGE", Cell: func(o T, now api.Time) string { return AgeOf(now, o.Meta().CreationTimestamp) }}
}

// Workload is a workload's -o wide columns (CONTAINERS, IMAGES and, but for
// StatefulSets, SELECTOR), from its pod template and selector.
func Workload[T api.Object](of func(T) (*api.PodTemplateSpec, *api.LabelSelector), selector bool) []TypedColumn[T] {
	cols := []TypedColumn[T]{
		{Name: "CONTAINERS", Wide: true, Cell: func(o T, _ api.Time) string {
			t, _ := of(o)
			return containerField(t, func(c *api.Container) string { return c.Name })
		}},
		{Name: "IMAGES", Wide: true, Cell: func(o T, _ api.Time) string {
			t, _ := of(o)
			return containerField(t, func(c *api.Container) string { return c.Image })
		}},
	}
	if selector {
		cols = append(cols, TypedColumn[T]{Name: "SELECTOR", Wide: true, Cell: func(o T, _ api.Time) string {
			_, sel := of(o)
			return FormatSelector(sel)
		}})
	}
	return cols
}

func containerField(t *api.PodTemplateSpec, f func(*api.Container) string) string {
	parts := make([]string, len(t.Spec.Containers))
	for i := range t.Spec.Containers {
		parts[i] = f(&t.Spec.Containers[i])
	}
	return strings.Join(parts, ",")
}

// AgeOf renders how long before now t was, as kubectl does: "45s", "3m2s".
func AgeOf(now, t api.Time) string { return api.HumanDuration(now - t) }

// CreatedAt is the CREATED AT column of kinds without their own table
// (LimitRange): the creation time in RFC 3339.
func CreatedAt(t api.Time) string { return t.Wall().UTC().Format(time.RFC3339) }

// OrNone is s, or "<none>" when s is empty.
func OrNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

// DerefOr is *p, or def when p is nil.
func DerefOr(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}

// FormatLabels renders labels as kubectl does: "app=web,tier=db" by key,
// or "<none>".
func FormatLabels(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return OrNone(strings.Join(parts, ","))
}

// FormatSelector renders a label selector as kubectl does: "app=web",
// "env in (prod,qa),tier", or "<none>".
func FormatSelector(s *api.LabelSelector) string {
	if s == nil {
		return "<none>"
	}
	var reqs selector.Labels
	for k, v := range s.MatchLabels {
		reqs = append(reqs, selector.Requirement{Key: k, Operator: selector.Equals, Values: []string{v}})
	}
	for _, e := range s.MatchExpressions {
		op := map[string]selector.Operator{"In": selector.In, "NotIn": selector.NotIn, "Exists": selector.Exists, "DoesNotExist": selector.DoesNotExist}[e.Operator]
		vals := append([]string(nil), e.Values...)
		sort.Strings(vals)
		reqs = append(reqs, selector.Requirement{Key: e.Key, Operator: op, Values: vals})
	}
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].Key < reqs[j].Key })
	return OrNone(reqs.String())
}

// AccessModes abbreviates access modes as kubectl does: RWO, ROX, RWX,
// RWOP, in that order.
func AccessModes(modes []string) string {
	var out []string
	for _, m := range []struct{ long, short string }{{"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"}, {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"}} {
		for _, have := range modes {
			if have == m.long {
				out = append(out, m.short)
				break
			}
		}
	}
	return strings.Join(out, ",")
}

// itoa renders a number as a cell.
func itoa[N int | int32 | int64](n N) string { return fmt.Sprint(n) }

// Headers returns a kind's column names, with its -o wide columns when
// wide; ok is false when kinds has none for it.
func Headers(kind string, wide bool) (h []string, ok bool) {
	s := registry[kind]
	if s == nil || s.Columns == nil {
		return nil, false
	}
	for _, c := range s.Columns {
		if wide || !c.Wide {
			h = append(h, c.Name)
		}
	}
	return h, true
}

// Cells returns an object's row, in the order of Headers; ok is false
// when kinds has no columns for its Go type.
func Cells(obj api.Object, now api.Time, wide bool) (c []string, ok bool) {
	s := of(obj)
	if s.Columns == nil {
		return nil, false
	}
	for _, col := range s.Columns {
		if wide || !col.Wide {
			c = append(c, col.Cell(obj, now))
		}
	}
	return c, true
}
