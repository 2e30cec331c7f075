package kinds

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

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
		// The API server defaults rollingUpdate.partition to 0, so kubectl
		// speaks of a partitioned roll out for every RollingUpdate.
		if ru := t.Spec.UpdateStrategy.RollingUpdate; ru != nil {
			if ru.Partition != nil && s.UpdatedReplicas < want-*ru.Partition {
				return fmt.Sprintf("Waiting for partitioned roll out to finish: %d out of %d new pods have been updated...\n", s.UpdatedReplicas, want-*ru.Partition), false, nil
			}
			return fmt.Sprintf("partitioned roll out complete: %d new pods have been updated...\n", s.UpdatedReplicas), true, nil
		}
		if s.UpdateRevision != s.CurrentRevision {
			return fmt.Sprintf("waiting for statefulset rolling update to complete %d pods at revision %s...\n", s.UpdatedReplicas, s.UpdateRevision), false, nil
		}
		return fmt.Sprintf("statefulset rolling update complete %d pods at revision %s...\n", s.CurrentReplicas, s.CurrentRevision), true, nil
	},
	// Settled when its replicas are ready and of its latest revision (but
	// the partition's).
	Moving: func(st *api.StatefulSet, _ Progress) string {
		want := api.Deref(st.Spec.Replicas, 1)
		s := st.Status
		switch {
		case s.ObservedGeneration < st.Generation:
			return fmt.Sprintf("statefulset %s: its controller has not seen generation %d", st.Name, st.Generation)
		case s.Replicas != want || s.ReadyReplicas != want:
			return fmt.Sprintf("statefulset %s: %d of %d pods ready", st.Name, s.ReadyReplicas, want)
		case st.Spec.UpdateStrategy.Type == api.RollingUpdateStrategy && s.UpdatedReplicas < want-partitionOf(st):
			return fmt.Sprintf("statefulset %s: rolling update to %s, %d of %d pods updated", st.Name, s.UpdateRevision, s.UpdatedReplicas, want)
		}
		return ""
	},
	Replicas:    func(s *api.StatefulSet) **int32 { return &s.Spec.Replicas },
	PodTemplate: func(s *api.StatefulSet) *api.PodTemplateSpec { return &s.Spec.Template },
	Describe:    withEvents(describeStatefulSet),
})

// partitionOf is the ordinal below which a StatefulSet's rolling update
// keeps the old template.
func partitionOf(st *api.StatefulSet) int32 {
	if ru := st.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
		return min(*ru.Partition, api.Deref(st.Spec.Replicas, 1))
	}
	return 0
}

func describeStatefulSet(w *Describer, s *api.StatefulSet) {
	w.Line(0, "Name:\t%s\n", s.Name)
	w.Line(0, "Namespace:\t%s\n", s.Namespace)
	w.Line(0, "CreationTimestamp:\t%s\n", when(s.CreationTimestamp))
	w.Line(0, "Selector:\t%s\n", FormatSelector(s.Spec.Selector))
	labelsBlock(w, "Labels", s.Labels)
	annotationsBlock(w, "Annotations", s.Annotations)
	w.Line(0, "Replicas:\t%d desired | %d total\n", api.Deref(s.Spec.Replicas, 1), s.Status.Replicas)
	w.Line(0, "Update Strategy:\t%s\n", s.Spec.UpdateStrategy.Type)
	if ru := s.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
		w.Line(0, "  Partition:\t%d\n", *ru.Partition)
	}
	r, wt, sc, f := w.podCounts(s.UID)
	w.Line(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed\n", r, wt, sc, f)
	DescribePodTemplate(w, &s.Spec.Template)
	if len(s.Spec.VolumeClaimTemplates) == 0 {
		w.Line(0, "Volume Claims:\t<none>\n")
		return
	}
	w.Line(0, "Volume Claims:\n")
	for _, c := range s.Spec.VolumeClaimTemplates {
		w.Line(1, "Name:\t%s\n", c.Name)
		w.Line(1, "StorageClass:\t%s\n", DerefOr(c.Spec.StorageClassName, ""))
		labelsBlock(w, "  Labels", c.Labels)
		annotationsBlock(w, "  Annotations", c.Annotations)
		w.Line(1, "Capacity:\t%s\n", c.Spec.Resources.Requests["storage"])
		w.Line(1, "Access Modes:\t[%s]\n", strings.Join(c.Spec.AccessModes, " "))
	}
}
