package validation

import (
	"reconcile/engine/api"
)

// ValidateCreate checks an object about to be created, after Default, and
// returns an *Error listing every cause, or nil. Kinds the engine does not
// simulate get their metadata checked only; Events and Leases, written by
// the control plane itself, are not checked.
func ValidateCreate(obj api.Object) error {
	return toError(obj, validateObject(obj))
}

// ValidateUpdate checks old → new on an update of the main resource (not
// status), after Default: everything ValidateCreate checks on new, plus the
// fields that may not change (a workload's selector, most of a pod's spec).
func ValidateUpdate(old, new api.Object) error {
	errs := validateObject(new)
	errs = append(errs, validateNoNewFinalizers(old.Meta(), new.Meta(), Path("metadata.finalizers"))...)
	switch n := new.(type) {
	case *api.Deployment:
		if o, ok := old.(*api.Deployment); ok && !selectorsEqual(o.Spec.Selector, n.Spec.Selector) {
			errs = append(errs, Immutable(Path("spec.selector"), n.Spec.Selector))
		}
	case *api.ReplicaSet:
		if o, ok := old.(*api.ReplicaSet); ok && !selectorsEqual(o.Spec.Selector, n.Spec.Selector) {
			errs = append(errs, Immutable(Path("spec.selector"), n.Spec.Selector))
		}
	case *api.Pod:
		if o, ok := old.(*api.Pod); ok {
			errs = append(errs, validatePodSpecUpdate(&o.Spec, &n.Spec)...)
		}
	case *api.Job:
		if o, ok := old.(*api.Job); ok {
			errs = append(errs, validateJobUpdate(o, n)...)
		}
	case *api.DaemonSet:
		if o, ok := old.(*api.DaemonSet); ok && !selectorsEqual(o.Spec.Selector, n.Spec.Selector) {
			errs = append(errs, Immutable(Path("spec.selector"), n.Spec.Selector))
		}
	case *api.StatefulSet:
		if o, ok := old.(*api.StatefulSet); ok {
			errs = append(errs, validateStatefulSetUpdate(o, n)...)
		}
	case *api.Service:
		if o, ok := old.(*api.Service); ok {
			errs = append(errs, validateServiceUpdate(o, n)...)
		}
	case *api.ControllerRevision:
		if o, ok := old.(*api.ControllerRevision); ok {
			errs = append(errs, validateControllerRevisionUpdate(o, n)...)
		}
	case *api.Node:
		if o, ok := old.(*api.Node); ok {
			errs = append(errs, validateNodeUpdate(o, n)...)
		}
	}
	return toError(new, errs)
}

// Errors returns the causes ValidateCreate would report for obj, for callers
// that place each cause themselves (the scenario loader points each one at
// its line).
func Errors(obj api.Object) ErrorList { return validateObject(obj) }

func toError(obj api.Object, errs ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return NewError(obj.GetTypeMeta().Kind, obj.Meta().Name, errs)
}

func validateObject(obj api.Object) ErrorList {
	meta := Path("metadata")
	switch o := obj.(type) {
	case *api.Deployment:
		return append(validateObjectMeta(&o.ObjectMeta, "Deployment", meta), validateDeploymentSpec(&o.Spec, Path("spec"))...)
	case *api.ReplicaSet:
		return append(validateObjectMeta(&o.ObjectMeta, "ReplicaSet", meta), validateReplicaSetSpec(&o.Spec, Path("spec"))...)
	case *api.Pod:
		errs := validateObjectMeta(&o.ObjectMeta, "Pod", meta)
		errs = append(errs, validatePodSpec(&o.Spec, Path("spec"))...)
		if o.Spec.NodeName != "" {
			for _, m := range IsDNS1123Subdomain(o.Spec.NodeName) {
				errs = append(errs, Invalid(Path("spec.nodeName"), o.Spec.NodeName, m))
			}
		}
		return errs
	case *api.Node:
		return append(validateObjectMeta(&o.ObjectMeta, "Node", meta), validateTaints(o.Spec.Taints, Path("spec.taints"))...)
	case *api.Job:
		return append(validateObjectMeta(&o.ObjectMeta, "Job", meta), validateJobSpec(&o.Spec, Path("spec"))...)
	case *api.DaemonSet:
		return append(validateObjectMeta(&o.ObjectMeta, "DaemonSet", meta), validateDaemonSetSpec(&o.Spec, Path("spec"))...)
	case *api.StatefulSet:
		return append(validateObjectMeta(&o.ObjectMeta, "StatefulSet", meta), validateStatefulSetSpec(&o.Spec, Path("spec"))...)
	case *api.CronJob:
		return append(validateObjectMeta(&o.ObjectMeta, "CronJob", meta), validateCronJobSpec(&o.Spec, Path("spec"))...)
	case *api.PersistentVolumeClaim:
		return append(validateObjectMeta(&o.ObjectMeta, "PersistentVolumeClaim", meta), validateClaimSpec(&o.Spec, Path("spec"))...)
	case *api.Service:
		return validateService(o)
	case *api.EndpointSlice:
		return validateEndpointSlice(o)
	case *api.ControllerRevision:
		return validateControllerRevision(o)
	case *api.Event, *api.Lease:
		return nil
	case *api.Namespace:
		return validateNamespace(o, meta)
	}
	return validateObjectMeta(obj.Meta(), obj.GetTypeMeta().Kind, meta)
}

// validateObjectMeta checks name (or generateName), namespace, labels and
// annotations. (metadata.generation is the store's to set.)
func validateObjectMeta(m *api.ObjectMeta, kind string, p Path) ErrorList {
	var errs ErrorList
	if m.GenerateName != "" {
		for _, msg := range nameIsDNSSubdomain(m.GenerateName, true) {
			errs = append(errs, Invalid(p.Child("generateName"), m.GenerateName, msg))
		}
	}
	if m.Name == "" {
		errs = append(errs, Required(p.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameIsDNSSubdomain(m.Name, false) {
			errs = append(errs, Invalid(p.Child("name"), m.Name, msg))
		}
	}
	if Namespaced(kind) {
		if m.Namespace == "" {
			errs = append(errs, Required(p.Child("namespace"), ""))
		} else {
			for _, msg := range IsDNS1123Label(m.Namespace) {
				errs = append(errs, Invalid(p.Child("namespace"), m.Namespace, msg))
			}
		}
	} else if m.Namespace != "" {
		errs = append(errs, Forbidden(p.Child("namespace"), "not allowed on this type"))
	}
	errs = append(errs, validateLabels(m.Labels, p.Child("labels"))...)
	errs = append(errs, validateAnnotations(m.Annotations, p.Child("annotations"))...)
	errs = append(errs, validateFinalizers(m.Finalizers, p.Child("finalizers"))...)
	return errs
}

const isNegativeMsg = "must be greater than or equal to 0"

func nonNegative(v int64, p Path) ErrorList {
	if v < 0 {
		return ErrorList{Invalid(p, v, isNegativeMsg)}
	}
	return nil
}
