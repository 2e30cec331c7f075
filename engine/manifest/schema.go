package manifest

import (
	"fmt"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"reconcile/engine/api"
	"reconcile/engine/yamlpos"
)

// Validation is how the decoder treats a field an object's kind does not
// have, as kubectl's --validate flag: Strict (kubectl's default) refuses
// the object, Warn prints a warning and drops the field.
type Validation int

const (
	// Strict refuses unknown fields with the API server's strict decoding
	// error.
	Strict Validation = iota
	// Warn keeps going and warns about each unknown field.
	Warn
	// RefuseEach is Strict for one object at a time, as the API server
	// decodes each object kubectl apply sends it: an object with unknown
	// fields carries the strict decoding error in Refused (for the text
	// kubectl apply -f - reads, named "STDIN"), the others decode.
	RefuseEach
)

// storedFields returns the top-level fields (beyond apiVersion, kind and
// metadata) of a kind the engine stores as *api.Unstructured without
// simulating it: spec and status unless listed here. A switch, not a map
// literal: a table in code costs app.wasm less than the init code that
// fills a map.
func storedFields(kind string) []string {
	switch kind {
	case "ConfigMap":
		return []string{"data", "binaryData", "immutable"}
	case "Secret":
		return []string{"data", "stringData", "type", "immutable"}
	case "ServiceAccount":
		return []string{"secrets", "imagePullSecrets", "automountServiceAccountToken"}
	case "Role":
		return []string{"rules"}
	case "ClusterRole":
		return []string{"rules", "aggregationRule"}
	case "RoleBinding", "ClusterRoleBinding":
		return []string{"subjects", "roleRef"}
	case "Endpoints":
		return []string{"subsets"}
	case "StorageClass":
		return []string{"provisioner", "parameters", "reclaimPolicy", "mountOptions", "allowVolumeExpansion", "volumeBindingMode", "allowedTopologies"}
	case "PriorityClass":
		return []string{"value", "globalDefault", "description", "preemptionPolicy"}
	case "RuntimeClass":
		return []string{"handler", "overhead", "scheduling"}
	case "MutatingWebhookConfiguration":
		return []string{"webhooks"}
	case "IngressClass", "ValidatingAdmissionPolicyBinding", "CSIDriver", "CSINode":
		return []string{"spec"}
	}
	return []string{"spec", "status"}
}

// served reports whether the API server serves kind k at apiVersion: its
// preferred version (the registry's New), or another version it still
// serves for that kind.
func served(k api.Kind, apiVersion string) bool {
	if apiVersion == k.APIVersion() {
		return true
	}
	return k.Name == "HorizontalPodAutoscaler" && apiVersion == "autoscaling/v1"
}

// noMatch is kubectl's refusal of a kind the API server does not serve at
// that version (a typo in kind, a removed version such as batch/v1beta1
// CronJob, a custom resource without its definition).
func noMatch(n *yaml.Node, file, kind, apiVersion string) string {
	name, namespace := "", ""
	if md := yamlpos.Lookup(n, "metadata"); md != nil {
		name, namespace = scalarAt(md, "name"), scalarAt(md, "namespace")
	}
	return fmt.Sprintf("resource mapping not found for name: %q namespace: %q from %q: no matches for kind %q in version %q\nensure CRDs are installed first",
		name, namespace, file, kind, apiVersion)
}

// strictError is the API server's refusal of an object with unknown
// fields, as kubectl prints it when it creates the object.
func strictError(file, kind, apiVersion string, fields []unknownField) string {
	version := apiVersion
	if i := strings.LastIndexByte(version, '/'); i >= 0 {
		version = version[i+1:]
	}
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = fmt.Sprintf("unknown field %q", f.path)
	}
	return fmt.Sprintf("Error from server (BadRequest): error when creating %q: %s in version %q cannot be handled as a %s: strict decoding error: %s",
		file, kind, version, kind, strings.Join(parts, ", "))
}

// podTemplatePath is where a workload the engine stores without
// simulating it holds a pod template, decoded as one to check its fields.
func podTemplatePath(kind string) []string {
	switch kind {
	case "StatefulSet", "DaemonSet", "ReplicationController":
		return []string{"spec", "template"}
	case "CronJob":
		return []string{"spec", "jobTemplate", "spec", "template"}
	}
	return nil
}

// checkPodTemplate decodes the pod template of a workload the engine does
// not simulate, so that its fields are checked as a Deployment's are.
func (d *objDecoder) checkPodTemplate(n *yaml.Node, kind string) {
	path := podTemplatePath(kind)
	if path == nil {
		return
	}
	cur := n
	for _, seg := range path {
		if cur = yamlpos.Lookup(cur, seg); cur == nil {
			return
		}
	}
	var t api.PodTemplateSpec
	d.decode(cur, reflect.ValueOf(&t).Elem(), strings.Join(path, "."))
}

// stringMaps are the fields of stored kinds whose values the API server
// decodes as strings (map[string]string in k8s.io/api).
func stringMaps(kind string) []string {
	switch kind {
	case "ConfigMap":
		return []string{"data", "binaryData"}
	case "Secret":
		return []string{"data", "stringData"}
	}
	return nil
}

// checkStringMaps refuses a value of a string map that is not a string,
// with the API server's words: a list or mapping there is not a ConfigMap.
func (d *objDecoder) checkStringMaps(n *yaml.Node, kind string) {
	for _, field := range stringMaps(kind) {
		m := yamlpos.Lookup(n, field)
		if m == nil || m.Kind != yaml.MappingNode {
			continue
		}
		for i := 1; i < len(m.Content); i += 2 {
			v := yamlpos.Resolve(m.Content[i])
			json := map[string]string{"object": "object", "array": "array", "integer": "number", "number": "number", "boolean": "bool"}[yamlpos.TypeName(v)]
			if json == "" {
				continue // a string, or null (an empty string)
			}
			*d.errs = append(*d.errs, &yamlpos.Error{Pos: d.pm.Of(v), Msg: fmt.Sprintf(
				"%s in version \"v1\" cannot be handled as a %s: json: cannot unmarshal %s into Go struct field %s.%s of type string",
				kind, kind, json, kind, field)})
			return
		}
	}
}
