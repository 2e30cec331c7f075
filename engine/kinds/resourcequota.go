package kinds

import "reconcile/engine/api"

var _ = Define(Def[*api.ResourceQuota]{
	Kind:         "ResourceQuota",
	NoGeneration: true,
	KeepStatus:   func(obj, old *api.ResourceQuota) { obj.Status = old.Status },
	KeepSpec:     func(obj, old *api.ResourceQuota) { obj.Spec = old.Spec },
})
