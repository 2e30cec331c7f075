package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
	"time"
)

var _ = Define(Def[*api.Namespace]{
	Kind:         "Namespace",
	NoGeneration: true,
	Validate:     validation.ValidateNamespace,
	// A namespace being created gets the kubernetes finalizer, phase
	// Active and the kubernetes.io/metadata.name label.
	PrepareForCreate: func(ns *api.Namespace) {
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels["kubernetes.io/metadata.name"] = ns.Name
		ns.Spec.Finalizers = []string{api.NamespaceFinalizer}
		ns.Status = api.NamespaceStatus{Phase: api.NamespaceActive}
	},
	// Finalizers change through the finalize subresource (a status write
	// here), as the namespace strategy keeps them on update.
	KeepStatus: func(obj, old *api.Namespace) { obj.Status, obj.Spec = old.Status, old.Spec },
	Columns: []TypedColumn[*api.Namespace]{Name[*api.Namespace](),
		{Name: "STATUS", Cell: func(ns *api.Namespace, _ api.Time) string { return ns.Status.Phase }},
		Age[*api.Namespace](),
	},
	Describe: describeNamespace, // no events: kubectl shows none for it
})

// describeNamespace prints a namespace, its deletion conditions, and the
// quotas and limit ranges in it, as kubectl does.
func describeNamespace(w *Describer, ns *api.Namespace) {
	w.Line(0, "Name:\t%s\n", ns.Name)
	labelsBlock(w, "Labels", ns.Labels)
	annotationsBlock(w, "Annotations", ns.Annotations)
	w.Line(0, "Status:\t%s\n", ns.Status.Phase)
	if len(ns.Status.Conditions) > 0 {
		w.Line(0, "Conditions:\n")
		w.Line(1, "Type\tStatus\tLastTransitionTime\tReason\tMessage\n")
		w.Line(1, "----\t------\t------------------\t------\t-------\n")
		for _, c := range ns.Status.Conditions {
			w.Line(1, "%v\t%v\t%s\t%v\t%v\n", c.Type, c.Status, c.LastTransitionTime.Wall().Format(time.RFC1123Z), c.Reason, c.Message)
		}
	}
	w.Line(0, "\n")
	var quotas []*api.ResourceQuota
	for _, o := range w.Store.List("ResourceQuota") {
		if q := o.(*api.ResourceQuota); q.Namespace == ns.Name {
			quotas = append(quotas, q)
		}
	}
	if len(quotas) == 0 {
		w.Line(0, "No resource quota.\n")
	} else {
		w.Line(0, "Resource Quotas\n")
		for _, q := range quotas {
			w.Line(1, "Name:\t%s\n", q.Name)
			w.Line(1, "Resource\tUsed\tHard\n")
			w.Line(1, "--------\t---\t---\n")
			for _, r := range sortedKeys(q.Status.Hard) {
				used := q.Status.Used[r]
				if used == "" {
					used = "0"
				}
				w.Line(1, "%s\t%s\t%s\n", r, used, q.Status.Hard[r])
			}
		}
	}
	w.Line(0, "\n")
	var ranges []*api.LimitRange
	for _, o := range w.Store.List("LimitRange") {
		if lr := o.(*api.LimitRange); lr.Namespace == ns.Name {
			ranges = append(ranges, lr)
		}
	}
	if len(ranges) == 0 {
		w.Line(0, "No LimitRange resource.\n")
		return
	}
	w.Line(0, "Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n")
	w.Line(0, " ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n")
	for _, lr := range ranges {
		limitRangeRows(w, lr, " ")
	}
}
