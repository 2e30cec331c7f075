package api

import "maps"

func cloneQuantities(m map[string]Quantity) map[string]Quantity { return maps.Clone(m) }

func copyProbe(p *Probe) *Probe {
	if p == nil {
		return nil
	}
	out := *p
	out.HTTPGet = deepCopyMap(p.HTTPGet)
	out.TCPSocket = deepCopyMap(p.TCPSocket)
	out.Exec = deepCopyMap(p.Exec)
	out.ProbeMore = p.ProbeMore.deepCopy()
	return &out
}

// deepCopyMap copies JSON-like data (maps, slices, scalars).
func deepCopyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = deepCopyValue(v)
	}
	return out
}

func deepCopyValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		return deepCopyMap(t)
	case []any:
		out := make([]any, len(t))
		for i := range t {
			out[i] = deepCopyValue(t[i])
		}
		return out
	}
	return v
}

// DeepCopy returns an independent copy of s.
func (s PodSpec) DeepCopy() PodSpec {
	out := s
	out.NodeSelector = maps.Clone(s.NodeSelector)
	if s.TerminationGracePeriodSeconds != nil {
		v := *s.TerminationGracePeriodSeconds
		out.TerminationGracePeriodSeconds = &v
	}
	if s.Affinity != nil {
		a := &Affinity{PodAffinity: s.Affinity.PodAffinity.DeepCopy(), PodAntiAffinity: s.Affinity.PodAntiAffinity.DeepCopy()}
		if na := s.Affinity.NodeAffinity; na != nil {
			n := &NodeAffinity{}
			if na.PreferredDuringSchedulingIgnoredDuringExecution != nil {
				prefs := make([]PreferredSchedulingTerm, len(na.PreferredDuringSchedulingIgnoredDuringExecution))
				for i, w := range na.PreferredDuringSchedulingIgnoredDuringExecution {
					prefs[i] = PreferredSchedulingTerm{Weight: w.Weight, Preference: w.Preference.deepCopy()}
				}
				n.PreferredDuringSchedulingIgnoredDuringExecution = prefs
			}
			if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
				terms := make([]NodeSelectorTerm, len(r.NodeSelectorTerms))
				for i, t := range r.NodeSelectorTerms {
					terms[i] = t.deepCopy()
				}
				n.RequiredDuringSchedulingIgnoredDuringExecution = &NodeSelector{NodeSelectorTerms: terms}
			}
			a.NodeAffinity = n
		}
		out.Affinity = a
	}
	if s.Tolerations != nil {
		out.Tolerations = make([]Toleration, len(s.Tolerations))
		for i, t := range s.Tolerations {
			if t.TolerationSeconds != nil {
				v := *t.TolerationSeconds
				t.TolerationSeconds = &v
			}
			out.Tolerations[i] = t
		}
	}
	out.Containers = copyContainers(s.Containers)
	out.PodSpecMore = s.PodSpecMore.deepCopy()
	return out
}

// DeepCopy returns an independent copy of t.
func (t PodTemplateSpec) DeepCopy() PodTemplateSpec {
	return PodTemplateSpec{ObjectMeta: t.ObjectMeta.DeepCopy(), Spec: t.Spec.DeepCopy()}
}

func copyInt32(p *int32) *int32 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func copyIntOrString(p *IntOrString) *IntOrString {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// DeepCopy returns an independent copy of d.
func (d *Deployment) DeepCopy() *Deployment {
	out := *d
	out.ObjectMeta = d.ObjectMeta.DeepCopy()
	out.Spec.Replicas = copyInt32(d.Spec.Replicas)
	out.Spec.Selector = d.Spec.Selector.DeepCopy()
	out.Spec.Template = d.Spec.Template.DeepCopy()
	out.Spec.RevisionHistoryLimit = copyInt32(d.Spec.RevisionHistoryLimit)
	out.Spec.ProgressDeadlineSeconds = copyInt32(d.Spec.ProgressDeadlineSeconds)
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		out.Spec.Strategy.RollingUpdate = &RollingUpdateDeployment{
			MaxUnavailable: copyIntOrString(ru.MaxUnavailable),
			MaxSurge:       copyIntOrString(ru.MaxSurge),
		}
	}
	out.Status.Conditions = append([]DeploymentCondition(nil), d.Status.Conditions...)
	out.Status.CollisionCount = copyInt32(d.Status.CollisionCount)
	return &out
}

// DeepCopy returns an independent copy of r.
func (r *ReplicaSet) DeepCopy() *ReplicaSet {
	out := *r
	out.ObjectMeta = r.ObjectMeta.DeepCopy()
	out.Spec.Replicas = copyInt32(r.Spec.Replicas)
	out.Spec.Selector = r.Spec.Selector.DeepCopy()
	out.Spec.Template = r.Spec.Template.DeepCopy()
	out.Status.Conditions = append([]ReplicaSetCondition(nil), r.Status.Conditions...)
	return &out
}

// DeepCopy returns an independent copy of p.
func (p *Pod) DeepCopy() *Pod {
	out := *p
	out.ObjectMeta = p.ObjectMeta.DeepCopy()
	out.Spec = p.Spec.DeepCopy()
	out.Status = p.Status.DeepCopy()
	return &out
}

// DeepCopy returns an independent copy of s.
func (s ContainerState) DeepCopy() ContainerState {
	var out ContainerState
	if s.Waiting != nil {
		v := *s.Waiting
		out.Waiting = &v
	}
	if s.Running != nil {
		v := *s.Running
		out.Running = &v
	}
	if s.Terminated != nil {
		v := *s.Terminated
		out.Terminated = &v
	}
	return out
}

// DeepCopy returns an independent copy of n.
func (n *Node) DeepCopy() *Node {
	out := *n
	out.ObjectMeta = n.ObjectMeta.DeepCopy()
	if n.Spec.Taints != nil {
		out.Spec.Taints = make([]Taint, len(n.Spec.Taints))
		for i, t := range n.Spec.Taints {
			if t.TimeAdded != nil {
				v := *t.TimeAdded
				t.TimeAdded = &v
			}
			out.Spec.Taints[i] = t
		}
	}
	out.Spec.PodCIDRs = append([]string(nil), n.Spec.PodCIDRs...)
	out.Status.Capacity = cloneQuantities(n.Status.Capacity)
	out.Status.Allocatable = cloneQuantities(n.Status.Allocatable)
	out.Status.Conditions = append([]NodeCondition(nil), n.Status.Conditions...)
	out.Status.Addresses = append([]NodeAddress(nil), n.Status.Addresses...)
	if n.Status.NodeInfo != nil {
		info := *n.Status.NodeInfo
		out.Status.NodeInfo = &info
	}
	return &out
}

// DeepCopy returns an independent copy of e.
func (e *Event) DeepCopy() *Event {
	out := *e
	out.ObjectMeta = e.ObjectMeta.DeepCopy()
	if e.Series != nil {
		s := *e.Series
		out.Series = &s
	}
	return &out
}

// DeepCopy returns an independent copy of l.
func (l *Lease) DeepCopy() *Lease {
	out := *l
	out.ObjectMeta = l.ObjectMeta.DeepCopy()
	return &out
}

// DeepCopy returns an independent copy of u.
func (u *Unstructured) DeepCopy() *Unstructured {
	out := *u
	out.ObjectMeta = u.ObjectMeta.DeepCopy()
	out.Spec = deepCopyMap(u.Spec)
	out.Data = deepCopyMap(u.Data)
	out.Fields = deepCopyMap(u.Fields)
	return &out
}

func (d *Deployment) Meta() *ObjectMeta   { return &d.ObjectMeta }
func (r *ReplicaSet) Meta() *ObjectMeta   { return &r.ObjectMeta }
func (p *Pod) Meta() *ObjectMeta          { return &p.ObjectMeta }
func (n *Node) Meta() *ObjectMeta         { return &n.ObjectMeta }
func (e *Event) Meta() *ObjectMeta        { return &e.ObjectMeta }
func (l *Lease) Meta() *ObjectMeta        { return &l.ObjectMeta }
func (u *Unstructured) Meta() *ObjectMeta { return &u.ObjectMeta }

func (d *Deployment) GetTypeMeta() *TypeMeta   { return &d.TypeMeta }
func (r *ReplicaSet) GetTypeMeta() *TypeMeta   { return &r.TypeMeta }
func (p *Pod) GetTypeMeta() *TypeMeta          { return &p.TypeMeta }
func (n *Node) GetTypeMeta() *TypeMeta         { return &n.TypeMeta }
func (e *Event) GetTypeMeta() *TypeMeta        { return &e.TypeMeta }
func (l *Lease) GetTypeMeta() *TypeMeta        { return &l.TypeMeta }
func (u *Unstructured) GetTypeMeta() *TypeMeta { return &u.TypeMeta }

func (d *Deployment) DeepCopyObject() Object   { return d.DeepCopy() }
func (r *ReplicaSet) DeepCopyObject() Object   { return r.DeepCopy() }
func (p *Pod) DeepCopyObject() Object          { return p.DeepCopy() }
func (n *Node) DeepCopyObject() Object         { return n.DeepCopy() }
func (e *Event) DeepCopyObject() Object        { return e.DeepCopy() }
func (l *Lease) DeepCopyObject() Object        { return l.DeepCopy() }
func (u *Unstructured) DeepCopyObject() Object { return u.DeepCopy() }

// deepCopy returns an independent copy of t.
func (t NodeSelectorTerm) deepCopy() NodeSelectorTerm {
	out := NodeSelectorTerm{MatchExpressions: make([]NodeSelectorRequirement, len(t.MatchExpressions))}
	for j, e := range t.MatchExpressions {
		e.Values = append([]string(nil), e.Values...)
		out.MatchExpressions[j] = e
	}
	for _, f := range t.MatchFields {
		f.Values = append([]string(nil), f.Values...)
		out.MatchFields = append(out.MatchFields, f)
	}
	return out
}
