// Package merge is the three-way merge `kubectl apply` does (client-side
// apply, kubectl's default).
//
// kubectl keeps, in the annotation kubectl.kubernetes.io/last-applied-configuration,
// the manifest it applied last. On the next apply it compares three things:
//
//   - original: the manifest applied last time (the annotation);
//   - modified: the manifest applied now;
//   - current: the live object, as other writers left it.
//
// Fields the manifest sets win over the live values. Fields the manifest
// dropped since last time (in original, not in modified) are removed. Every
// other live field stays: a label added by `kubectl label`, spec.replicas
// set by `kubectl scale` when the manifest names no replicas, the
// scheduler's spec.nodeName, the API server's defaults.
//
// Lists are merged the "strategic" way where the Kubernetes API declares a
// patch strategy for them: containers by name, env by name, container
// ports by containerPort, volumes by name, volumeMounts by mountPath, and
// a few more (see Strategy). Such a list keeps the items other writers
// added and orders the result as the API server does: the manifest's
// items in the manifest's order, the others interleaved where they were.
// Every other list (tolerations, args, command, …) is atomic: the
// manifest's list replaces the live one whole.
//
// ThreeWay also says whether kubectl's patch would be empty, which is what
// decides between "unchanged" and "configured". It works on JSON-shaped
// values (map[string]any, []any, float64, string, bool, nil) and knows no
// kind: the strategy of a list is found from its field path.
package merge
