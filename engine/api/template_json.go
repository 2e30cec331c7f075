package api

import "encoding/json"

// templateMeta is a pod template's metadata as the API server renders it:
// a template is never created itself, so it has no creationTimestamp, and
// v1.34's apimachinery leaves the zero time out (omitzero) where older
// servers printed null.
type templateMeta struct {
	Name        string            `json:"name,omitempty"`
	Namespace   string            `json:"namespace,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// MarshalJSON renders the template without metadata.creationTimestamp.
func (t PodTemplateSpec) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Metadata templateMeta `json:"metadata"`
		Spec     PodSpec      `json:"spec"`
	}{templateMeta{Name: t.Name, Namespace: t.Namespace, Labels: t.Labels, Annotations: t.Annotations}, t.Spec})
}

// UnmarshalJSON reads a template (the metadata fields a template may carry).
func (t *PodTemplateSpec) UnmarshalJSON(b []byte) error {
	var v struct {
		Metadata ObjectMeta `json:"metadata"`
		Spec     PodSpec    `json:"spec"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	t.ObjectMeta, t.Spec = v.Metadata, v.Spec
	return nil
}
