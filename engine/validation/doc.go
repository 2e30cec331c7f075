// Package validation is what the simulated API server does to an object
// before it stores it: defaulting, then validation, with the field paths and
// messages of Kubernetes v1.34+.
//
// It has a function per kind (ValidateDeployment, DefaultPod, ...); which
// kind gets which is the kind's strategy's to say (package kinds), through
// which the store calls, in this order:
//
//	kinds.Default(obj)                 // fill what the client left out
//	err := kinds.ValidateCreate(obj)   // or ValidateUpdate(old, obj)
//
// Defaulting is what makes a three-line Deployment a complete desired state:
// replicas 1, a RollingUpdate strategy of 25% / 25%, a progress deadline of
// 600 seconds, ten old ReplicaSets kept, and an imagePullPolicy derived from
// the image tag. Validation refuses desired states no controller could
// reconcile — a negative replica count, a selector that does not select the
// pods the template makes — and fields that may not change once set, such as a
// Deployment's selector.
//
// A refusal is an *Error: the kind, the name and one FieldError per cause.
// Its Error method renders it as kubectl prints it,
//
//	The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
//
// and Message renders the API server's own wording, which is what a
// controller sees (and records in a FailedCreate event):
//
//	Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
package validation
