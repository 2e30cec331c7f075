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
