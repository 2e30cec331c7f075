package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/selector"
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
	workload := []string{"CONTAINERS", "IMAGES", "SELECTOR"}
	if b, w, ok := workloadColumns(kind); ok {
		return b, w
	}
	switch kind {
	case "Pod":
		return []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}, []string{"IP", "NODE", "NOMINATED NODE", "READINESS GATES"}
	case "Deployment":
		return []string{"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"}, workload
	case "ReplicaSet":
		return []string{"NAME", "DESIRED", "CURRENT", "READY", "AGE"}, workload
	case "Job":
		return []string{"NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"}, workload
	case "Node":
		return []string{"NAME", "STATUS", "ROLES", "AGE", "VERSION"}, []string{"INTERNAL-IP", "EXTERNAL-IP", "OS-IMAGE", "KERNEL-VERSION", "CONTAINER-RUNTIME"}
	case "Event":
		return []string{"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"}, nil
	case "ResourceQuota":
		return []string{"NAME", "AGE", "REQUEST", "LIMIT"}, nil
	case "Lease":
		return []string{"NAME", "HOLDER", "AGE"}, nil
	case "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration":
		return []string{"NAME", "WEBHOOKS", "AGE"}, nil
	case "Service":
		return []string{"NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"}, []string{"SELECTOR"}
	case "EndpointSlice":
		return []string{"NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"}, nil
	case "Endpoints":
		return []string{"NAME", "ENDPOINTS", "AGE"}, nil
	case "ConfigMap":
		return []string{"NAME", "DATA", "AGE"}, nil
	case "Secret":
		return []string{"NAME", "TYPE", "DATA", "AGE"}, nil
	case "Namespace":
		return []string{"NAME", "STATUS", "AGE"}, nil
	case "HorizontalPodAutoscaler":
		return []string{"NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS", "AGE"}, nil
	case "LimitRange":
		return []string{"NAME", "CREATED AT"}, nil
	}
	return []string{"NAME", "AGE"}, nil
}

// cells returns an object's cells, in the order of headers.
func (k *cmd) cells(o api.Object, wide bool) []string {
	now := k.now
	m := o.Meta()
	if c, ok := k.workloadCells(o, wide); ok {
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
	case *api.Deployment:
		c = []string{t.Name, fmt.Sprintf("%d/%d", t.Status.ReadyReplicas, api.Deref(t.Spec.Replicas, 1)),
			fmt.Sprint(t.Status.UpdatedReplicas), fmt.Sprint(t.Status.AvailableReplicas), age(now, t.CreationTimestamp)}
		if wide {
			c = append(c, workloadCells(&t.Spec.Template, t.Spec.Selector)...)
		}
	case *api.ReplicaSet:
		c = []string{t.Name, fmt.Sprint(api.Deref(t.Spec.Replicas, 1)), fmt.Sprint(t.Status.Replicas), fmt.Sprint(t.Status.ReadyReplicas), age(now, t.CreationTimestamp)}
		if wide {
			c = append(c, workloadCells(&t.Spec.Template, t.Spec.Selector)...)
		}
	case *api.Job:
		c = []string{t.Name, jobStatus(t), jobCompletions(t), k.jobDuration(t), age(now, t.CreationTimestamp)}
		if wide {
			c = append(c, workloadCells(&t.Spec.Template, t.Spec.Selector)...)
		}
	case *api.Node:
		info := api.NodeSystemInfo{}
		if t.Status.NodeInfo != nil {
			info = *t.Status.NodeInfo
		}
		version := info.KubeletVersion
		if version == "" {
			version = "v1.34.0"
		}
		c = []string{t.Name, NodeStatus(t), nodeRoles(t), age(now, t.CreationTimestamp), version}
		if wide {
			internal, external := "<none>", "<none>"
			for _, a := range t.Status.Addresses {
				switch a.Type {
				case "InternalIP":
					internal = a.Address
				case "ExternalIP":
					external = a.Address
				}
			}
			c = append(c, internal, external, orUnknown(info.OSImage), orUnknown(info.KernelVersion), orUnknown(info.ContainerRuntimeVersion))
		}
	case *api.Event:
		target := api.LowerKind(t.InvolvedObject.Kind)
		if t.InvolvedObject.Name != "" {
			target += "/" + t.InvolvedObject.Name
		}
		c = []string{age(now, t.LastTimestamp), t.Type, t.Reason, target, strings.TrimSpace(t.Message)}
	case *api.ResourceQuota:
		var req, lim []string
		for _, r := range sortedQuantityKeys(t.Spec.Hard) {
			used := t.Status.Used[r]
			if used == "" {
				used = "0"
			}
			s := fmt.Sprintf("%s: %s/%s", r, used, t.Spec.Hard[r])
			if strings.HasPrefix(r, "limits.") {
				lim = append(lim, s)
			} else {
				req = append(req, s)
			}
		}
		c = []string{t.Name, age(now, t.CreationTimestamp), strings.Join(req, ", "), strings.Join(lim, ", ")}
	case *api.Lease:
		c = []string{t.Name, t.Spec.HolderIdentity, age(now, t.CreationTimestamp)}
	case *api.ValidatingWebhookConfiguration:
		c = []string{t.Name, fmt.Sprint(len(t.Webhooks)), age(now, t.CreationTimestamp)}
	case *api.Namespace:
		c = []string{t.Name, t.Status.Phase, age(now, t.CreationTimestamp)}
	case *api.HorizontalPodAutoscaler:
		c = hpaCells(t, now)
	case *api.LimitRange:
		c = []string{t.Name, createdAt(t.CreationTimestamp)}
	case *api.Service, *api.EndpointSlice, *api.Endpoints:
		c = k.serviceCells(o, wide)
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

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "<unknown>"
	}
	return s
}

func sortedQuantityKeys(m map[string]api.Quantity) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// workloadCells are the wide columns of a workload: its containers, their
// images and its selector.
func workloadCells(t *api.PodTemplateSpec, sel *api.LabelSelector) []string {
	var names, images []string
	for _, c := range t.Spec.Containers {
		names = append(names, c.Name)
		images = append(images, c.Image)
	}
	return []string{strings.Join(names, ","), strings.Join(images, ","), FormatSelector(sel)}
}

// FormatSelector renders a label selector as kubectl does: "app=web",
// "env in (prod,qa),tier", or "<none>".
func FormatSelector(s *api.LabelSelector) string {
	if s == nil {
		return "<none>"
	}
	var reqs selector.Labels
	for k, v := range s.MatchLabels {
		reqs = append(reqs, selector.Requirement{Key: k, Operator: selector.Equals, Values: []string{v}})
	}
	for _, e := range s.MatchExpressions {
		op := map[string]selector.Operator{"In": selector.In, "NotIn": selector.NotIn, "Exists": selector.Exists, "DoesNotExist": selector.DoesNotExist}[e.Operator]
		vals := append([]string(nil), e.Values...)
		sort.Strings(vals)
		reqs = append(reqs, selector.Requirement{Key: e.Key, Operator: op, Values: vals})
	}
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].Key < reqs[j].Key })
	return orNone(reqs.String())
}

func nodeRoles(n *api.Node) string {
	var roles []string
	for k, v := range n.Labels {
		switch {
		case strings.HasPrefix(k, "node-role.kubernetes.io/"):
			if r := strings.TrimPrefix(k, "node-role.kubernetes.io/"); r != "" {
				roles = append(roles, r)
			}
		case k == "kubernetes.io/role" && v != "":
			roles = append(roles, v)
		}
	}
	sort.Strings(roles)
	return orNone(strings.Join(roles, ","))
}

func jobStatus(j *api.Job) string {
	status := "Running"
	for _, c := range j.Status.Conditions {
		if c.Status != "True" {
			continue
		}
		switch c.Type {
		case "Complete":
			status = "Complete"
		case "Failed":
			status = "Failed"
		}
	}
	return status
}

func jobCompletions(j *api.Job) string {
	switch {
	case j.Spec.Completions != nil:
		return fmt.Sprintf("%d/%d", j.Status.Succeeded, *j.Spec.Completions)
	case j.Spec.Parallelism != nil && *j.Spec.Parallelism > 1:
		return fmt.Sprintf("%d/1 of %d", j.Status.Succeeded, *j.Spec.Parallelism)
	}
	return fmt.Sprintf("%d/1", j.Status.Succeeded)
}

func (k *cmd) jobDuration(j *api.Job) string {
	if j.Status.StartTime == nil {
		return "<none>"
	}
	end := k.now
	if j.Status.CompletionTime != nil {
		end = *j.Status.CompletionTime
	}
	return api.HumanDuration(end - *j.Status.StartTime)
}

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
func NodeStatus(n *api.Node) string {
	s := "Unknown"
	for _, c := range n.Status.Conditions {
		if c.Type == "Ready" {
			s = "NotReady"
			if c.Status == "True" {
				s = "Ready"
			}
		}
	}
	if n.Spec.Unschedulable {
		s += ",SchedulingDisabled"
	}
	return s
}

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
