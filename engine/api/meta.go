package api

import "maps"

// TypeMeta names the kind and API version of an object.
type TypeMeta struct {
	APIVersion string `json:"apiVersion" yaml:"apiVersion"`
	Kind       string `json:"kind" yaml:"kind"`
}

// ObjectMeta is the metadata every stored object carries.
type ObjectMeta struct {
	Name              string            `json:"name,omitempty" yaml:"name,omitempty"`
	GenerateName      string            `json:"generateName,omitempty" yaml:"generateName,omitempty"`
	Namespace         string            `json:"namespace,omitempty" yaml:"namespace,omitempty"`
	UID               string            `json:"uid,omitempty" yaml:"uid,omitempty"`
	ResourceVersion   string            `json:"resourceVersion,omitempty" yaml:"resourceVersion,omitempty"`
	Generation        int64             `json:"generation,omitempty" yaml:"generation,omitempty"`
	CreationTimestamp Time              `json:"creationTimestamp" yaml:"-"`
	DeletionTimestamp *Time             `json:"deletionTimestamp,omitempty" yaml:"-"`
	Labels            map[string]string `json:"labels,omitempty" yaml:"labels,omitempty"`
	Annotations       map[string]string `json:"annotations,omitempty" yaml:"annotations,omitempty"`
	OwnerReferences   []OwnerReference  `json:"ownerReferences,omitempty" yaml:"ownerReferences,omitempty"`
	// Finalizers must all be removed before a deleted object goes: until
	// then it stays, with its deletionTimestamp set (Terminating).
	Finalizers []string `json:"finalizers,omitempty" yaml:"finalizers,omitempty"`
	// DeletionGracePeriodSeconds is the grace a graceful delete gave the
	// object (a pod's terminationGracePeriodSeconds); 0 once its last
	// delete has no grace left, when removing the last finalizer removes it.
	DeletionGracePeriodSeconds *int64 `json:"deletionGracePeriodSeconds,omitempty" yaml:"-"`
}

// OwnerReference points from a dependent to the object that controls it.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion" yaml:"apiVersion"`
	Kind               string `json:"kind" yaml:"kind"`
	Name               string `json:"name" yaml:"name"`
	UID                string `json:"uid" yaml:"uid"`
	Controller         bool   `json:"controller,omitempty" yaml:"controller,omitempty"`
	BlockOwnerDeletion bool   `json:"blockOwnerDeletion,omitempty" yaml:"blockOwnerDeletion,omitempty"`
}

// DeepCopy returns an independent copy of m.
func (m ObjectMeta) DeepCopy() ObjectMeta {
	out := m
	out.Labels = maps.Clone(m.Labels)
	out.Annotations = maps.Clone(m.Annotations)
	if m.DeletionTimestamp != nil {
		t := *m.DeletionTimestamp
		out.DeletionTimestamp = &t
	}
	if m.OwnerReferences != nil {
		out.OwnerReferences = append([]OwnerReference(nil), m.OwnerReferences...)
	}
	if m.Finalizers != nil {
		out.Finalizers = append([]string(nil), m.Finalizers...)
	}
	if m.DeletionGracePeriodSeconds != nil {
		g := *m.DeletionGracePeriodSeconds
		out.DeletionGracePeriodSeconds = &g
	}
	return out
}

// ControllerOf returns the owner reference with controller: true, if any.
func (m *ObjectMeta) ControllerOf() *OwnerReference {
	for i := range m.OwnerReferences {
		if m.OwnerReferences[i].Controller {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

// Object is any stored kind.
type Object interface {
	// Meta returns the object's metadata, for reading and writing in place.
	Meta() *ObjectMeta
	// GetTypeMeta returns the object's kind and API version.
	GetTypeMeta() *TypeMeta
	// DeepCopyObject returns an independent copy.
	DeepCopyObject() Object
}

// Ref identifies a stored object: kind, namespace and name.
type Ref struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// RefOf returns the Ref of o.
func RefOf(o Object) Ref {
	return Ref{Kind: o.GetTypeMeta().Kind, Namespace: o.Meta().Namespace, Name: o.Meta().Name}
}

// String renders r as kubectl names objects: "deployment/web".
func (r Ref) String() string { return LowerKind(r.Kind) + "/" + r.Name }

// Key renders r as a work-queue key: "default/web" (or "web" when cluster-scoped).
func (r Ref) Key() string {
	if r.Namespace == "" {
		return r.Name
	}
	return r.Namespace + "/" + r.Name
}

// LowerKind returns the lower-case kind used in kubectl output.
func LowerKind(kind string) string {
	b := []byte(kind)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// LabelSelector selects objects by labels.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty" yaml:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty" yaml:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is one expression of a selector.
type LabelSelectorRequirement struct {
	Key      string   `json:"key" yaml:"key"`
	Operator string   `json:"operator" yaml:"operator"`
	Values   []string `json:"values,omitempty" yaml:"values,omitempty"`
}

// DeepCopy returns an independent copy of s (nil stays nil).
func (s *LabelSelector) DeepCopy() *LabelSelector {
	if s == nil {
		return nil
	}
	out := &LabelSelector{MatchLabels: maps.Clone(s.MatchLabels)}
	for _, r := range s.MatchExpressions {
		r.Values = append([]string(nil), r.Values...)
		out.MatchExpressions = append(out.MatchExpressions, r)
	}
	return out
}

// Empty reports whether s selects everything.
func (s *LabelSelector) Empty() bool {
	return s == nil || (len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0)
}

// Matches reports whether labels satisfy s. A nil selector matches nothing.
func (s *LabelSelector) Matches(labels map[string]string) bool {
	if s == nil {
		return false
	}
	for k, v := range s.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, r := range s.MatchExpressions {
		v, ok := labels[r.Key]
		in := false
		for _, want := range r.Values {
			if v == want {
				in = true
			}
		}
		switch r.Operator {
		case "In":
			if !ok || !in {
				return false
			}
		case "NotIn":
			if ok && in {
				return false
			}
		case "Exists":
			if !ok {
				return false
			}
		case "DoesNotExist":
			if ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}
