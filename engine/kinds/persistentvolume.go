package kinds

import (
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.PersistentVolume]{
	Kind:            "PersistentVolume",
	Default:         validation.DefaultPersistentVolume,
	BumpsGeneration: func(old, new *api.PersistentVolume) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.PersistentVolume) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.PersistentVolume) { obj.Spec = old.Spec },
})
