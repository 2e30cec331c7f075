package kinds

import (
	"sort"

	"reconcile/engine/api"
)

var _ = Define(Def[*api.LimitRange]{
	Kind:         "LimitRange",
	NoGeneration: true,
	// Quantities are stored canonically ("0.5" is "500m"). A Container
	// item gets a default limit from max, a default request from the
	// default limit, then from min.
	Default: func(lr *api.LimitRange) {
		for i := range lr.Spec.Limits {
			it := &lr.Spec.Limits[i]
			for _, m := range []*map[string]api.Quantity{&it.Max, &it.Min, &it.Default, &it.DefaultRequest, &it.MaxLimitRequestRatio} {
				*m = api.CanonicalList(*m)
			}
			if it.Type != "Container" {
				continue
			}
			fill(&it.Default, it.Max)
			fill(&it.DefaultRequest, it.Default)
			fill(&it.DefaultRequest, it.Min)
		}
	},
	Columns: []TypedColumn[*api.LimitRange]{Name[*api.LimitRange](),
		{Name: "CREATED AT", Cell: func(lr *api.LimitRange, _ api.Time) string { return CreatedAt(lr.CreationTimestamp) }},
	},
	Describe: describeLimitRange, // no events: kubectl shows none for it
})

// fill copies into dst the quantities of src it lacks.
func fill(dst *map[string]api.Quantity, src map[string]api.Quantity) {
	keys := make([]string, 0, len(src))
	for k := range src {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := (*dst)[k]; !ok {
			if *dst == nil {
				*dst = map[string]api.Quantity{}
			}
			(*dst)[k] = src[k]
		}
	}
}

// describeLimitRange prints a LimitRange's table, a row per type and
// resource.
func describeLimitRange(w *Describer, lr *api.LimitRange) {
	w.Line(0, "Name:\t%s\n", lr.Name)
	w.Line(0, "Namespace:\t%s\n", lr.Namespace)
	w.Line(0, "Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n")
	w.Line(0, "----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n")
	limitRangeRows(w, lr, "")
}

func limitRangeRows(w *Describer, lr *api.LimitRange, prefix string) {
	for _, it := range lr.Spec.Limits {
		set := map[string]bool{}
		for _, m := range []map[string]api.Quantity{it.Max, it.Min, it.Default, it.DefaultRequest, it.MaxLimitRequestRatio} {
			for r := range m { // a set: order does not matter
				set[r] = true
			}
		}
		names := make([]string, 0, len(set))
		for r := range set {
			names = append(names, r)
		}
		sort.Strings(names)
		cell := func(m map[string]api.Quantity, r string) string {
			if q, ok := m[r]; ok {
				return string(q)
			}
			return "-"
		}
		for _, r := range names {
			w.Line(0, "%s%s\t%v\t%v\t%v\t%v\t%v\t%v\n", prefix, it.Type, r, cell(it.Min, r), cell(it.Max, r),
				cell(it.DefaultRequest, r), cell(it.Default, r), cell(it.MaxLimitRequestRatio, r))
		}
	}
}
