package kubectl

import (
	"fmt"
	"io"
	"net"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode"

	"reconcile/engine/api"
	"reconcile/engine/controller"
)

// describe prints objects as kubectl describe does: each kind's sections
// in kubectl's order, laid out by one tab writer, then its events.
func (k *cmd) describe() (string, error) {
	in := k.in
	if len(in.Args) == 0 {
		return "", fmt.Errorf("error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.")
	}
	if ts, err := targets(in.Args); err == nil {
		k.warnEndpoints(ts)
	}
	objs, errs, err := k.resolve(in.Args, false)
	if err != nil {
		return "", err
	}
	if len(objs) == 0 && len(errs) == 1 && len(in.Args) == 2 && !strings.Contains(in.Args[0], "/") {
		// kubectl describe pod web describes the pods whose names start with web.
		if out, ok := k.describePrefix(in.Args[0], in.Args[1]); ok {
			return out, nil
		}
	}
	var b strings.Builder
	for i, f := range objs {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(k.describeOne(f))
	}
	if len(objs) == 0 && len(errs) == 0 {
		ts, _ := targets(in.Args)
		b.WriteString(k.noneFound(ts))
	}
	return b.String(), errorsText(errs)
}

func (k *cmd) describePrefix(kindWord, prefix string) (string, bool) {
	kinds, err := kindsOf(kindWord)
	if err != nil || len(kinds) != 1 {
		return "", false
	}
	objs, err := k.list(kinds[0], selection{namespace: k.ns})
	if err != nil {
		return "", false
	}
	var b strings.Builder
	for _, o := range objs {
		if strings.HasPrefix(o.Meta().Name, prefix) {
			b.WriteString(k.describeOne(found{kinds[0], o}) + "\n")
		}
	}
	return b.String(), b.Len() > 0
}

// pw writes describe's lines: two spaces of indent per level, cells split
// by tabs and aligned by one tab writer.
type pw struct{ w *tabwriter.Writer }

func newPrefixWriter(out io.Writer) *pw { return &pw{tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)} }

func (p *pw) line(level int, format string, a ...any) {
	fmt.Fprintf(p.w, strings.Repeat("  ", level)+format, a...)
}

func (k *cmd) describeOne(f found) string {
	var b strings.Builder
	w := newPrefixWriter(&b)
	if k.describeWorkload(w, f.obj) {
		k.describeEvents(w, f)
		w.w.Flush()
		return b.String()
	}
	switch t := f.obj.(type) {
	case *api.Pod:
		k.describePod(w, t)
	case *api.Deployment:
		k.describeDeployment(w, t)
	case *api.ReplicaSet:
		k.describeReplicaSet(w, t)
	case *api.Node:
		k.describeNode(w, t)
	case *api.Job:
		k.describeJob(w, t)
	case *api.Service:
		k.describeService(w, t)
	case *api.EndpointSlice:
		k.describeEndpointSlice(w, t)
	case *api.Endpoints:
		k.describeEndpoints(w, t)
	case *api.ResourceQuota:
		describeQuota(w, t)
		w.w.Flush()
		return b.String()
	case *api.Namespace:
		k.describeNamespace(w, t)
		w.w.Flush()
		return b.String()
	case *api.LimitRange:
		describeLimitRange(w, t)
		w.w.Flush()
		return b.String()
	case *api.HorizontalPodAutoscaler:
		describeHPA(w, t)
	default:
		k.describeGeneric(w, f.obj)
	}
	k.describeEvents(w, f)
	w.w.Flush()
	return b.String()
}

func when(t api.Time) string { return t.Wall().Format("Mon, 02 Jan 2006 15:04:05 -0700") }

func (k *cmd) describePod(w *pw, p *api.Pod) {
	w.line(0, "Name:\t%s\n", p.Name)
	w.line(0, "Namespace:\t%s\n", p.Namespace)
	if p.Spec.NodeName == "" {
		w.line(0, "Node:\t<none>\n")
	} else {
		w.line(0, "Node:\t%s\n", p.Spec.NodeName+"/"+p.Status.HostIP)
	}
	if p.Status.StartTime != nil {
		w.line(0, "Start Time:\t%s\n", when(*p.Status.StartTime))
	}
	labelsBlock(w, "Labels", p.Labels)
	annotationsBlock(w, "Annotations", p.Annotations)
	if p.DeletionTimestamp != nil && p.Status.Phase != api.PodFailed && p.Status.Phase != api.PodSucceeded {
		w.line(0, "Status:\tTerminating (lasts %s)\n", age(k.now, *p.DeletionTimestamp))
		grace := int64(30)
		if p.Spec.TerminationGracePeriodSeconds != nil {
			grace = *p.Spec.TerminationGracePeriodSeconds
		}
		if p.DeletionGracePeriodSeconds != nil {
			grace = *p.DeletionGracePeriodSeconds // what the delete gave it
		}
		w.line(0, "Termination Grace Period:\t%ds\n", grace)
	} else {
		w.line(0, "Status:\t%s\n", p.Status.Phase)
	}
	if p.Status.Reason != "" {
		w.line(0, "Reason:\t%s\n", p.Status.Reason)
	}
	if p.Status.Message != "" {
		w.line(0, "Message:\t%s\n", p.Status.Message)
	}
	w.line(0, "IP:\t%s\n", p.Status.PodIP)
	if p.Status.PodIP == "" {
		w.line(0, "IPs:\t<none>\n")
	} else {
		w.line(0, "IPs:\n")
		w.line(1, "IP:\t%s\n", p.Status.PodIP)
	}
	if ref := p.ControllerOf(); ref != nil {
		w.line(0, "Controlled By:\t%s/%s\n", ref.Kind, ref.Name)
	}
	statuses := map[string]*api.ContainerStatus{}
	for i := range p.Status.ContainerStatuses {
		statuses[p.Status.ContainerStatuses[i].Name] = &p.Status.ContainerStatuses[i]
	}
	describeInitContainers(w, p)
	describeContainers(w, "", p.Spec.Containers, statuses)
	if len(p.Status.Conditions) > 0 {
		w.line(0, "Conditions:\n  Type\tStatus\n")
		for _, c := range p.Status.Conditions {
			w.line(1, "%v \t%v \n", c.Type, c.Status)
		}
	}
	describeVolumes(w, "", p.Spec.More().Volumes)
	w.line(0, "QoS Class:\t%s\n", qosClass(p))
	labelsBlock(w, "Node-Selectors", p.Spec.NodeSelector)
	tolerationsBlock(w, "Tolerations", p.Spec.Tolerations)
}

// describeContainers prints containers as a pod (with their statuses)
// or a pod template (statuses nil, indent "  ") shows them.
func describeContainers(w *pw, indent string, cs []api.Container, statuses map[string]*api.ContainerStatus) {
	describeContainerList(w, indent, "Containers", cs, statuses)
}

// describeContainerList prints containers under title (Containers, Init
// Containers).
func describeContainerList(w *pw, indent, title string, cs []api.Container, statuses map[string]*api.ContainerStatus) {
	none := ""
	if len(cs) == 0 {
		none = " <none>"
	}
	w.line(0, "%s%s:%s\n", indent, title, none)
	nameIndent := ""
	if indent != "" {
		nameIndent = " "
	}
	for _, c := range cs {
		st, ok := statuses[c.Name]
		w.line(1, "%s%v:\n", nameIndent, c.Name)
		if ok {
			w.line(2, "Container ID:\t%s\n", "")
		}
		w.line(2, "Image:\t%s\n", c.Image)
		if ok {
			w.line(2, "Image ID:\t%s\n", st.ImageID)
		}
		var ports, hostPorts []string
		for _, p := range c.Ports {
			s := fmt.Sprintf("%d/%s", p.ContainerPort, p.Protocol)
			h := fmt.Sprintf("%d/%s", p.HostPort, p.Protocol)
			if p.Name != "" {
				s += " (" + p.Name + ")"
				h += " (" + p.Name + ")"
			}
			ports, hostPorts = append(ports, s), append(hostPorts, h)
		}
		if len(ports) > 1 {
			w.line(2, "Ports:\t%s\n", strings.Join(ports, ", "))
			w.line(2, "Host Ports:\t%s\n", strings.Join(hostPorts, ", "))
		} else {
			w.line(2, "Port:\t%s\n", orNone(strings.Join(ports, "")))
			w.line(2, "Host Port:\t%s\n", orNone(strings.Join(hostPorts, "")))
		}
		if len(c.Command) > 0 {
			w.line(2, "Command:\n")
			for _, s := range c.Command {
				w.line(3, "%s\n", s)
			}
		}
		if len(c.Args) > 0 {
			w.line(2, "Args:\n")
			for _, s := range c.Args {
				w.line(3, "%s\n", s)
			}
		}
		if ok {
			describeState(w, "State", st.State)
			if st.LastState.Terminated != nil {
				describeState(w, "Last State", st.LastState)
			}
			w.line(2, "Ready:\t%s\n", map[bool]string{true: "True", false: "False"}[st.Ready])
			w.line(2, "Restart Count:\t%d\n", st.RestartCount)
		}
		quantities(w, 2, "Limits", c.Resources.Limits, 3, "")
		quantities(w, 2, "Requests", c.Resources.Requests, 3, "")
		if c.LivenessProbe != nil {
			w.line(2, "Liveness:\t%s\n", describeProbe(c.LivenessProbe))
		}
		if c.ReadinessProbe != nil {
			w.line(2, "Readiness:\t%s\n", describeProbe(c.ReadinessProbe))
		}
		if c.More().StartupProbe != nil {
			w.line(2, "Startup:\t%s\n", describeProbe(c.More().StartupProbe))
		}
		describeEnvFrom(w, c.More().EnvFrom)
		if len(c.Env) == 0 {
			w.line(2, "Environment:\t<none>\n")
		} else {
			w.line(2, "Environment:\n")
			for _, e := range c.Env {
				describeEnvVar(w, e)
			}
		}
		describeMounts(w, c.More().VolumeMounts)
	}
}

// quantities prints "Title:" and a line per resource, by name, or nothing
// for none.
func quantities(w *pw, level int, title string, list map[string]api.Quantity, itemLevel int, itemIndent string) {
	if len(list) == 0 {
		return
	}
	w.line(level, "%s:\n", title)
	for _, r := range sortedQuantityKeys(list) {
		w.line(itemLevel, "%s%s:\t%s\n", itemIndent, r, list[r])
	}
}

func describeState(w *pw, name string, s api.ContainerState) {
	switch {
	case s.Running != nil:
		w.line(2, "%s:\tRunning\n", name)
		w.line(3, "Started:\t%v\n", when(s.Running.StartedAt))
	case s.Waiting != nil:
		w.line(2, "%s:\tWaiting\n", name)
		if s.Waiting.Reason != "" {
			w.line(3, "Reason:\t%s\n", s.Waiting.Reason)
		}
	case s.Terminated != nil:
		w.line(2, "%s:\tTerminated\n", name)
		if s.Terminated.Reason != "" {
			w.line(3, "Reason:\t%s\n", s.Terminated.Reason)
		}
		w.line(3, "Exit Code:\t%d\n", s.Terminated.ExitCode)
		w.line(3, "Started:\t%s\n", when(s.Terminated.StartedAt))
		w.line(3, "Finished:\t%s\n", when(s.Terminated.FinishedAt))
	default:
		w.line(2, "%s:\tWaiting\n", name)
	}
}

// describeProbe renders a probe as kubectl does.
func describeProbe(p *api.Probe) string {
	attrs := fmt.Sprintf("delay=%ds timeout=%ds period=%ds #success=%d #failure=%d", p.InitialDelaySeconds,
		p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold)
	str := func(m map[string]any, k string) string {
		if v, ok := m[k]; ok {
			return fmt.Sprint(v)
		}
		return ""
	}
	switch {
	case p.Exec != nil:
		var cmd []string
		if list, ok := p.Exec["command"].([]any); ok {
			for _, c := range list {
				cmd = append(cmd, fmt.Sprint(c))
			}
		}
		return fmt.Sprintf("exec [%s] %s", strings.Join(cmd, " "), attrs)
	case p.HTTPGet != nil:
		scheme := strings.ToLower(str(p.HTTPGet, "scheme"))
		if scheme != "" {
			scheme += ":"
		}
		return fmt.Sprintf("http-get %s//%s%s %s", scheme, net.JoinHostPort(str(p.HTTPGet, "host"), str(p.HTTPGet, "port")), str(p.HTTPGet, "path"), attrs)
	case p.TCPSocket != nil:
		return fmt.Sprintf("tcp-socket %s:%s %s", str(p.TCPSocket, "host"), str(p.TCPSocket, "port"), attrs)
	case p.GRPC != nil:
		service := ""
		if p.GRPC.Service != nil {
			service = *p.GRPC.Service
		}
		return fmt.Sprintf("grpc <pod>:%d %s %s", p.GRPC.Port, service, attrs)
	}
	return "unknown " + attrs
}

// qosClass is the pod's QoS class: the one the API server recorded in its
// status when it created it, or (a pod read from a file) the one it would.
func qosClass(p *api.Pod) string {
	if p.Status.QOSClass != "" {
		return p.Status.QOSClass
	}
	return api.PodQOSClass(&p.Spec)
}

// labelsBlock prints "Title:\tk=v" then one line per further label, keys
// sorted, or <none>.
func labelsBlock(w *pw, title string, m map[string]string) {
	w.line(0, "%s:\t", title)
	keys := sortedMapKeys(m)
	if len(keys) == 0 {
		w.line(0, "<none>\n")
		return
	}
	for i, key := range keys {
		if i > 0 {
			w.line(0, "\t")
		}
		w.line(0, "%s=%s\n", key, m[key])
	}
}

func annotationsBlock(w *pw, title string, m map[string]string) {
	w.line(0, "%s:\t", title)
	var keys []string
	for _, key := range sortedMapKeys(m) {
		if key != "kubectl.kubernetes.io/last-applied-configuration" {
			keys = append(keys, key)
		}
	}
	if len(keys) == 0 {
		w.line(0, "<none>\n")
		return
	}
	for i, key := range keys {
		if i > 0 {
			w.line(0, "\t")
		}
		v := strings.TrimSuffix(m[key], "\n")
		if len(v)+len(key)+2 > 140 || strings.Contains(v, "\n") {
			w.line(0, "%s:\n", key)
			for _, s := range strings.Split(v, "\n") {
				if len(s) > 138 {
					s = s[:138] + "..."
				}
				w.line(0, "\t  %s\n", s)
			}
			continue
		}
		w.line(0, "%s: %s\n", key, v)
	}
}

func tolerationsBlock(w *pw, title string, ts []api.Toleration) {
	w.line(0, "%s:\t", title)
	if len(ts) == 0 {
		w.line(0, "<none>\n")
		return
	}
	sorted := append([]api.Toleration(nil), ts...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Key < sorted[j].Key })
	for i, t := range sorted {
		if i > 0 {
			w.line(0, "\t")
		}
		s := t.Key
		if t.Value != "" {
			s += "=" + t.Value
		}
		if t.Effect != "" {
			s += ":" + t.Effect
		}
		if t.Operator == "Exists" && t.Value == "" {
			if t.Key != "" || t.Effect != "" {
				s += " "
			}
			s += "op=Exists"
		}
		if t.TolerationSeconds != nil {
			s += fmt.Sprintf(" for %ds", *t.TolerationSeconds)
		}
		w.line(0, "%s\n", s)
	}
}

func taintString(t api.Taint) string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
		if t.Effect == "" {
			s += ":"
		}
	}
	if t.Effect != "" {
		s += ":" + t.Effect
	}
	return s
}

// describePodTemplate prints a workload's "Pod Template:" section.
func describePodTemplate(w *pw, t *api.PodTemplateSpec, _ int) {
	w.line(0, "Pod Template:\n")
	labelsBlock(w, "  Labels", t.Labels)
	if len(t.Annotations) > 0 {
		annotationsBlock(w, "  Annotations", t.Annotations)
	}
	describeContainers(w, "  ", t.Spec.Containers, nil)
	describeVolumes(w, "  ", t.Spec.More().Volumes)
	labelsBlock(w, "  Node-Selectors", t.Spec.NodeSelector)
	tolerationsBlock(w, "  Tolerations", t.Spec.Tolerations)
}

func (k *cmd) describeDeployment(w *pw, d *api.Deployment) {
	w.line(0, "Name:\t%s\n", d.Name)
	w.line(0, "Namespace:\t%s\n", d.Namespace)
	w.line(0, "CreationTimestamp:\t%s\n", when(d.CreationTimestamp))
	labelsBlock(w, "Labels", d.Labels)
	annotationsBlock(w, "Annotations", d.Annotations)
	w.line(0, "Selector:\t%s\n", strings.TrimSuffix(FormatSelector(d.Spec.Selector), "<none>"))
	w.line(0, "Replicas:\t%d desired | %d updated | %d total | %d available | %d unavailable\n",
		api.Deref(d.Spec.Replicas, 1), d.Status.UpdatedReplicas, d.Status.Replicas, d.Status.AvailableReplicas, d.Status.UnavailableReplicas)
	w.line(0, "StrategyType:\t%s\n", d.Spec.Strategy.Type)
	w.line(0, "MinReadySeconds:\t%d\n", d.Spec.MinReadySeconds)
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		w.line(0, "RollingUpdateStrategy:\t%s max unavailable, %s max surge\n", intOrString(ru.MaxUnavailable), intOrString(ru.MaxSurge))
	}
	describePodTemplate(w, &d.Spec.Template, 0)
	if len(d.Status.Conditions) > 0 {
		w.line(0, "Conditions:\n  Type\tStatus\tReason\n")
		w.line(1, "----\t------\t------\n")
		for _, c := range d.Status.Conditions {
			w.line(1, "%v \t%v\t%v\n", c.Type, c.Status, c.Reason)
		}
	}
	rss := k.owned(d)
	sort.SliceStable(rss, func(i, j int) bool {
		if rss[i].CreationTimestamp == rss[j].CreationTimestamp {
			return rss[i].Name < rss[j].Name
		}
		return rss[i].CreationTimestamp < rss[j].CreationTimestamp
	})
	var newRS *api.ReplicaSet
	for _, rs := range rss {
		if newRS == nil && controller.EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
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
		w.line(0, "OldReplicaSets:\t%s\n", orNone(strings.Join(old, ", ")))
		w.line(0, "NewReplicaSet:\t%s\n", orNone(strings.Join(cur, ", ")))
	}
}

func intOrString(v *api.IntOrString) string {
	if v == nil {
		return "0"
	}
	return v.String()
}

// podCounts counts the pods an owner controls, by phase.
func (k *cmd) podCounts(uid string) (running, waiting, succeeded, failed int) {
	for _, o := range k.st.List("Pod") {
		p := o.(*api.Pod)
		if ref := p.ControllerOf(); ref == nil || ref.UID != uid {
			continue
		}
		switch p.Status.Phase {
		case api.PodRunning:
			running++
		case api.PodPending:
			waiting++
		case api.PodSucceeded:
			succeeded++
		case api.PodFailed:
			failed++
		}
	}
	return
}

func (k *cmd) describeReplicaSet(w *pw, rs *api.ReplicaSet) {
	w.line(0, "Name:\t%s\n", rs.Name)
	w.line(0, "Namespace:\t%s\n", rs.Namespace)
	w.line(0, "Selector:\t%s\n", FormatSelector(rs.Spec.Selector))
	labelsBlock(w, "Labels", rs.Labels)
	annotationsBlock(w, "Annotations", rs.Annotations)
	if ref := rs.ControllerOf(); ref != nil {
		w.line(0, "Controlled By:\t%s/%s\n", ref.Kind, ref.Name)
	}
	w.line(0, "Replicas:\t%d current / %d desired\n", rs.Status.Replicas, api.Deref(rs.Spec.Replicas, 1))
	r, wt, s, f := k.podCounts(rs.UID)
	w.line(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed\n", r, wt, s, f)
	describePodTemplate(w, &rs.Spec.Template, 0)
	if len(rs.Status.Conditions) > 0 {
		w.line(0, "Conditions:\n  Type\tStatus\tReason\n")
		w.line(1, "----\t------\t------\n")
		for _, c := range rs.Status.Conditions {
			w.line(1, "%v \t%v\t%v\n", c.Type, c.Status, c.Reason)
		}
	}
}

func (k *cmd) describeJob(w *pw, j *api.Job) {
	w.line(0, "Name:\t%s\n", j.Name)
	w.line(0, "Namespace:\t%s\n", j.Namespace)
	w.line(0, "Selector:\t%s\n", strings.TrimSuffix(FormatSelector(j.Spec.Selector), "<none>"))
	labelsBlock(w, "Labels", j.Labels)
	annotationsBlock(w, "Annotations", j.Annotations)
	if ref := j.ControllerOf(); ref != nil {
		w.line(0, "Controlled By:\t%s/%s\n", ref.Kind, ref.Name)
	}
	if j.Spec.Parallelism != nil {
		w.line(0, "Parallelism:\t%d\n", *j.Spec.Parallelism)
	}
	if j.Spec.Completions != nil {
		w.line(0, "Completions:\t%d\n", *j.Spec.Completions)
	} else {
		w.line(0, "Completions:\t<unset>\n")
	}
	if j.Spec.BackoffLimit != nil {
		w.line(0, "Backoff Limit:\t%v\n", *j.Spec.BackoffLimit)
	}
	if j.Status.StartTime != nil {
		w.line(0, "Start Time:\t%s\n", when(*j.Status.StartTime))
	}
	if j.Status.CompletionTime != nil {
		w.line(0, "Completed At:\t%s\n", when(*j.Status.CompletionTime))
	}
	if j.Status.StartTime != nil && j.Status.CompletionTime != nil {
		w.line(0, "Duration:\t%s\n", api.HumanDuration(*j.Status.CompletionTime-*j.Status.StartTime))
	}
	w.line(0, "Pods Statuses:\t%d Active / %d Succeeded / %d Failed\n", j.Status.Active, j.Status.Succeeded, j.Status.Failed)
	describePodTemplate(w, &j.Spec.Template, 0)
}

func (k *cmd) describeNode(w *pw, n *api.Node) {
	w.line(0, "Name:\t%s\n", n.Name)
	w.line(0, "Roles:\t%s\n", nodeRoles(n))
	labelsBlock(w, "Labels", n.Labels)
	annotationsBlock(w, "Annotations", n.Annotations)
	w.line(0, "CreationTimestamp:\t%s\n", when(n.CreationTimestamp))
	w.line(0, "Taints:\t")
	if len(n.Spec.Taints) == 0 {
		w.line(0, "<none>\n")
	}
	taints := append([]api.Taint(nil), n.Spec.Taints...)
	sort.SliceStable(taints, func(i, j int) bool { return taints[i].Effect+","+taints[i].Key < taints[j].Effect+","+taints[j].Key })
	for i, t := range taints {
		if i > 0 {
			w.line(0, "\t")
		}
		w.line(0, "%s\n", taintString(t))
	}
	w.line(0, "Unschedulable:\t%v\n", n.Spec.Unschedulable)
	if l, ok := k.st.Get("Lease", "kube-node-lease", n.Name).(*api.Lease); ok {
		w.line(0, "Lease:\n")
		w.line(1, "HolderIdentity:\t%s\n", orUnset(l.Spec.HolderIdentity))
		w.line(1, "AcquireTime:\t<unset>\n")
		w.line(1, "RenewTime:\t%s\n", when(l.Spec.RenewTime))
	}
	if len(n.Status.Conditions) > 0 {
		w.line(0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n")
		w.line(1, "----\t------\t-----------------\t------------------\t------\t-------\n")
		for _, c := range n.Status.Conditions {
			w.line(1, "%v \t%v \t%s \t%s \t%v \t%v\n", c.Type, c.Status, when(c.LastHeartbeatTime), when(c.LastTransitionTime), c.Reason, c.Message)
		}
	}
	w.line(0, "Addresses:\n")
	for _, a := range n.Status.Addresses {
		w.line(1, "%s:\t%s\n", a.Type, a.Address)
	}
	quantities(w, 0, "Capacity", n.Status.Capacity, 0, "  ")
	quantities(w, 0, "Allocatable", n.Status.Allocatable, 0, "  ")
	info := api.NodeSystemInfo{}
	if n.Status.NodeInfo != nil {
		info = *n.Status.NodeInfo
	}
	w.line(0, "System Info:\n")
	for _, f := range [][2]string{{"Machine ID", info.MachineID}, {"System UUID", ""}, {"Boot ID", ""}, {"Kernel Version", info.KernelVersion},
		{"OS Image", info.OSImage}, {"Operating System", info.OperatingSystem}, {"Architecture", info.Architecture},
		{"Container Runtime Version", info.ContainerRuntimeVersion}, {"Kubelet Version", info.KubeletVersion}, {"Kube-Proxy Version", ""}} {
		w.line(0, "  %s:\t%s\n", f[0], f[1])
	}
	if n.Spec.PodCIDR != "" {
		w.line(0, "PodCIDR:\t%s\n", n.Spec.PodCIDR)
	}
	if len(n.Spec.PodCIDRs) > 0 {
		w.line(0, "PodCIDRs:\t%s\n", strings.Join(n.Spec.PodCIDRs, ","))
	}
	k.describeNodePods(w, n)
}

func orUnset(s string) string {
	if s == "" {
		return "<unset>"
	}
	return s
}

// describeNodePods prints the node's non-terminated pods and what they
// ask of it.
func (k *cmd) describeNodePods(w *pw, n *api.Node) {
	var pods []*api.Pod
	for _, o := range k.st.List("Pod") {
		p := o.(*api.Pod)
		if p.Spec.NodeName == n.Name && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			pods = append(pods, p)
		}
	}
	alloc := n.Status.Allocatable
	if len(alloc) == 0 {
		alloc = n.Status.Capacity
	}
	allocCPU, allocMem := alloc["cpu"].Milli(), alloc["memory"].Value()
	pct := func(v, of int64) int64 {
		if of == 0 {
			return 0
		}
		return int64(float64(v) / float64(of) * 100)
	}
	w.line(0, "Non-terminated Pods:\t(%d in total)\n", len(pods))
	w.line(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n")
	w.line(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n")
	var total [4]int64
	for _, p := range pods {
		var v [4]int64 // cpu requests, cpu limits (millicores), memory requests, memory limits (bytes)
		for _, c := range p.Spec.Containers {
			v[0] += c.Resources.Requests["cpu"].Milli()
			v[1] += c.Resources.Limits["cpu"].Milli()
			v[2] += c.Resources.Requests["memory"].Value()
			v[3] += c.Resources.Limits["memory"].Value()
		}
		for i := range v {
			total[i] += v[i]
		}
		w.line(1, "%s\t%s\t\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s\n", p.Namespace, p.Name,
			milli(v[0]), pct(v[0], allocCPU), milli(v[1]), pct(v[1], allocCPU), bytes(v[2]), pct(v[2], allocMem), bytes(v[3]), pct(v[3], allocMem),
			age(k.now, p.CreationTimestamp))
	}
	w.line(0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n")
	w.line(1, "Resource\tRequests\tLimits\n")
	w.line(1, "--------\t--------\t------\n")
	w.line(1, "%s\t%s (%d%%)\t%s (%d%%)\n", "cpu", milli(total[0]), pct(total[0], allocCPU), milli(total[1]), pct(total[1], allocCPU))
	w.line(1, "%s\t%s (%d%%)\t%s (%d%%)\n", "memory", bytes(total[2]), pct(total[2], allocMem), bytes(total[3]), pct(total[3], allocMem))
	w.line(1, "%s\t%s (%d%%)\t%s (%d%%)\n", "ephemeral-storage", "0", 0, "0", 0)
}

func milli(m int64) string {
	if m == 0 {
		return "0"
	}
	return api.FormatMilliCPU(m)
}

func bytes(b int64) string { return api.FormatBytes(b) }

func describeQuota(w *pw, q *api.ResourceQuota) {
	w.line(0, "Name:\t%s\n", q.Name)
	w.line(0, "Namespace:\t%s\n", q.Namespace)
	w.line(0, "Resource\tUsed\tHard\n")
	w.line(0, "--------\t----\t----\n")
	hard := q.Status.Hard
	for _, r := range sortedQuantityKeys(hard) {
		used := q.Status.Used[r]
		if used == "" {
			used = "0"
		}
		w.line(0, "%v\t%v\t%v\n", r, used, hard[r])
	}
}

// describeGeneric prints any other object as kubectl's generic describer
// does: its fields, by name, nested.
func (k *cmd) describeGeneric(w *pw, o api.Object) {
	m := o.Meta()
	w.line(0, "Name:\t%s\n", m.Name)
	w.line(0, "Namespace:\t%s\n", m.Namespace)
	labelsBlock(w, "Labels", m.Labels)
	annotationsBlock(w, "Annotations", m.Annotations)
	doc, _ := toJSON(o).(map[string]any)
	printContent(w, 0, doc, "")
}

var genericSkips = map[string]bool{".metadata.managedFields": true, ".metadata.name": true, ".metadata.namespace": true,
	".metadata.labels": true, ".metadata.annotations": true}

func printContent(w *pw, level int, doc map[string]any, prefix string) {
	for _, f := range sortedKeys(doc) {
		path := prefix + "." + f
		if genericSkips[path] {
			continue
		}
		switch v := doc[f].(type) {
		case map[string]any:
			w.line(level, "%s:\n", smartLabel(f))
			printContent(w, level+1, v, path)
		case []any:
			w.line(level, "%s:\n", smartLabel(f))
			for _, c := range v {
				if cm, ok := c.(map[string]any); ok {
					printContent(w, level+1, cm, path)
				} else {
					w.line(level+1, "%v\n", c)
				}
			}
		case nil:
			w.line(level, "%s:\t<nil>\n", smartLabel(f))
		default:
			w.line(level, "%s:\t%v\n", smartLabel(f), v)
		}
	}
}

// smartLabel turns a field name into words as kubectl's generic describer
// does: "creationTimestamp" is "Creation Timestamp", "apiVersion" "API
// Version".
func smartLabel(field string) string {
	for _, r := range field {
		if !unicode.IsLetter(r) && r != '-' {
			return field
		}
	}
	var parts []string
	start := 0
	rs := []rune(field)
	for i := 1; i <= len(rs); i++ {
		if i == len(rs) || (unicode.IsUpper(rs[i]) && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])))) ||
			rs[i] == '-' || rs[i-1] == '-' {
			parts = append(parts, string(rs[start:i]))
			start = i
		}
	}
	out := parts[:0]
	for _, p := range parts {
		switch up := strings.ToUpper(p); {
		case up == "API" || up == "URL" || up == "UID" || up == "OSB" || up == "GUID":
			out = append(out, up)
		default:
			out = append(out, strings.ToUpper(p[:1])+p[1:])
		}
	}
	return strings.Join(out, " ")
}

// describeEvents prints an object's events, oldest last seen first.
func (k *cmd) describeEvents(w *pw, f found) {
	if !k.in.Bool("show-events", true) {
		return
	}
	m := f.obj.Meta()
	evs := k.st.EventsFor(f.kind.Name, m.Namespace, m.Name)
	if len(evs) == 0 {
		w.line(0, "Events:\t<none>\n")
		return
	}
	w.w.Flush()
	evs = append([]*api.Event(nil), evs...)
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].LastTimestamp < evs[j].LastTimestamp })
	w.line(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n")
	w.line(1, "----\t------\t----\t----\t-------\n")
	for _, e := range evs {
		a := age(k.now, e.FirstTimestamp)
		if e.Count > 1 {
			a = fmt.Sprintf("%s (x%d over %s)", age(k.now, e.LastTimestamp), e.Count, age(k.now, e.FirstTimestamp))
		}
		w.line(1, "%v\t%v\t%s\t%v\t%v\n", e.Type, e.Reason, a, e.Source.Component, strings.TrimSpace(e.Message))
	}
}
