package merge

import "strings"

// Strategy returns how the list at a field path merges: by the value of
// key in each item (ok true), or atomically (ok false). retain is the
// API's retainKeys strategy (volumes): an item the patch touches keeps only
// the fields the manifest gives it, so that switching a volume's source
// does not leave the old one behind.
//
// path is the field names from the object's root, list items adding
// nothing: "spec.template.spec.containers.env". The table holds the lists
// of the Kubernetes API (v1.34) that carry patchStrategy "merge" and that a
// manifest can set.
func Strategy(path string) (key string, retain, ok bool) {
	parent, last := "", path
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		last = path[i+1:]
		parent = path[:i]
		if j := strings.LastIndexByte(parent, '.'); j >= 0 {
			parent = parent[j+1:]
		}
	}
	container := parent == "containers" || parent == "initContainers" || parent == "ephemeralContainers"
	podSpec := parent == "spec"
	switch {
	case podSpec && (last == "containers" || last == "initContainers" || last == "ephemeralContainers"):
		return "name", false, true
	case container && last == "env":
		return "name", false, true
	case container && last == "ports":
		return "containerPort", false, true
	case container && last == "volumeMounts":
		return "mountPath", false, true
	case container && last == "volumeDevices":
		return "devicePath", false, true
	case path == "spec.ports": // a Service's ports
		return "port", false, true
	case podSpec && last == "volumes":
		return "name", true, true
	case podSpec && last == "resourceClaims":
		return "name", true, true
	case podSpec && (last == "imagePullSecrets" || last == "schedulingGates"):
		return "name", false, true
	case podSpec && last == "hostAliases":
		return "ip", false, true
	case podSpec && last == "topologySpreadConstraints":
		return "topologyKey", false, true
	case path == "metadata.ownerReferences":
		return "uid", false, true
	case path == "secrets": // a ServiceAccount's secrets
		return "name", false, true
	case path == "status.conditions" || path == "status.addresses":
		return "type", false, true
	}
	return "", false, false
}

// RetainsKeys reports whether the object field at path has the retainKeys
// strategy: a Deployment's spec.strategy, so that a manifest that switches
// to type Recreate has the defaulted rollingUpdate removed with it.
func RetainsKeys(path string) bool { return path == "spec.strategy" }
