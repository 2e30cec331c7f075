package validation

import (
	"reconcile/engine/api"
)

// The API server's validation, a function per kind as Kubernetes'
// pkg/apis/<group>/validation names them. Which kind gets which is the
// kind's strategy's to say (package kinds): nothing here switches on kinds.

// ValidateObjectMeta checks the metadata every object has: what a kind the
// engine does not simulate gets.
func ValidateObjectMeta(m *api.ObjectMeta, kind string) ErrorList {
	return validateObjectMeta(m, kind, Path("metadata"))
}

// ValidateObjectMetaUpdate checks what an update may not do to metadata
// (add finalizers to an object being deleted).
func ValidateObjectMetaUpdate(old, new *api.ObjectMeta) ErrorList {
	return validateNoNewFinalizers(old, new, Path("metadata.finalizers"))
}

// ValidateDeployment checks a Deployment.
func ValidateDeployment(d *api.Deployment) ErrorList {
	return append(validateObjectMeta(&d.ObjectMeta, "Deployment", Path("metadata")), validateDeploymentSpec(&d.Spec, Path("spec"))...)
}

// ValidateDeploymentUpdate checks what a Deployment's update may not change.
func ValidateDeploymentUpdate(old, new *api.Deployment) ErrorList {
	return selectorUnchanged(old.Spec.Selector, new.Spec.Selector)
}

// ValidateReplicaSet checks a ReplicaSet.
func ValidateReplicaSet(r *api.ReplicaSet) ErrorList {
	return append(validateObjectMeta(&r.ObjectMeta, "ReplicaSet", Path("metadata")), validateReplicaSetSpec(&r.Spec, Path("spec"))...)
}

// ValidateReplicaSetUpdate checks what a ReplicaSet's update may not change.
func ValidateReplicaSetUpdate(old, new *api.ReplicaSet) ErrorList {
	return selectorUnchanged(old.Spec.Selector, new.Spec.Selector)
}

// ValidatePod checks a Pod.
func ValidatePod(o *api.Pod) ErrorList {
	errs := validateObjectMeta(&o.ObjectMeta, "Pod", Path("metadata"))
	errs = append(errs, validatePodSpec(&o.Spec, Path("spec"))...)
	if o.Spec.NodeName != "" {
		for _, m := range IsDNS1123Subdomain(o.Spec.NodeName) {
			errs = append(errs, Invalid(Path("spec.nodeName"), o.Spec.NodeName, m))
		}
	}
	return errs
}

// ValidatePodUpdate checks what a Pod's update may not change.
func ValidatePodUpdate(old, new *api.Pod) ErrorList {
	return validatePodSpecUpdate(&old.Spec, &new.Spec)
}

// ValidateNode checks a Node.
func ValidateNode(n *api.Node) ErrorList {
	return append(validateObjectMeta(&n.ObjectMeta, "Node", Path("metadata")), validateTaints(n.Spec.Taints, Path("spec.taints"))...)
}

// ValidateNodeUpdate checks what a Node's update may not change.
func ValidateNodeUpdate(old, new *api.Node) ErrorList { return validateNodeUpdate(old, new) }

// ValidateJob checks a Job.
func ValidateJob(j *api.Job) ErrorList {
	return append(validateObjectMeta(&j.ObjectMeta, "Job", Path("metadata")), validateJobSpec(&j.Spec, Path("spec"))...)
}

// ValidateJobUpdate checks what a Job's update may not change.
func ValidateJobUpdate(old, new *api.Job) ErrorList { return validateJobUpdate(old, new) }

// ValidateDaemonSet checks a DaemonSet.
func ValidateDaemonSet(d *api.DaemonSet) ErrorList {
	return append(validateObjectMeta(&d.ObjectMeta, "DaemonSet", Path("metadata")), validateDaemonSetSpec(&d.Spec, Path("spec"))...)
}

// ValidateDaemonSetUpdate checks what a DaemonSet's update may not change.
func ValidateDaemonSetUpdate(old, new *api.DaemonSet) ErrorList {
	return selectorUnchanged(old.Spec.Selector, new.Spec.Selector)
}

// ValidateStatefulSet checks a StatefulSet.
func ValidateStatefulSet(s *api.StatefulSet) ErrorList {
	return append(validateObjectMeta(&s.ObjectMeta, "StatefulSet", Path("metadata")), validateStatefulSetSpec(&s.Spec, Path("spec"))...)
}

// ValidateStatefulSetUpdate checks what a StatefulSet's update may not change.
func ValidateStatefulSetUpdate(old, new *api.StatefulSet) ErrorList {
	return validateStatefulSetUpdate(old, new)
}

// ValidateCronJob checks a CronJob.
func ValidateCronJob(c *api.CronJob) ErrorList {
	return append(validateObjectMeta(&c.ObjectMeta, "CronJob", Path("metadata")), validateCronJobSpec(&c.Spec, Path("spec"))...)
}

// ValidatePersistentVolumeClaim checks a PersistentVolumeClaim.
func ValidatePersistentVolumeClaim(c *api.PersistentVolumeClaim) ErrorList {
	return append(validateObjectMeta(&c.ObjectMeta, "PersistentVolumeClaim", Path("metadata")), validateClaimSpec(&c.Spec, Path("spec"))...)
}

// ValidateService checks a Service.
func ValidateService(s *api.Service) ErrorList { return validateService(s) }

// ValidateServiceUpdate checks what a Service's update may not change.
func ValidateServiceUpdate(old, new *api.Service) ErrorList { return validateServiceUpdate(old, new) }

// ValidateEndpointSlice checks an EndpointSlice.
func ValidateEndpointSlice(e *api.EndpointSlice) ErrorList { return validateEndpointSlice(e) }

// ValidateControllerRevision checks a ControllerRevision.
func ValidateControllerRevision(r *api.ControllerRevision) ErrorList {
	return validateControllerRevision(r)
}

// ValidateControllerRevisionUpdate checks what a ControllerRevision's
// update may not change.
func ValidateControllerRevisionUpdate(old, new *api.ControllerRevision) ErrorList {
	return validateControllerRevisionUpdate(old, new)
}

// ValidateNamespace checks a Namespace.
func ValidateNamespace(ns *api.Namespace) ErrorList { return validateNamespace(ns, Path("metadata")) }

func selectorUnchanged(old, new *api.LabelSelector) ErrorList {
	if !selectorsEqual(old, new) {
		return ErrorList{Immutable(Path("spec.selector"), new)}
	}
	return nil
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
