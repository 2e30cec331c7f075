// Package manifest decodes Kubernetes YAML into the engine's objects, as
// `kubectl apply -f` reads a file: multi-document, Lists expanded, every
// problem at its file:line:column.
//
//	ms, err := manifest.Decode("web.yaml", text, 1, 1)
//	// web.yaml:7:15: Deployment.spec.replicas: invalid type: got "string", expected "integer"
//
// The kinds the engine simulates (see api.Kinds) decode into their api
// structs, strictly typed; every other kind into *api.Unstructured, stored
// and listed but not simulated; a kind the API server does not serve at the
// apiVersion written is refused as kubectl refuses it ("no matches for
// kind"). Unknown fields are refused with the API server's strict decoding
// error, as kubectl apply --validate=strict (its default); with Warn they
// are warnings, as --validate=warn prints them. Objects are as written,
// but for the namespace "default" when a namespaced one names none: the API
// server's other defaults come later (package validation). The limits on a file (package limits) are enforced
// here: its size, its objects, its aliases, and the replicas a workload may
// ask for.
package manifest
