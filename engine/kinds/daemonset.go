package kinds

import (
	"errors"
	"fmt"
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.DaemonSet]{
	Kind:            "DaemonSet",
	Default:         validation.DefaultDaemonSet,
	Validate:        validation.ValidateDaemonSet,
	ValidateUpdate:  validation.ValidateDaemonSetUpdate,
	BumpsGeneration: func(old, new *api.DaemonSet) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.DaemonSet) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.DaemonSet) { obj.Spec = old.Spec },
	Columns: append([]TypedColumn[*api.DaemonSet]{Name[*api.DaemonSet](),
		{Name: "DESIRED", Cell: func(d *api.DaemonSet, _ api.Time) string { return itoa(d.Status.DesiredNumberScheduled) }},
		{Name: "CURRENT", Cell: func(d *api.DaemonSet, _ api.Time) string { return itoa(d.Status.CurrentNumberScheduled) }},
		{Name: "READY", Cell: func(d *api.DaemonSet, _ api.Time) string { return itoa(d.Status.NumberReady) }},
		{Name: "UP-TO-DATE", Cell: func(d *api.DaemonSet, _ api.Time) string { return itoa(d.Status.UpdatedNumberScheduled) }},
		{Name: "AVAILABLE", Cell: func(d *api.DaemonSet, _ api.Time) string { return itoa(d.Status.NumberAvailable) }},
		{Name: "NODE SELECTOR", Cell: func(d *api.DaemonSet, _ api.Time) string { return FormatLabels(d.Spec.Template.Spec.NodeSelector) }},
		Age[*api.DaemonSet](),
	}, Workload(func(d *api.DaemonSet) (*api.PodTemplateSpec, *api.LabelSelector) {
		return &d.Spec.Template, d.Spec.Selector
	}, true)...),
	RolloutStatus: func(t *api.DaemonSet) (string, bool, error) {
		if t.Spec.UpdateStrategy.Type != api.RollingUpdateStrategy {
			return "", true, errors.New("error: rollout status is only available for RollingUpdate strategy type")
		}
		if t.Generation > t.Status.ObservedGeneration {
			return "Waiting for daemon set spec update to be observed...\n", false, nil
		}
		s := t.Status
		if s.UpdatedNumberScheduled < s.DesiredNumberScheduled {
			return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d out of %d new pods have been updated...\n", t.Name, s.UpdatedNumberScheduled, s.DesiredNumberScheduled), false, nil
		}
		if s.NumberAvailable < s.DesiredNumberScheduled {
			return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d of %d updated pods are available...\n", t.Name, s.NumberAvailable, s.DesiredNumberScheduled), false, nil
		}
		return fmt.Sprintf("daemon set %q successfully rolled out\n", t.Name), true, nil
	},
	// Settled when every eligible node runs an up-to-date, available pod.
	Moving: func(d *api.DaemonSet, _ Progress) string {
		s := d.Status
		switch {
		case s.ObservedGeneration < d.Generation:
			return fmt.Sprintf("daemonset %s: its controller has not seen generation %d", d.Name, d.Generation)
		case s.NumberAvailable != s.DesiredNumberScheduled || s.CurrentNumberScheduled != s.DesiredNumberScheduled ||
			(s.UpdatedNumberScheduled != s.DesiredNumberScheduled && d.Spec.UpdateStrategy.Type != api.OnDeleteStrategy):
			return fmt.Sprintf("daemonset %s: %d of %d updated pods are available", d.Name, s.NumberAvailable, s.DesiredNumberScheduled)
		}
		return ""
	},
	PodTemplate: func(d *api.DaemonSet) *api.PodTemplateSpec { return &d.Spec.Template },
	Describe:    withEvents(describeDaemonSet),
})

func describeDaemonSet(w *Describer, d *api.DaemonSet) {
	w.Line(0, "Name:\t%s\n", d.Name)
	w.Line(0, "Namespace:\t%s\n", d.Namespace)
	w.Line(0, "Selector:\t%s\n", FormatSelector(d.Spec.Selector))
	w.Line(0, "Node-Selector:\t%s\n", FormatLabels(d.Spec.Template.Spec.NodeSelector))
	labelsBlock(w, "Labels", d.Labels)
	annotationsBlock(w, "Annotations", d.Annotations)
	s := d.Status
	w.Line(0, "Desired Number of Nodes Scheduled: %d\n", s.DesiredNumberScheduled)
	w.Line(0, "Current Number of Nodes Scheduled: %d\n", s.CurrentNumberScheduled)
	w.Line(0, "Number of Nodes Scheduled with Up-to-date Pods: %d\n", s.UpdatedNumberScheduled)
	w.Line(0, "Number of Nodes Scheduled with Available Pods: %d\n", s.NumberAvailable)
	w.Line(0, "Number of Nodes Misscheduled: %d\n", s.NumberMisscheduled)
	r, wt, sc, f := w.podCounts(d.UID)
	w.Line(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed\n", r, wt, sc, f)
	DescribePodTemplate(w, &d.Spec.Template)
}
