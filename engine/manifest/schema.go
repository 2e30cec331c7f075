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

// topFields are the top-level fields (beyond apiVersion, kind and
// metadata) of the kinds the engine stores without simulating them. A kind
// not listed has spec and status.
var topFields = map[string][]string{
	"ConfigMap":                        {"data", "binaryData", "immutable"},
	"Secret":                           {"data", "stringData", "type", "immutable"},
	"ServiceAccount":                   {"secrets", "imagePullSecrets", "automountServiceAccountToken"},
	"Role":                             {"rules"},
	"ClusterRole":                      {"rules", "aggregationRule"},
	"RoleBinding":                      {"subjects", "roleRef"},
	"ClusterRoleBinding":               {"subjects", "roleRef"},
	"Endpoints":                        {"subsets"},
	"StorageClass":                     {"provisioner", "parameters", "reclaimPolicy", "mountOptions", "allowVolumeExpansion", "volumeBindingMode", "allowedTopologies"},
	"PriorityClass":                    {"value", "globalDefault", "description", "preemptionPolicy"},
	"RuntimeClass":                     {"handler", "overhead", "scheduling"},
	"MutatingWebhookConfiguration":     {"webhooks"},
	"IngressClass":                     {"spec"},
	"ValidatingAdmissionPolicyBinding": {"spec"},
	"CSIDriver":                        {"spec"},
	"CSINode":                          {"spec"},
}

// storedFields returns the top-level fields of a kind stored as
// *api.Unstructured.
func storedFields(kind string) []string {
	if f, ok := topFields[kind]; ok {
		return f
	}
	return []string{"spec", "status"}
}

// alsoServed are the other versions the API server still serves for a kind
// of the registry (whose New is its preferred version).
var alsoServed = map[string][]string{
	"HorizontalPodAutoscaler": {"autoscaling/v1"},
}

// served reports whether the API server serves kind k at apiVersion.
func served(k api.Kind, apiVersion string) bool {
	if apiVersion == k.APIVersion() {
		return true
	}
	for _, v := range alsoServed[k.Name] {
		if v == apiVersion {
			return true
		}
	}
	return false
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

// podTemplatePaths are where the workloads the engine stores without
// simulating them hold a pod template, decoded as one to check its fields.
var podTemplatePaths = map[string][]string{
	"StatefulSet":           {"spec", "template"},
	"DaemonSet":             {"spec", "template"},
	"ReplicationController": {"spec", "template"},
	"CronJob":               {"spec", "jobTemplate", "spec", "template"},
}

// checkPodTemplate decodes the pod template of a workload the engine does
// not simulate, so that its fields are checked as a Deployment's are.
func (d *objDecoder) checkPodTemplate(n *yaml.Node, kind string) {
	path, ok := podTemplatePaths[kind]
	if !ok {
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
var stringMaps = map[string][]string{
	"ConfigMap": {"data", "binaryData"},
	"Secret":    {"data", "stringData"},
}

// checkStringMaps refuses a value of a string map that is not a string,
// with the API server's words: a list or mapping there is not a ConfigMap.
func (d *objDecoder) checkStringMaps(n *yaml.Node, kind string) {
	for _, field := range stringMaps[kind] {
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
