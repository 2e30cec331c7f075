package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
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
})
