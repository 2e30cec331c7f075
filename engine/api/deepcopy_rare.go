package api

import (
	"maps"
	"slices"
)

// Hand-written deep copies of the fields of podspec_more.go. Every pod
// write copies a pod, so these are on the engine's hot path: they copy
// field by field, without reflection. Slices and maps keep their nil-ness
// (an empty list stays an empty list), as a decoded manifest has them.
// deepcopy_test.go checks each copy against the types: equal to the
// original and sharing no memory with it, whatever field is set.

func copyPtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func copyAnyMaps(in []map[string]any) []map[string]any {
	if in == nil {
		return nil
	}
	out := make([]map[string]any, len(in))
	for i, m := range in {
		out[i] = deepCopyMap(m)
	}
	return out
}

func copyStrings(in []string) []string { return slices.Clone(in) }

// copyContainer returns an independent copy of a container.
func copyContainer(c Container) Container {
	c.Ports = append([]ContainerPort(nil), c.Ports...)
	c.Env = copyEnv(c.Env)
	c.Command = append([]string(nil), c.Command...)
	c.Args = append([]string(nil), c.Args...)
	c.Resources.Requests = cloneQuantities(c.Resources.Requests)
	c.Resources.Limits = cloneQuantities(c.Resources.Limits)
	c.ReadinessProbe = copyProbe(c.ReadinessProbe)
	c.LivenessProbe = copyProbe(c.LivenessProbe)
	c.ContainerMore = c.ContainerMore.deepCopy()
	return c
}

func copyContainers(in []Container) []Container {
	if in == nil {
		return nil
	}
	out := make([]Container, len(in))
	for i, c := range in {
		out[i] = copyContainer(c)
	}
	return out
}

func copyEnv(in []EnvVar) []EnvVar {
	out := append([]EnvVar(nil), in...)
	for i := range out {
		out[i].ValueFrom = out[i].ValueFrom.deepCopy()
	}
	return out
}

func (s *EnvVarSource) deepCopy() *EnvVarSource {
	if s == nil {
		return nil
	}
	return &EnvVarSource{
		ConfigMapKeyRef:  s.ConfigMapKeyRef.deepCopy(),
		SecretKeyRef:     s.SecretKeyRef.deepCopy(),
		FieldRef:         deepCopyMap(s.FieldRef),
		ResourceFieldRef: deepCopyMap(s.ResourceFieldRef),
	}
}

func (k *KeySelector) deepCopy() *KeySelector {
	if k == nil {
		return nil
	}
	out := *k
	out.Optional = copyPtr(k.Optional)
	return &out
}

// deepCopy returns an independent copy of m.
func (m ProbeMore) deepCopy() ProbeMore {
	if m.GRPC != nil {
		g := *m.GRPC
		g.Service = copyPtr(g.Service)
		m.GRPC = &g
	}
	m.TerminationGracePeriodSeconds = copyPtr(m.TerminationGracePeriodSeconds)
	return m
}

// DeepCopy returns an independent copy of m.
func (m PodSpecMore) DeepCopy() PodSpecMore {
	m.InitContainers = copyContainers(m.InitContainers)
	if m.Volumes != nil {
		vs := make([]Volume, len(m.Volumes))
		for i, v := range m.Volumes {
			vs[i] = v.deepCopy()
		}
		m.Volumes = vs
	}
	if m.DNSConfig != nil {
		d := *m.DNSConfig
		d.Nameservers = copyStrings(d.Nameservers)
		d.Searches = copyStrings(d.Searches)
		if d.Options != nil {
			d.Options = slices.Clone(d.Options)
			for i := range d.Options {
				d.Options[i].Value = copyPtr(d.Options[i].Value)
			}
		}
		m.DNSConfig = &d
	}
	m.SchedulingGates = slices.Clone(m.SchedulingGates)
	if m.TopologySpreadConstraints != nil {
		ts := slices.Clone(m.TopologySpreadConstraints)
		for i := range ts {
			t := &ts[i]
			t.LabelSelector = t.LabelSelector.deepCopy()
			t.MinDomains = copyPtr(t.MinDomains)
			t.NodeAffinityPolicy = copyPtr(t.NodeAffinityPolicy)
			t.NodeTaintsPolicy = copyPtr(t.NodeTaintsPolicy)
			t.MatchLabelKeys = copyStrings(t.MatchLabelKeys)
		}
		m.TopologySpreadConstraints = ts
	}
	m.AutomountServiceAccountToken = copyPtr(m.AutomountServiceAccountToken)
	m.SecurityContext = deepCopyMap(m.SecurityContext)
	m.ImagePullSecrets = slices.Clone(m.ImagePullSecrets)
	m.Priority = copyPtr(m.Priority)
	m.ActiveDeadlineSeconds = copyPtr(m.ActiveDeadlineSeconds)
	m.EnableServiceLinks = copyPtr(m.EnableServiceLinks)
	m.ShareProcessNamespace = copyPtr(m.ShareProcessNamespace)
	m.RuntimeClassName = copyPtr(m.RuntimeClassName)
	m.PreemptionPolicy = copyPtr(m.PreemptionPolicy)
	m.HostAliases = copyAnyMaps(m.HostAliases)
	m.ReadinessGates = copyAnyMaps(m.ReadinessGates)
	m.Overhead = maps.Clone(m.Overhead)
	m.OS = deepCopyMap(m.OS)
	m.HostUsers = copyPtr(m.HostUsers)
	m.SetHostnameAsFQDN = copyPtr(m.SetHostnameAsFQDN)
	m.EphemeralContainers = copyAnyMaps(m.EphemeralContainers)
	m.ResourceClaims = copyAnyMaps(m.ResourceClaims)
	m.PodResources = deepCopyMap(m.PodResources)
	return m
}

// deepCopy is like LabelSelector.DeepCopy, keeping empty lists empty.
func (s *LabelSelector) deepCopy() *LabelSelector {
	if s == nil {
		return nil
	}
	out := &LabelSelector{MatchLabels: maps.Clone(s.MatchLabels), MatchExpressions: slices.Clone(s.MatchExpressions)}
	for i := range out.MatchExpressions {
		out.MatchExpressions[i].Values = copyStrings(out.MatchExpressions[i].Values)
	}
	return out
}

func (v Volume) deepCopy() Volume {
	if c := v.ConfigMap; c != nil {
		v.ConfigMap = &ConfigMapVolumeSource{Name: c.Name, Items: copyKeyToPaths(c.Items), DefaultMode: copyPtr(c.DefaultMode), Optional: copyPtr(c.Optional)}
	}
	if s := v.Secret; s != nil {
		v.Secret = &SecretVolumeSource{SecretName: s.SecretName, Items: copyKeyToPaths(s.Items), DefaultMode: copyPtr(s.DefaultMode), Optional: copyPtr(s.Optional)}
	}
	v.EmptyDir = copyPtr(v.EmptyDir)
	v.PersistentVolumeClaim = copyPtr(v.PersistentVolumeClaim)
	v.HostPath = deepCopyMap(v.HostPath)
	v.Projected = deepCopyMap(v.Projected)
	v.DownwardAPI = deepCopyMap(v.DownwardAPI)
	v.CSI = deepCopyMap(v.CSI)
	v.NFS = deepCopyMap(v.NFS)
	v.Ephemeral = deepCopyMap(v.Ephemeral)
	v.Image = deepCopyMap(v.Image)
	return v
}

func copyKeyToPaths(in []KeyToPath) []KeyToPath {
	out := slices.Clone(in)
	for i := range out {
		out[i].Mode = copyPtr(out[i].Mode)
	}
	return out
}

// DeepCopy returns an independent copy of m.
func (m ContainerMore) DeepCopy() ContainerMore {
	if m.VolumeMounts != nil {
		m.VolumeMounts = slices.Clone(m.VolumeMounts)
		for i := range m.VolumeMounts {
			vm := &m.VolumeMounts[i]
			vm.MountPropagation = copyPtr(vm.MountPropagation)
			vm.RecursiveReadOnly = copyPtr(vm.RecursiveReadOnly)
		}
	}
	if m.EnvFrom != nil {
		m.EnvFrom = slices.Clone(m.EnvFrom)
		for i := range m.EnvFrom {
			e := &m.EnvFrom[i]
			e.ConfigMapRef = e.ConfigMapRef.deepCopy()
			e.SecretRef = e.SecretRef.deepCopy()
		}
	}
	m.StartupProbe = copyProbe(m.StartupProbe)
	if l := m.Lifecycle; l != nil {
		m.Lifecycle = &Lifecycle{PostStart: l.PostStart.deepCopy(), PreStop: l.PreStop.deepCopy(), StopSignal: l.StopSignal}
	}
	m.SecurityContext = deepCopyMap(m.SecurityContext)
	m.RestartPolicy = copyPtr(m.RestartPolicy)
	m.VolumeDevices = copyAnyMaps(m.VolumeDevices)
	m.ResizePolicy = copyAnyMaps(m.ResizePolicy)
	return m
}

func (r *OptionalObjectRef) deepCopy() *OptionalObjectRef {
	if r == nil {
		return nil
	}
	return &OptionalObjectRef{Name: r.Name, Optional: copyPtr(r.Optional)}
}

func (h *LifecycleHandler) deepCopy() *LifecycleHandler {
	if h == nil {
		return nil
	}
	return &LifecycleHandler{Exec: deepCopyMap(h.Exec), HTTPGet: deepCopyMap(h.HTTPGet), TCPSocket: deepCopyMap(h.TCPSocket), Sleep: copyPtr(h.Sleep)}
}

// DeepCopy returns an independent copy of a.
func (a *PodAffinity) DeepCopy() *PodAffinity {
	if a == nil {
		return nil
	}
	out := &PodAffinity{}
	if r := a.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
		out.RequiredDuringSchedulingIgnoredDuringExecution = make([]PodAffinityTerm, len(r))
		for i, t := range r {
			out.RequiredDuringSchedulingIgnoredDuringExecution[i] = t.deepCopy()
		}
	}
	if p := a.PreferredDuringSchedulingIgnoredDuringExecution; p != nil {
		out.PreferredDuringSchedulingIgnoredDuringExecution = make([]WeightedPodAffinityTerm, len(p))
		for i, w := range p {
			out.PreferredDuringSchedulingIgnoredDuringExecution[i] = WeightedPodAffinityTerm{Weight: w.Weight, PodAffinityTerm: w.PodAffinityTerm.deepCopy()}
		}
	}
	return out
}

func (t PodAffinityTerm) deepCopy() PodAffinityTerm {
	t.LabelSelector = t.LabelSelector.deepCopy()
	t.Namespaces = copyStrings(t.Namespaces)
	t.NamespaceSelector = t.NamespaceSelector.deepCopy()
	t.MatchLabelKeys = copyStrings(t.MatchLabelKeys)
	t.MismatchLabelKeys = copyStrings(t.MismatchLabelKeys)
	return t
}

// DeepCopy returns an independent copy of m.
func (m JobSpecMore) DeepCopy() JobSpecMore {
	m.CompletionMode = copyPtr(m.CompletionMode)
	if p := m.PodFailurePolicy; p != nil {
		out := &PodFailurePolicy{}
		if p.Rules != nil {
			out.Rules = make([]PodFailurePolicyRule, len(p.Rules))
			for i, r := range p.Rules {
				out.Rules[i] = PodFailurePolicyRule{Action: r.Action, OnExitCodes: deepCopyMap(r.OnExitCodes), OnPodConditions: copyAnyMaps(r.OnPodConditions)}
			}
		}
		m.PodFailurePolicy = out
	}
	m.ActiveDeadlineSeconds = copyPtr(m.ActiveDeadlineSeconds)
	m.TTLSecondsAfterFinished = copyPtr(m.TTLSecondsAfterFinished)
	m.Suspend = copyPtr(m.Suspend)
	m.BackoffLimitPerIndex = copyPtr(m.BackoffLimitPerIndex)
	m.MaxFailedIndexes = copyPtr(m.MaxFailedIndexes)
	m.PodReplacementPolicy = copyPtr(m.PodReplacementPolicy)
	m.SuccessPolicy = deepCopyMap(m.SuccessPolicy)
	m.ManagedBy = copyPtr(m.ManagedBy)
	return m
}
