package kubectl

// Services, EndpointSlices and Endpoints as kubectl prints them: get's
// columns (NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE; NAME ADDRESSTYPE
// PORTS ENDPOINTS AGE; NAME ENDPOINTS AGE) and describe (in engine/kinds).

// EndpointsDeprecation is the warning the API server sends with every
// request for v1 Endpoints (from v1.33), which kubectl prints to stderr.
const EndpointsDeprecation = "Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n"

// warnEndpoints adds the API server's deprecation warning when a command
// names v1 Endpoints.
func (k *cmd) warnEndpoints(ts []target) {
	for _, t := range ts {
		if t.kind.Name == "Endpoints" {
			k.in.Warnings = append(k.in.Warnings, EndpointsDeprecation)
			return
		}
	}
}
