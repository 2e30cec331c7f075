package kinds

import (
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.ReplicaSet]{
	Kind:            "ReplicaSet",
	Default:         validation.DefaultReplicaSet,
	Validate:        validation.ValidateReplicaSet,
	ValidateUpdate:  validation.ValidateReplicaSetUpdate,
	BumpsGeneration: func(old, new *api.ReplicaSet) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.ReplicaSet) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.ReplicaSet) { obj.Spec = old.Spec },
})
