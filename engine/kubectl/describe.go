package kubectl

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"reconcile/engine/api"
	"reconcile/engine/controller"
)

func (k *cmd) describe(args []string) (string, error) {
	kind, name, _, err := target(args)
	if err != nil {
		return "", err
	}
	o, err := k.obj(kind, name)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	m := o.Meta()
	fmt.Fprintf(&b, "Name:               %s\n", m.Name)
	if m.Namespace != "" {
		fmt.Fprintf(&b, "Namespace:          %s\n", m.Namespace)
	}
	fmt.Fprintf(&b, "CreationTimestamp:  %s\n", m.CreationTimestamp.Wall().Format("Mon, 02 Jan 2006 15:04:05 -0700"))
	switch t := o.(type) {
	case *api.Deployment:
		fmt.Fprintf(&b, "Generation:         %d (observed %d)\n", t.Generation, t.Status.ObservedGeneration)
		fmt.Fprintf(&b, "Replicas:           %d desired | %d updated | %d total | %d available | %d unavailable\n",
			api.Deref(t.Spec.Replicas, 1), t.Status.UpdatedReplicas, t.Status.Replicas, t.Status.AvailableReplicas, t.Status.UnavailableReplicas)
		fmt.Fprintf(&b, "StrategyType:       %s\n", t.Spec.Strategy.Type)
		if ru := t.Spec.Strategy.RollingUpdate; ru != nil && ru.MaxUnavailable != nil && ru.MaxSurge != nil {
			fmt.Fprintf(&b, "RollingUpdateStrategy:  %s max unavailable, %s max surge\n", ru.MaxUnavailable, ru.MaxSurge)
		}
		b.WriteString("Conditions:\n  Type           Status  Reason\n  ----           ------  ------\n")
		for _, c := range t.Status.Conditions {
			fmt.Fprintf(&b, "  %-14s %-7s %s\n", c.Type, c.Status, c.Reason)
		}
		var old []string
		newRS := "<none>"
		for _, rs := range k.owned(t) {
			line := fmt.Sprintf("%s (%d/%d replicas created)", rs.Name, rs.Status.Replicas, api.Deref(rs.Spec.Replicas, 1))
			if rs.Annotations[controller.RevisionAnnotation] == t.Annotations[controller.RevisionAnnotation] {
				newRS = line
			} else if rs.Status.Replicas > 0 || api.Deref(rs.Spec.Replicas, 1) > 0 {
				old = append(old, line)
			}
		}
		if len(old) == 0 {
			old = []string{"<none>"}
		}
		fmt.Fprintf(&b, "OldReplicaSets:  %s\nNewReplicaSet:   %s\n", strings.Join(old, ", "), newRS)
	case *api.Pod:
		node := t.Spec.NodeName
		if node == "" {
			node = "<none>"
		}
		fmt.Fprintf(&b, "Node:               %s\n", node)
		fmt.Fprintf(&b, "Status:             %s\n", t.Status.Phase)
		if t.DeletionTimestamp != nil {
			fmt.Fprintf(&b, "Terminating:        since %s\n", t.DeletionTimestamp.Wall().Format("Mon, 02 Jan 2006 15:04:05 -0700"))
		}
		b.WriteString("Containers:\n")
		for i, c := range t.Spec.Containers {
			fmt.Fprintf(&b, "  %s:\n    Image:          %s\n", c.Name, c.Image)
			if i >= len(t.Status.ContainerStatuses) {
				continue
			}
			cs := t.Status.ContainerStatuses[i]
			if cs.ImageID != "" {
				fmt.Fprintf(&b, "    Image ID:       %s\n", cs.ImageID)
			}
			describeState(&b, "State", cs.State)
			if cs.LastState.Waiting != nil || cs.LastState.Running != nil || cs.LastState.Terminated != nil {
				describeState(&b, "Last State", cs.LastState)
			}
			fmt.Fprintf(&b, "    Ready:          %v\n    Restart Count:  %d\n", cs.Ready, cs.RestartCount)
		}
		b.WriteString("Conditions:\n  Type              Status\n")
		for _, c := range t.Status.Conditions {
			fmt.Fprintf(&b, "  %-17s %s\n", c.Type, c.Status)
		}
	case *api.Node:
		b.WriteString("Taints:             ")
		if len(t.Spec.Taints) == 0 {
			b.WriteString("<none>\n")
		}
		for i, tt := range t.Spec.Taints {
			if i > 0 {
				b.WriteString("                    ")
			}
			fmt.Fprintf(&b, "%s:%s\n", tt.Key, tt.Effect)
		}
		fmt.Fprintf(&b, "Unschedulable:      %v\n", t.Spec.Unschedulable)
		b.WriteString("Conditions:\n  Type             Status  Reason                       Message\n")
		for _, c := range t.Status.Conditions {
			fmt.Fprintf(&b, "  %-16s %-7s %-28s %s\n", c.Type, c.Status, c.Reason, c.Message)
		}
	}
	b.WriteString("Events:\n")
	evs := k.st.EventsFor(kind, m.Namespace, name)
	if len(evs) == 0 {
		b.WriteString("  <none>\n")
		return b.String(), nil
	}
	w := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(w, "  Type\tReason\tAge\tFrom\tMessage")
	fmt.Fprintln(w, "  ----\t------\t----\t----\t-------")
	for _, e := range evs {
		a := age(k.now, e.LastTimestamp)
		if e.Count > 1 {
			a = fmt.Sprintf("%s (x%d over %s)", a, e.Count, age(k.now, e.FirstTimestamp))
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t%s\n", e.Type, e.Reason, a, e.Source.Component, e.Message)
	}
	w.Flush()
	return b.String(), nil
}

func describeState(b *strings.Builder, label string, st api.ContainerState) {
	switch {
	case st.Waiting != nil:
		fmt.Fprintf(b, "    %-15s Waiting\n      Reason:       %s\n", label+":", st.Waiting.Reason)
		if st.Waiting.Message != "" {
			fmt.Fprintf(b, "      Message:      %s\n", st.Waiting.Message)
		}
	case st.Running != nil:
		fmt.Fprintf(b, "    %-15s Running\n      Started:      %s\n", label+":", st.Running.StartedAt.Wall().Format("Mon, 02 Jan 2006 15:04:05 -0700"))
	case st.Terminated != nil:
		fmt.Fprintf(b, "    %-15s Terminated\n      Reason:       %s\n      Exit Code:    %d\n", label+":", st.Terminated.Reason, st.Terminated.ExitCode)
	}
}
