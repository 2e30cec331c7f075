package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
)

// The columns kubectl get prints for each kind, as the API server's table
// printers lay them out; wide adds the -o wide columns.

// headers returns a kind's column names.
func headers(kind string, wide bool) []string {
	h, w := columnsOf(kind)
	if wide {
		return append(append([]string(nil), h...), w...)
	}
	return h
}

func columnsOf(kind string) (base, wide []string) {
	if b, ok := kinds.Headers(kind, false); ok {
		all, _ := kinds.Headers(kind, true)
		return b, all[len(b):]
	}
	switch kind {
	case "Pod":
		return []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}, []string{"IP", "NODE", "NOMINATED NODE", "READINESS GATES"}
	case "MutatingWebhookConfiguration":
		return []string{"NAME", "WEBHOOKS", "AGE"}, nil
	case "ConfigMap":
		return []string{"NAME", "DATA", "AGE"}, nil
	case "Secret":
		return []string{"NAME", "TYPE", "DATA", "AGE"}, nil
	}
	return []string{"NAME", "AGE"}, nil
}

// cells returns an object's cells, in the order of headers.
func (k *cmd) cells(o api.Object, wide bool) []string {
	now := k.now
	m := o.Meta()
	if c, ok := kinds.Cells(o, now, wide); ok {
		return c
	}
	var c []string
	switch t := o.(type) {
	case *api.Pod:
		ready, restarts := podReady(t, now)
		c = []string{t.Name, ready, PodStatus(t), restarts, age(now, t.CreationTimestamp)}
		if wide {
			c = append(c, orNone(t.Status.PodIP), orNone(t.Spec.NodeName), "<none>", "<none>")
		}
	case *api.Unstructured:
		c = unstructuredCells(t, now, wide)
	default:
		c = []string{m.Name, age(now, m.CreationTimestamp)}
	}
	return c
}

func unstructuredCells(u *api.Unstructured, now api.Time, wide bool) []string {
	a := age(now, u.CreationTimestamp)
	str := func(v any, def string) string {
		if s, ok := v.(string); ok && s != "" {
			return s
		}
		return def
	}
	switch u.Kind {
	case "Service":
		var ports []string
		list, _ := u.Spec["ports"].([]any)
		for _, p := range list {
			pm, _ := p.(map[string]any)
			port := fmt.Sprint(pm["port"])
			if np, ok := pm["nodePort"]; ok {
				port += ":" + fmt.Sprint(np)
			}
			ports = append(ports, port+"/"+str(pm["protocol"], "TCP"))
		}
		external := "<none>"
		if t := str(u.Spec["type"], "ClusterIP"); t == "LoadBalancer" {
			external = "<pending>"
		}
		c := []string{u.Name, str(u.Spec["type"], "ClusterIP"), str(u.Spec["clusterIP"], "<none>"), external, orNone(strings.Join(ports, ",")), a}
		if wide {
			sel, _ := u.Spec["selector"].(map[string]any)
			var parts []string
			for _, k := range sortedKeys(sel) {
				parts = append(parts, k+"="+fmt.Sprint(sel[k]))
			}
			c = append(c, orNone(strings.Join(parts, ",")))
		}
		return c
	case "ConfigMap":
		return []string{u.Name, fmt.Sprint(len(u.Data)), a}
	case "Secret":
		return []string{u.Name, "Opaque", fmt.Sprint(len(u.Data)), a}
	case "Namespace":
		return []string{u.Name, "Active", a}
	}
	return []string{u.Name, a}
}

func orNone(s string) string { return kinds.OrNone(s) }

func sortedQuantityKeys(m map[string]api.Quantity) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// FormatSelector renders a label selector as kubectl does: "app=web",
// "env in (prod,qa),tier", or "<none>".
func FormatSelector(s *api.LabelSelector) string { return kinds.FormatSelector(s) }

func nodeRoles(n *api.Node) string { return kinds.NodeRoles(n) }

// PodStatus is the STATUS column of kubectl get pods.
func PodStatus(p *api.Pod) string {
	s := p.Status.Phase
	if p.Status.Reason != "" {
		s = p.Status.Reason
	}
	for _, c := range p.Status.Conditions {
		if c.Type == "PodScheduled" && c.Reason == "SchedulingGated" {
			s = c.Reason
		}
	}
	if is, initializing := initStatus(p); initializing && !initInitialized(p) {
		s = is
		if p.DeletionTimestamp != nil {
			s = "Terminating"
		}
		return s
	}
	for i := len(p.Status.ContainerStatuses) - 1; i >= 0; i-- {
		cs := p.Status.ContainerStatuses[i]
		if cs.State.Waiting != nil && cs.State.Waiting.Reason != "" {
			s = cs.State.Waiting.Reason
		} else if cs.State.Terminated != nil && cs.State.Terminated.Reason != "" {
			s = cs.State.Terminated.Reason
		}
	}
	s = completedButRunning(p, s)
	if p.DeletionTimestamp != nil {
		s = "Terminating"
	}
	return s
}

// NodeStatus is the STATUS column of kubectl get nodes.
func NodeStatus(n *api.Node) string { return kinds.NodeStatus(n) }

// podReady returns READY ("1/2") and RESTARTS ("3 (45s ago)") of a pod.
func podReady(p *api.Pod, now api.Time) (string, string) {
	sidecars, ready, restarts, last, initializing := sidecarReady(p)
	for _, cs := range p.Status.ContainerStatuses {
		if initializing {
			break
		}
		if cs.Ready {
			ready++
		}
		restarts += cs.RestartCount
		if t := cs.LastState.Terminated; t != nil && (last == nil || *last < t.FinishedAt) {
			f := t.FinishedAt
			last = &f
		}
	}
	r := fmt.Sprint(restarts)
	if restarts != 0 && last != nil {
		r = fmt.Sprintf("%d (%s ago)", restarts, age(now, *last))
	}
	return fmt.Sprintf("%d/%d", ready, len(p.Spec.Containers)+sidecars), r
}
func derefOr(p *string, def string) string { return kinds.DerefOr(p, def) }

// accessModes abbreviates access modes as kubectl does: RWO, ROX, RWX,
// RWOP, in that order.
func accessModes(modes []string) string { return kinds.AccessModes(modes) }
