package kinds

import (
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
)

var _ = Define(Def[*api.ResourceQuota]{
	Kind:         "ResourceQuota",
	NoGeneration: true,
	// Quantities are stored canonically ("0.5" is "500m").
	Default:    func(q *api.ResourceQuota) { q.Spec.Hard = api.CanonicalList(q.Spec.Hard) },
	KeepStatus: func(obj, old *api.ResourceQuota) { obj.Status = old.Status },
	KeepSpec:   func(obj, old *api.ResourceQuota) { obj.Spec = old.Spec },
	Columns: []TypedColumn[*api.ResourceQuota]{Name[*api.ResourceQuota](),
		Age[*api.ResourceQuota](),
		{Name: "REQUEST", Cell: func(q *api.ResourceQuota, _ api.Time) string { return quotaUsed(q, false) }},
		{Name: "LIMIT", Cell: func(q *api.ResourceQuota, _ api.Time) string { return quotaUsed(q, true) }},
	},
	Describe: describeQuota, // no events: kubectl shows none for it
})

// quotaUsed is the REQUEST (or LIMIT) column: "cpu: 500m/2, pods: 3/10".
func quotaUsed(q *api.ResourceQuota, limits bool) string {
	keys := make([]string, 0, len(q.Spec.Hard))
	for r := range q.Spec.Hard {
		keys = append(keys, r)
	}
	sort.Strings(keys)
	var out []string
	for _, r := range keys {
		if strings.HasPrefix(r, "limits.") != limits {
			continue
		}
		used := q.Status.Used[r]
		if used == "" {
			used = "0"
		}
		out = append(out, fmt.Sprintf("%s: %s/%s", r, used, q.Spec.Hard[r]))
	}
	return strings.Join(out, ", ")
}

func describeQuota(w *Describer, q *api.ResourceQuota) {
	w.Line(0, "Name:\t%s\n", q.Name)
	w.Line(0, "Namespace:\t%s\n", q.Namespace)
	w.Line(0, "Resource\tUsed\tHard\n")
	w.Line(0, "--------\t----\t----\n")
	hard := q.Status.Hard
	for _, r := range sortedKeys(hard) {
		used := q.Status.Used[r]
		if used == "" {
			used = "0"
		}
		w.Line(0, "%v\t%v\t%v\n", r, used, hard[r])
	}
}
