package kinds

import (
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.CronJob]{
	Kind:            "CronJob",
	Default:         validation.DefaultCronJob,
	Validate:        validation.ValidateCronJob,
	BumpsGeneration: func(old, new *api.CronJob) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.CronJob) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.CronJob) { obj.Spec = old.Spec },
})
