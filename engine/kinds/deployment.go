package kinds

import (
	"fmt"
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.Deployment]{
	Kind:           "Deployment",
	Default:        validation.DefaultDeployment,
	Validate:       validation.ValidateDeployment,
	ValidateUpdate: validation.ValidateDeploymentUpdate,
	// The deployment controller's revision annotations count as a change
	// of the main resource.
	BumpsGeneration: func(old, new *api.Deployment) bool {
		return !reflect.DeepEqual(new.Spec, old.Spec) || !reflect.DeepEqual(nilIfEmpty(new.Annotations), nilIfEmpty(old.Annotations))
	},
	KeepStatus: func(obj, old *api.Deployment) { obj.Status = old.Status },
	KeepSpec:   func(obj, old *api.Deployment) { obj.Spec = old.Spec },
	// The deployment controller writes its revision annotations through
	// the status endpoint: annotations pass, spec and labels do not.
	StatusWritesAnnotations: true,
	Columns: append([]TypedColumn[*api.Deployment]{Name[*api.Deployment](),
		{Name: "READY", Cell: func(d *api.Deployment, _ api.Time) string {
			return fmt.Sprintf("%d/%d", d.Status.ReadyReplicas, api.Deref(d.Spec.Replicas, 1))
		}},
		{Name: "UP-TO-DATE", Cell: func(d *api.Deployment, _ api.Time) string { return itoa(d.Status.UpdatedReplicas) }},
		{Name: "AVAILABLE", Cell: func(d *api.Deployment, _ api.Time) string { return itoa(d.Status.AvailableReplicas) }},
		Age[*api.Deployment](),
	}, Workload(func(d *api.Deployment) (*api.PodTemplateSpec, *api.LabelSelector) {
		return &d.Spec.Template, d.Spec.Selector
	}, true)...),
	Replicas:    func(d *api.Deployment) **int32 { return &d.Spec.Replicas },
	PodTemplate: func(d *api.Deployment) *api.PodTemplateSpec { return &d.Spec.Template },
})

func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}
