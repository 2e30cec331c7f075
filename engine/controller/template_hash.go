package controller

import (
	"encoding/json"

	"reconcile/engine/api"
)

// hashInput is the text templateHash hashes: the template's JSON in the form
// it had before the API server stopped printing the template's null
// creationTimestamp (v1.34). The name of every ReplicaSet depends on it, so
// it keeps that form: the hash stays what lessons and scripts were written
// with while the rendered template follows v1.34.
func hashInput(t *api.PodTemplateSpec) []byte {
	type meta struct {
		Name              string            `json:"name,omitempty"`
		Namespace         string            `json:"namespace,omitempty"`
		CreationTimestamp *api.Time         `json:"creationTimestamp"`
		Labels            map[string]string `json:"labels,omitempty"`
		Annotations       map[string]string `json:"annotations,omitempty"`
	}
	b, _ := json.Marshal(struct {
		Metadata meta        `json:"metadata"`
		Spec     api.PodSpec `json:"spec"`
	}{meta{Name: t.Name, Namespace: t.Namespace, Labels: t.Labels, Annotations: t.Annotations}, t.Spec})
	return b
}
