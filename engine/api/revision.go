package api

import "encoding/json"

// ControllerRevision is an immutable snapshot of a DaemonSet's or a
// StatefulSet's pod template (apps/v1): the controllers record one per
// template they have run, number them, and roll back by making an old one
// the newest again. Its data is what the controllers store: a strategic
// merge patch that puts the template back, {"spec":{"template":{"$patch":
// "replace", ...}}}. The API server refuses changes to data; revision may
// change (that is how a rollback renumbers it).
type ControllerRevision struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Data       RevisionData `json:"data,omitempty" yaml:"data,omitempty"`
	Revision   int64        `json:"revision" yaml:"revision"`
}

// RevisionData is a revision's data as the DaemonSet and StatefulSet
// controllers write it: a patch of the set's spec.template. (Kubernetes
// stores any JSON here; the engine knows only the shape its controllers
// and kubectl rollout read.)
type RevisionData struct {
	Spec *RevisionSpec `json:"spec,omitempty" yaml:"spec,omitempty"`
}

// RevisionSpec holds the template of a revision's patch.
type RevisionSpec struct {
	Template *RevisionTemplate `json:"template,omitempty" yaml:"template,omitempty"`
}

// RevisionTemplate is a pod template with the strategic merge directive
// "$patch": "replace" (the template replaces the set's whole template).
type RevisionTemplate struct {
	Patch           string `json:"$patch,omitempty" yaml:"$patch,omitempty"`
	PodTemplateSpec `json:",inline" yaml:",inline"`
}

// MarshalJSON renders the template as the v1.34 controllers record it:
// "$patch" first, and no creationTimestamp in the template's metadata
// (apimachinery v0.34 leaves a zero time out).
func (t RevisionTemplate) MarshalJSON() ([]byte, error) {
	type meta struct {
		Name        string            `json:"name,omitempty"`
		Namespace   string            `json:"namespace,omitempty"`
		Labels      map[string]string `json:"labels,omitempty"`
		Annotations map[string]string `json:"annotations,omitempty"`
	}
	return json.Marshal(struct {
		Patch    string  `json:"$patch,omitempty"`
		Metadata meta    `json:"metadata"`
		Spec     PodSpec `json:"spec"`
	}{t.Patch, meta{t.Name, t.Namespace, t.Labels, t.Annotations}, t.Spec})
}

// UnmarshalJSON reads the template and its "$patch".
func (t *RevisionTemplate) UnmarshalJSON(b []byte) error {
	var p struct {
		Patch string `json:"$patch"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	t.Patch = p.Patch
	return json.Unmarshal(b, &t.PodTemplateSpec)
}

// RevisionOf makes the data a controller records for a set's template.
func RevisionOf(t *PodTemplateSpec) RevisionData {
	return RevisionData{Spec: &RevisionSpec{Template: &RevisionTemplate{Patch: "replace", PodTemplateSpec: t.DeepCopy()}}}
}

// Template returns the pod template the data restores, or nil when it
// holds none.
func (d *RevisionData) Template() *PodTemplateSpec {
	if d.Spec == nil || d.Spec.Template == nil {
		return nil
	}
	return &d.Spec.Template.PodTemplateSpec
}

// DeepCopy returns an independent copy of d.
func (d RevisionData) DeepCopy() RevisionData {
	if d.Spec == nil {
		return d
	}
	s := *d.Spec
	if s.Template != nil {
		t := *s.Template
		t.PodTemplateSpec = s.Template.PodTemplateSpec.DeepCopy()
		s.Template = &t
	}
	return RevisionData{Spec: &s}
}

// DeepCopy returns an independent copy of r.
func (r *ControllerRevision) DeepCopy() *ControllerRevision {
	out := *r
	out.ObjectMeta = r.ObjectMeta.DeepCopy()
	out.Data = r.Data.DeepCopy()
	return &out
}

func (r *ControllerRevision) Meta() *ObjectMeta      { return &r.ObjectMeta }
func (r *ControllerRevision) GetTypeMeta() *TypeMeta { return &r.TypeMeta }
func (r *ControllerRevision) DeepCopyObject() Object { return r.DeepCopy() }
