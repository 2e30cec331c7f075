// Package k8sapi has no code of its own: its test decodes every manifest of
// every bundled scenario strictly into the real Kubernetes API types
// (k8s.io/api), so that what a learner copies out of the playground is valid
// Kubernetes. It is a package of its own so that k8s.io/api, a test-only
// dependency, is never linked into the engine or the WebAssembly program.
package k8sapi
