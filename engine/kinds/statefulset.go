package kinds

import (
	"errors"
	"fmt"
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.StatefulSet]{
	Kind:            "StatefulSet",
	Default:         validation.DefaultStatefulSet,
	Validate:        validation.ValidateStatefulSet,
	ValidateUpdate:  validation.ValidateStatefulSetUpdate,
	BumpsGeneration: func(old, new *api.StatefulSet) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.StatefulSet) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.StatefulSet) { obj.Spec = old.Spec },
	Columns: append([]TypedColumn[*api.StatefulSet]{Name[*api.StatefulSet](),
		{Name: "READY", Cell: func(s *api.StatefulSet, _ api.Time) string {
			return fmt.Sprintf("%d/%d", s.Status.ReadyReplicas, api.Deref(s.Spec.Replicas, 1))
		}},
		Age[*api.StatefulSet](),
	}, Workload(func(s *api.StatefulSet) (*api.PodTemplateSpec, *api.LabelSelector) {
		return &s.Spec.Template, s.Spec.Selector
	}, false)...),
	RolloutStatus: func(t *api.StatefulSet) (string, bool, error) {
		if t.Spec.UpdateStrategy.Type != api.RollingUpdateStrategy {
			return "", true, errors.New("error: rollout status is only available for RollingUpdate strategy type")
		}
		if t.Status.ObservedGeneration == 0 || t.Generation > t.Status.ObservedGeneration {
			return "Waiting for statefulset spec update to be observed...\n", false, nil
		}
		want := api.Deref(t.Spec.Replicas, 1)
		s := t.Status
		if s.ReadyReplicas < want {
			return fmt.Sprintf("Waiting for %d pods to be ready...\n", want-s.ReadyReplicas), false, nil
		}
		if ru := t.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil && *ru.Partition > 0 {
			if s.UpdatedReplicas < want-*ru.Partition {
				return fmt.Sprintf("Waiting for partitioned roll out to finish: %d out of %d new pods have been updated...\n", s.UpdatedReplicas, want-*ru.Partition), false, nil
			}
			return fmt.Sprintf("partitioned roll out complete: %d new pods have been updated...\n", s.UpdatedReplicas), true, nil
		}
		if s.UpdateRevision != s.CurrentRevision {
			return fmt.Sprintf("waiting for statefulset rolling update to complete %d pods at revision %s...\n", s.UpdatedReplicas, s.UpdateRevision), false, nil
		}
		return fmt.Sprintf("statefulset rolling update complete %d pods at revision %s...\n", s.CurrentReplicas, s.CurrentRevision), true, nil
	},
})
