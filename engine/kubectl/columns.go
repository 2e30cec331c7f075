package kubectl

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
)

// The columns kubectl get prints for each kind, as the API server's table
// printers lay them out; wide adds the -o wide columns.

// headers returns a kind's column names.
func headers(kind string, wide bool) []string {
	if h, ok := kinds.Headers(kind, wide); ok {
		return h // the wide ones in their places (an event's SUBOBJECT, SOURCE)
	}
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
	case "MutatingWebhookConfiguration":
		return []string{"NAME", "WEBHOOKS", "AGE"}, nil
	case "ConfigMap":
		return []string{"NAME", "DATA", "AGE"}, nil
	case "Secret":
		return []string{"NAME", "TYPE", "DATA", "AGE"}, nil
	case "ServiceAccount":
		return []string{"NAME", "SECRETS", "AGE"}, nil
	}
	return []string{"NAME", "AGE"}, nil
}

// cells returns an object's cells, in the order of headers.
func (k *cmd) cells(o api.Object, wide bool) []string {
	now := k.now
	if c, ok := kinds.Cells(o, now, wide); ok {
		return c
	}
	if u, ok := o.(*api.Unstructured); ok {
		return unstructuredCells(u, now, wide)
	}
	m := o.Meta()
	return []string{m.Name, age(now, m.CreationTimestamp)}
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
	case "ServiceAccount":
		secrets, _ := u.Fields["secrets"].([]any)
		return []string{u.Name, fmt.Sprint(len(secrets)), a}
	}
	return []string{u.Name, a}
}

func orNone(s string) string { return kinds.OrNone(s) }

// FormatSelector renders a label selector as kubectl does: "app=web",
// "env in (prod,qa),tier", or "<none>".
func FormatSelector(s *api.LabelSelector) string { return kinds.FormatSelector(s) }

// PodStatus is the STATUS column of kubectl get pods.
func PodStatus(p *api.Pod) string { return kinds.PodStatus(p) }

// NodeStatus is the STATUS column of kubectl get nodes.
func NodeStatus(n *api.Node) string { return kinds.NodeStatus(n) }
