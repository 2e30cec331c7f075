package kinds

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

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
	// Settled when kubectl rollout status would return: the rollout is
	// complete, or has exceeded its progress deadline.
	Moving: func(d *api.Deployment, _ Progress) string {
		if d.DeletionTimestamp != nil {
			return "" // going: the check of objects being deleted says so
		}
		switch line, done, err := DeploymentRolloutStatus(d); {
		case err != nil:
			return fmt.Sprintf("deployment %s: %s", d.Name, deadlineExceeded(d))
		case !done:
			return fmt.Sprintf("deployment %s: %s", d.Name, strings.TrimSpace(line))
		}
		return ""
	},
	Describe: withEvents(describeDeployment),
})

func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

func describeDeployment(w *Describer, d *api.Deployment) {
	w.Line(0, "Name:\t%s\n", d.Name)
	w.Line(0, "Namespace:\t%s\n", d.Namespace)
	w.Line(0, "CreationTimestamp:\t%s\n", when(d.CreationTimestamp))
	labelsBlock(w, "Labels", d.Labels)
	annotationsBlock(w, "Annotations", d.Annotations)
	w.Line(0, "Selector:\t%s\n", strings.TrimSuffix(FormatSelector(d.Spec.Selector), "<none>"))
	w.Line(0, "Replicas:\t%d desired | %d updated | %d total | %d available | %d unavailable\n",
		api.Deref(d.Spec.Replicas, 1), d.Status.UpdatedReplicas, d.Status.Replicas, d.Status.AvailableReplicas, d.Status.UnavailableReplicas)
	w.Line(0, "StrategyType:\t%s\n", d.Spec.Strategy.Type)
	w.Line(0, "MinReadySeconds:\t%d\n", d.Spec.MinReadySeconds)
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		w.Line(0, "RollingUpdateStrategy:\t%s max unavailable, %s max surge\n", intOrString(ru.MaxUnavailable), intOrString(ru.MaxSurge))
	}
	DescribePodTemplate(w, &d.Spec.Template)
	if len(d.Status.Conditions) > 0 {
		w.Line(0, "Conditions:\n  Type\tStatus\tReason\n")
		w.Line(1, "----\t------\t------\n")
		for _, c := range d.Status.Conditions {
			w.Line(1, "%v \t%v\t%v\n", c.Type, c.Status, c.Reason)
		}
	}
	rss := ownedReplicaSets(w, d)
	sort.SliceStable(rss, func(i, j int) bool {
		if rss[i].CreationTimestamp == rss[j].CreationTimestamp {
			return rss[i].Name < rss[j].Name
		}
		return rss[i].CreationTimestamp < rss[j].CreationTimestamp
	})
	var newRS *api.ReplicaSet
	for _, rs := range rss {
		if newRS == nil && EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			newRS = rs
		}
	}
	var old, cur []string
	for _, rs := range rss {
		s := fmt.Sprintf("%s (%d/%d replicas created)", rs.Name, rs.Status.Replicas, api.Deref(rs.Spec.Replicas, 1))
		if rs == newRS {
			cur = append(cur, s)
		} else {
			old = append(old, s)
		}
	}
	if len(rss) > 0 {
		w.Line(0, "OldReplicaSets:\t%s\n", OrNone(strings.Join(old, ", ")))
		w.Line(0, "NewReplicaSet:\t%s\n", OrNone(strings.Join(cur, ", ")))
	}
}

func intOrString(v *api.IntOrString) string {
	if v == nil {
		return "0"
	}
	return v.String()
}

// EqualIgnoreHash reports whether two pod templates are the same but for
// their pod-template-hash label: whether a ReplicaSet's template is a
// Deployment's.
func EqualIgnoreHash(a, b *api.PodTemplateSpec) bool {
	x, y := a.DeepCopy(), b.DeepCopy()
	delete(x.Labels, podTemplateHashLabel)
	delete(y.Labels, podTemplateHashLabel)
	if len(x.Labels) == 0 {
		x.Labels = nil
	}
	if len(y.Labels) == 0 {
		y.Labels = nil
	}
	x.CreationTimestamp, y.CreationTimestamp = 0, 0
	return reflect.DeepEqual(x, y)
}

// podTemplateHashLabel is the label the deployment controller gives a
// ReplicaSet's template (controller.PodTemplateHashLabel).
const podTemplateHashLabel = "pod-template-hash"

// ownedReplicaSets are the ReplicaSets d controls.
func ownedReplicaSets(w *Describer, d *api.Deployment) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, o := range w.Store.List("ReplicaSet") {
		rs := o.(*api.ReplicaSet)
		if ref := rs.ControllerOf(); ref != nil && ref.UID == d.UID {
			out = append(out, rs)
		}
	}
	return out
}

// DeploymentRolloutStatus is one look of kubectl rollout status at a
// Deployment (its status viewer): the line it prints, whether the rollout
// is done, and the error that ends it.
func DeploymentRolloutStatus(d *api.Deployment) (line string, done bool, err error) {
	if d.Generation > d.Status.ObservedGeneration {
		return "Waiting for deployment spec update to be observed...\n", false, nil
	}
	for _, c := range d.Status.Conditions {
		if c.Type == "Progressing" && c.Reason == "ProgressDeadlineExceeded" {
			return "", false, errors.New("error: " + deadlineExceeded(d))
		}
	}
	want := api.Deref(d.Spec.Replicas, 1)
	st := d.Status
	switch {
	case st.UpdatedReplicas < want:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d out of %d new replicas have been updated...\n", d.Name, st.UpdatedReplicas, want), false, nil
	case st.Replicas > st.UpdatedReplicas:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d old replicas are pending termination...\n", d.Name, st.Replicas-st.UpdatedReplicas), false, nil
	case st.AvailableReplicas < st.UpdatedReplicas:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d of %d updated replicas are available...\n", d.Name, st.AvailableReplicas, st.UpdatedReplicas), false, nil
	}
	return fmt.Sprintf("deployment %q successfully rolled out\n", d.Name), true, nil
}

// deadlineExceeded is rollout status's words for a rollout past its
// progress deadline.
func deadlineExceeded(d *api.Deployment) string {
	return fmt.Sprintf("deployment %q exceeded its progress deadline", d.Name)
}
