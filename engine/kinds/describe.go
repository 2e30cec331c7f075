package kinds

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"reconcile/engine/api"
)

// What kubectl describe shows of an object: each kind's describer (its
// Def's Describe, in the kind's file) writes its sections in kubectl's
// order through a Describer, with the blocks they share below (labels,
// annotations, a pod template's containers and volumes).

// Reader is the store as a describer reads it: the objects beside the one
// described (a Deployment's ReplicaSets, a node's pods).
type Reader interface {
	Get(kind, namespace, name string) api.Object
	List(kind string) []api.Object
}

// Describer writes one kubectl describe: two spaces of indent per level,
// cells split by tabs and aligned by one tab writer.
type Describer struct {
	w *tabwriter.Writer
	// Store is what the describer reads beside the object; Now the clock.
	Store Reader
	Now   api.Time
	// events prints the object's events (kubectl's part: what it shows
	// of them depends on its flags).
	events func(*Describer)
}

// NewDescriber returns a Describer writing to out. events, called by a
// kind's describer where kubectl prints the object's events, may be nil.
func NewDescriber(out io.Writer, st Reader, now api.Time, events func(*Describer)) *Describer {
	return &Describer{w: tabwriter.NewWriter(out, 0, 8, 2, ' ', 0), Store: st, Now: now, events: events}
}

// Line writes format at level (two spaces each).
func (w *Describer) Line(level int, format string, a ...any) {
	fmt.Fprintf(w.w, strings.Repeat("  ", level)+format, a...)
}

// Flush aligns and writes out what has been written so far.
func (w *Describer) Flush() { w.w.Flush() }

// Events prints the object's events, as kubectl does after most kinds'
// sections.
func (w *Describer) Events() {
	if w.events != nil {
		w.events(w)
	}
}

// Describe writes kubectl describe's sections of obj by its kind's
// describer, its events included where the kind shows them; false when
// its kind has none here (kubectl's generic describer prints it).
func Describe(w *Describer, obj api.Object) bool {
	s := of(obj)
	if s.describe == nil {
		return false
	}
	s.describe(w, obj)
	return true
}

// Meta writes an object's name, namespace, labels and annotations, as
// kubectl's generic describer begins.
func (w *Describer) Meta(m *api.ObjectMeta) {
	w.Line(0, "Name:\t%s\n", m.Name)
	w.Line(0, "Namespace:\t%s\n", m.Namespace)
	labelsBlock(w, "Labels", m.Labels)
	annotationsBlock(w, "Annotations", m.Annotations)
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func when(t api.Time) string { return t.Wall().Format("Mon, 02 Jan 2006 15:04:05 -0700") }

// labelsBlock prints "Title:\tk=v" then one line per further label, keys
// sorted, or <none>.
func labelsBlock(w *Describer, title string, m map[string]string) {
	w.Line(0, "%s:\t", title)
	keys := sortedKeys(m)
	if len(keys) == 0 {
		w.Line(0, "<none>\n")
		return
	}
	for i, key := range keys {
		if i > 0 {
			w.Line(0, "\t")
		}
		w.Line(0, "%s=%s\n", key, m[key])
	}
}

func annotationsBlock(w *Describer, title string, m map[string]string) {
	w.Line(0, "%s:\t", title)
	var keys []string
	for _, key := range sortedKeys(m) {
		if key != "kubectl.kubernetes.io/last-applied-configuration" {
			keys = append(keys, key)
		}
	}
	if len(keys) == 0 {
		w.Line(0, "<none>\n")
		return
	}
	for i, key := range keys {
		if i > 0 {
			w.Line(0, "\t")
		}
		v := strings.TrimSuffix(m[key], "\n")
		if len(v)+len(key)+2 > 140 || strings.Contains(v, "\n") {
			w.Line(0, "%s:\n", key)
			for _, s := range strings.Split(v, "\n") {
				if len(s) > 138 {
					s = s[:138] + "..."
				}
				w.Line(0, "\t  %s\n", s)
			}
			continue
		}
		w.Line(0, "%s: %s\n", key, v)
	}
}

func tolerationsBlock(w *Describer, title string, ts []api.Toleration) {
	w.Line(0, "%s:\t", title)
	if len(ts) == 0 {
		w.Line(0, "<none>\n")
		return
	}
	sorted := append([]api.Toleration(nil), ts...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Key < sorted[j].Key })
	for i, t := range sorted {
		if i > 0 {
			w.Line(0, "\t")
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
		w.Line(0, "%s\n", s)
	}
}

// DescribePodTemplate prints a workload's "Pod Template:" section.
func DescribePodTemplate(w *Describer, t *api.PodTemplateSpec) {
	w.Line(0, "Pod Template:\n")
	labelsBlock(w, "  Labels", t.Labels)
	if len(t.Annotations) > 0 {
		annotationsBlock(w, "  Annotations", t.Annotations)
	}
	more := t.Spec.More()
	if more.ServiceAccountName != "" {
		w.Line(1, "Service Account:\t%s\n", more.ServiceAccountName)
	}
	if len(more.InitContainers) > 0 {
		describeContainerList(w, "  ", "Init Containers", more.InitContainers, nil)
	}
	describeContainers(w, "  ", t.Spec.Containers, nil)
	describeVolumes(w, "  ", more.Volumes)
	describeTopologySpread(w, "  ", more.TopologySpreadConstraints)
	if more.PriorityClassName != "" {
		w.Line(1, "Priority Class Name:\t%s\n", more.PriorityClassName)
	}
	labelsBlock(w, "  Node-Selectors", t.Spec.NodeSelector)
	tolerationsBlock(w, "  Tolerations", t.Spec.Tolerations)
}

// describeTopologySpread prints a pod's (or a template's, with indent
// "  ") topology spread constraints as kubectl describe does: by topology
// key, one a line.
func describeTopologySpread(w *Describer, indent string, cs []api.TopologySpreadConstraint) {
	if len(cs) == 0 {
		return
	}
	cs = slices.Clone(cs)
	sort.Slice(cs, func(i, j int) bool { return cs[i].TopologyKey < cs[j].TopologyKey }) // kubectl's own sort, not a stable one
	w.Line(0, "%sTopology Spread Constraints:\t", indent)
	for i, c := range cs {
		if i > 0 {
			w.Line(0, "%s\t", indent)
		}
		w.Line(0, "%s:%s when max skew %d is exceeded", c.TopologyKey, c.WhenUnsatisfiable, c.MaxSkew)
		if c.LabelSelector != nil {
			w.Line(0, " for selector %s", FormatSelector(c.LabelSelector))
		}
		w.Line(0, "\n")
	}
}

// describeContainers prints containers as a pod (with their statuses)
// or a pod template (statuses nil, indent "  ") shows them.
func describeContainers(w *Describer, indent string, cs []api.Container, statuses map[string]*api.ContainerStatus) {
	describeContainerList(w, indent, "Containers", cs, statuses)
}

// describeContainerList prints containers under title (Containers, Init
// Containers).
func describeContainerList(w *Describer, indent, title string, cs []api.Container, statuses map[string]*api.ContainerStatus) {
	none := ""
	if len(cs) == 0 {
		none = " <none>"
	}
	w.Line(0, "%s%s:%s\n", indent, title, none)
	nameIndent := ""
	if indent != "" {
		nameIndent = " "
	}
	for _, c := range cs {
		st, ok := statuses[c.Name]
		w.Line(1, "%s%v:\n", nameIndent, c.Name)
		if ok {
			w.Line(2, "Container ID:\t%s\n", st.ContainerID)
		}
		w.Line(2, "Image:\t%s\n", c.Image)
		if ok {
			w.Line(2, "Image ID:\t%s\n", st.ImageID)
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
			w.Line(2, "Ports:\t%s\n", strings.Join(ports, ", "))
			w.Line(2, "Host Ports:\t%s\n", strings.Join(hostPorts, ", "))
		} else {
			w.Line(2, "Port:\t%s\n", OrNone(strings.Join(ports, "")))
			w.Line(2, "Host Port:\t%s\n", OrNone(strings.Join(hostPorts, "")))
		}
		if len(c.Command) > 0 {
			w.Line(2, "Command:\n")
			for _, s := range c.Command {
				w.Line(3, "%s\n", s)
			}
		}
		if len(c.Args) > 0 {
			w.Line(2, "Args:\n")
			for _, s := range c.Args {
				w.Line(3, "%s\n", s)
			}
		}
		if ok {
			describeState(w, "State", st.State)
			if st.LastState.Terminated != nil {
				describeState(w, "Last State", st.LastState)
			}
			w.Line(2, "Ready:\t%s\n", map[bool]string{true: "True", false: "False"}[st.Ready])
			w.Line(2, "Restart Count:\t%d\n", st.RestartCount)
		}
		quantities(w, 2, "Limits", c.Resources.Limits, 3, "")
		quantities(w, 2, "Requests", c.Resources.Requests, 3, "")
		if c.LivenessProbe != nil {
			w.Line(2, "Liveness:\t%s\n", describeProbe(c.LivenessProbe))
		}
		if c.ReadinessProbe != nil {
			w.Line(2, "Readiness:\t%s\n", describeProbe(c.ReadinessProbe))
		}
		if c.More().StartupProbe != nil {
			w.Line(2, "Startup:\t%s\n", describeProbe(c.More().StartupProbe))
		}
		describeEnvFrom(w, c.More().EnvFrom)
		if len(c.Env) == 0 {
			w.Line(2, "Environment:\t<none>\n")
		} else {
			w.Line(2, "Environment:\n")
			for _, e := range c.Env {
				describeEnvVar(w, e)
			}
		}
		describeMounts(w, c.More().VolumeMounts)
	}
}

// quantities prints "Title:" and a line per resource, by name, or nothing
// for none.
func quantities(w *Describer, level int, title string, list map[string]api.Quantity, itemLevel int, itemIndent string) {
	if len(list) == 0 {
		return
	}
	w.Line(level, "%s:\n", title)
	for _, r := range sortedKeys(list) {
		w.Line(itemLevel, "%s%s:\t%s\n", itemIndent, r, list[r])
	}
}

func describeState(w *Describer, name string, s api.ContainerState) {
	switch {
	case s.Running != nil:
		w.Line(2, "%s:\tRunning\n", name)
		w.Line(3, "Started:\t%v\n", when(s.Running.StartedAt))
	case s.Waiting != nil:
		w.Line(2, "%s:\tWaiting\n", name)
		if s.Waiting.Reason != "" {
			w.Line(3, "Reason:\t%s\n", s.Waiting.Reason)
		}
	case s.Terminated != nil:
		w.Line(2, "%s:\tTerminated\n", name)
		if s.Terminated.Reason != "" {
			w.Line(3, "Reason:\t%s\n", s.Terminated.Reason)
		}
		w.Line(3, "Exit Code:\t%d\n", s.Terminated.ExitCode)
		w.Line(3, "Started:\t%s\n", when(s.Terminated.StartedAt))
		w.Line(3, "Finished:\t%s\n", when(s.Terminated.FinishedAt))
	default:
		w.Line(2, "%s:\tWaiting\n", name)
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
		return fmt.Sprintf("http-get %s//%s%s %s", scheme, joinHostPort(str(p.HTTPGet, "host"), str(p.HTTPGet, "port")), str(p.HTTPGet, "path"), attrs)
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

// describeVolumes prints a pod's (or a template's, with prefix "  ")
// volumes as kubectl does, by source.
func describeVolumes(w *Describer, prefix string, vols []api.Volume) {
	if len(vols) == 0 {
		w.Line(0, "%sVolumes:\t<none>\n", prefix)
		return
	}
	w.Line(0, "%sVolumes:\n", prefix)
	nameIndent := ""
	if prefix != "" {
		nameIndent = " "
	}
	str := func(m map[string]any, key, def string) string {
		if v, ok := m[key]; ok && v != nil {
			return fmt.Sprint(v)
		}
		return def
	}
	for _, v := range vols {
		w.Line(1, "%s%s:\n", nameIndent, v.Name)
		switch {
		case v.HostPath != nil:
			w.Line(2, "Type:\tHostPath (bare host directory volume)\n    Path:\t%s\n    HostPathType:\t%s\n", str(v.HostPath, "path", ""), str(v.HostPath, "type", "<none>"))
		case v.EmptyDir != nil:
			w.Line(2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t%s\n    SizeLimit:\t%s\n", v.EmptyDir.Medium, cmp.Or(string(v.EmptyDir.SizeLimit), "<unset>"))
		case v.PersistentVolumeClaim != nil:
			w.Line(2, "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t%s\n    ReadOnly:\t%v\n", v.PersistentVolumeClaim.ClaimName, v.PersistentVolumeClaim.ReadOnly)
		case v.ConfigMap != nil:
			w.Line(2, "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t%s\n    Optional:\t%s\n", v.ConfigMap.Name, optionalText(v.ConfigMap.Optional))
		case v.Secret != nil:
			w.Line(2, "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t%s\n    Optional:\t%s\n", v.Secret.SecretName, optionalText(v.Secret.Optional))
		case v.Projected != nil:
			describeProjected(w, v.Projected)
		default:
			w.Line(1, "<unknown>\n")
		}
	}
}

// describeProjected prints a projected volume's sources as kubectl does:
// a line or two per source, in the order the volume lists them.
func describeProjected(w *Describer, projected map[string]any) {
	w.Line(2, "Type:\tProjected (a volume that contains injected data from multiple sources)\n")
	sources, _ := projected["sources"].([]any)
	optional := func(m map[string]any) bool { b, _ := m["optional"].(bool); return b }
	for _, src := range sources {
		src, _ := src.(map[string]any)
		if m, ok := src["secret"].(map[string]any); ok {
			w.Line(2, "SecretName:\t%v\n    Optional:\t%v\n", m["name"], optional(m))
		} else if _, ok := src["downwardAPI"]; ok {
			w.Line(2, "DownwardAPI:\ttrue\n")
		} else if m, ok := src["configMap"].(map[string]any); ok {
			w.Line(2, "ConfigMapName:\t%v\n    Optional:\t%v\n", m["name"], optional(m))
		} else if m, ok := src["serviceAccountToken"].(map[string]any); ok {
			w.Line(2, "TokenExpirationSeconds:\t%v\n", m["expirationSeconds"])
		}
	}
}

// optionalText is a volume source's Optional as kubectl prints it.
func optionalText(b *bool) string { return fmt.Sprint(b != nil && *b) }

// describeMounts prints a container's volume mounts as kubectl does, by
// mount path.
func describeMounts(w *Describer, mounts []api.VolumeMount) {
	if len(mounts) == 0 {
		w.Line(2, "Mounts:\t<none>\n")
		return
	}
	ms := append([]api.VolumeMount(nil), mounts...)
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].MountPath < ms[j].MountPath })
	w.Line(2, "Mounts:\n")
	for _, m := range ms {
		flags := []string{"rw"}
		if m.ReadOnly {
			flags[0] = "ro"
		}
		if m.SubPath != "" {
			flags = append(flags, fmt.Sprintf("path=%q", m.SubPath))
		}
		w.Line(3, "%s from %s (%s)\n", m.MountPath, m.Name, strings.Join(flags, ","))
	}
}

// describeEnvVar prints one environment variable: its value, or where it
// comes from.
func describeEnvVar(w *Describer, e api.EnvVar) {
	switch vf := e.ValueFrom; {
	case vf == nil:
		w.Line(3, "%s:\t%s\n", e.Name, e.Value)
	case vf.ConfigMapKeyRef != nil:
		r := vf.ConfigMapKeyRef
		w.Line(3, "%s:\t<set to the key '%s' of config map '%s'>\tOptional: %t\n", e.Name, r.Key, r.Name, api.IsOptional(r.Optional))
	case vf.SecretKeyRef != nil:
		r := vf.SecretKeyRef
		w.Line(3, "%s:\t<set to the key '%s' in secret '%s'>\tOptional: %t\n", e.Name, r.Key, r.Name, api.IsOptional(r.Optional))
	default:
		w.Line(3, "%s:\t%s\n", e.Name, e.Value)
	}
}

// describeEnvFrom prints "Environment Variables from:" and each source.
func describeEnvFrom(w *Describer, from []api.EnvFromSource) {
	if len(from) == 0 {
		return
	}
	w.Line(2, "Environment Variables from:\n")
	for _, e := range from {
		kind, name, optional := "", "", false
		switch {
		case e.ConfigMapRef != nil:
			kind, name, optional = "ConfigMap", e.ConfigMapRef.Name, api.IsOptional(e.ConfigMapRef.Optional)
		case e.SecretRef != nil:
			kind, name, optional = "Secret", e.SecretRef.Name, api.IsOptional(e.SecretRef.Optional)
		}
		if e.Prefix == "" {
			w.Line(3, "%s\t%s\tOptional: %t\n", name, kind, optional)
		} else {
			w.Line(3, "%s\t%s with prefix '%s'\tOptional: %t\n", name, kind, e.Prefix, optional)
		}
	}
}

// podCounts counts the pods an owner controls, by phase.
func (w *Describer) podCounts(uid string) (running, waiting, succeeded, failed int) {
	for _, o := range w.Store.List("Pod") {
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

func orUnset(s string) string {
	if s == "" {
		return "<unset>"
	}
	return s
}

// withEvents is a describer followed by the object's events.
func withEvents[T api.Object](f func(*Describer, T)) func(*Describer, T) {
	return func(w *Describer, o T) {
		f(w, o)
		w.Events()
	}
}

// joinHostPort is net.JoinHostPort (an IPv6 host in brackets), without
// the net package in the binary.
func joinHostPort(host, port string) string {
	if strings.IndexByte(host, ':') >= 0 {
		return "[" + host + "]:" + port
	}
	return host + ":" + port
}
