package kinds

import (
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.PersistentVolumeClaim]{
	Kind:            "PersistentVolumeClaim",
	Default:         validation.DefaultPersistentVolumeClaim,
	Validate:        validation.ValidatePersistentVolumeClaim,
	BumpsGeneration: func(old, new *api.PersistentVolumeClaim) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.PersistentVolumeClaim) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.PersistentVolumeClaim) { obj.Spec = old.Spec },
})
