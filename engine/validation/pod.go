package validation

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"reconcile/engine/api"
)

const quantityMsg = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"

// validatePodTemplate checks a workload's pod template. Kubernetes reports
// the template's labels at "spec.template.labels" (not ".metadata.labels").
func validatePodTemplate(t *api.PodTemplateSpec, p Path) ErrorList {
	errs := validateLabels(t.Labels, p.Child("labels"))
	errs = append(errs, validateAnnotations(t.Annotations, p.Child("annotations"))...)
	return append(errs, validatePodSpec(&t.Spec, p.Child("spec"))...)
}

// validatePodSpec checks containers, restart policy, node selector and
// tolerations.
func validatePodSpec(s *api.PodSpec, p Path) ErrorList {
	errs := validateContainers(s.Containers, p.Child("containers"))
	// A field's path is built where it is checked and found wrong, not
	// before: every pod a controller creates is validated, and nearly all
	// are valid.
	switch s.RestartPolicy {
	case "Always", "OnFailure", "Never":
	case "":
		errs = append(errs, Required(p.Child("restartPolicy"), ""))
	default:
		errs = append(errs, NotSupported(p.Child("restartPolicy"), s.RestartPolicy, "Always", "OnFailure", "Never"))
	}
	if len(s.NodeSelector) > 0 {
		errs = append(errs, validateLabels(s.NodeSelector, p.Child("nodeSelector"))...)
	}
	if len(s.Tolerations) > 0 {
		errs = append(errs, validateTolerations(s.Tolerations, p.Child("tolerations"))...)
	}
	if s.TerminationGracePeriodSeconds != nil && *s.TerminationGracePeriodSeconds < 0 {
		errs = append(errs, nonNegative(*s.TerminationGracePeriodSeconds, p.Child("terminationGracePeriodSeconds"))...)
	}
	return append(errs, validatePodSpecMore(s, p)...)
}

func validateContainers(cs []api.Container, p Path) ErrorList {
	if len(cs) == 0 {
		return ErrorList{Required(p, "")}
	}
	var errs ErrorList
	names := map[string]bool{}
	for i := range cs {
		c, cp := &cs[i], p.Index(i)
		if c.Name == "" {
			errs = append(errs, Required(cp.Child("name"), ""))
		} else {
			for _, m := range IsDNS1123Label(c.Name) {
				errs = append(errs, Invalid(cp.Child("name"), c.Name, m))
			}
		}
		if c.Image == "" {
			errs = append(errs, Required(cp.Child("image"), ""))
		} else if strings.TrimSpace(c.Image) != c.Image {
			errs = append(errs, Invalid(cp.Child("image"), c.Image, "must not have leading or trailing whitespace"))
		}
		if c.LivenessProbe != nil {
			errs = append(errs, validateProbe(c.LivenessProbe, cp.Child("livenessProbe"), true)...)
		}
		if c.ReadinessProbe != nil {
			errs = append(errs, validateProbe(c.ReadinessProbe, cp.Child("readinessProbe"), false)...)
		}
		if c.More().StartupProbe != nil {
			errs = append(errs, validateProbe(c.More().StartupProbe, cp.Child("startupProbe"), true)...)
		}
		switch c.ImagePullPolicy {
		case "Always", "IfNotPresent", "Never":
		case "":
			errs = append(errs, Required(cp.Child("imagePullPolicy"), ""))
		default:
			errs = append(errs, NotSupported(cp.Child("imagePullPolicy"), c.ImagePullPolicy, "Always", "IfNotPresent", "Never"))
		}
		errs = append(errs, validateResources(&c.Resources, cp.Child("resources"))...)
		if len(c.Ports) > 0 {
			errs = append(errs, validatePorts(c.Ports, cp.Child("ports"))...)
		}
		for j, e := range c.Env {
			if e.Name == "" {
				errs = append(errs, Required(cp.Child("env").Index(j).Child("name"), ""))
			}
		}
		if names[c.Name] {
			errs = append(errs, Duplicate(cp.Child("name"), c.Name))
		}
		names[c.Name] = true
	}
	return errs
}

func validateProbe(pr *api.Probe, p Path, liveness bool) ErrorList {
	if pr == nil {
		return nil
	}
	var errs ErrorList
	switch handlers := countSet(pr.HTTPGet != nil, pr.TCPSocket != nil, pr.Exec != nil, pr.GRPC != nil); {
	case handlers == 0:
		errs = append(errs, Required(p, "must specify a handler type"))
	case handlers > 1:
		errs = append(errs, Forbidden(p, "may not specify more than 1 handler type"))
	}
	if pr.GRPC != nil && (pr.GRPC.Port < 1 || pr.GRPC.Port > 65535) {
		errs = append(errs, Invalid(p.Child("grpc", "port"), pr.GRPC.Port, "must be between 1 and 65535, inclusive"))
	}
	errs = append(errs, nonNegative(int64(pr.InitialDelaySeconds), p.Child("initialDelaySeconds"))...)
	errs = append(errs, nonNegative(int64(pr.TimeoutSeconds), p.Child("timeoutSeconds"))...)
	errs = append(errs, nonNegative(int64(pr.PeriodSeconds), p.Child("periodSeconds"))...)
	errs = append(errs, nonNegative(int64(pr.SuccessThreshold), p.Child("successThreshold"))...)
	errs = append(errs, nonNegative(int64(pr.FailureThreshold), p.Child("failureThreshold"))...)
	if liveness && pr.SuccessThreshold != 1 {
		errs = append(errs, Invalid(p.Child("successThreshold"), pr.SuccessThreshold, "must be 1"))
	}
	return errs
}

// standardResources are the resource names a container may request without
// a domain prefix.
var standardResources = map[string]bool{"cpu": true, "memory": true, "ephemeral-storage": true}

func validateResources(r *api.ResourceRequirements, p Path) ErrorList {
	var errs ErrorList
	check := func(name string, q api.Quantity, qp Path) (float64, bool) {
		if !standardResources[name] && !strings.HasPrefix(name, "hugepages-") && !strings.Contains(name, "/") {
			errs = append(errs, Invalid(qp, name, "must be a standard resource for containers"))
		}
		if s := strings.TrimSpace(string(q)); strings.HasPrefix(s, "-") {
			errs = append(errs, Invalid(qp, string(q), isNegativeMsg))
			return 0, false
		}
		v, err := q.Parse()
		if err != nil {
			errs = append(errs, Invalid(qp, string(q), quantityMsg))
			return 0, false
		}
		return v, true
	}
	limits := map[string]float64{}
	for _, name := range sortedQuantityKeys(r.Limits) {
		if v, ok := check(name, r.Limits[name], p.Child("limits").Key(name)); ok {
			limits[name] = v
		}
	}
	for _, name := range sortedQuantityKeys(r.Requests) {
		v, ok := check(name, r.Requests[name], p.Child("requests").Key(name))
		if lim, has := limits[name]; ok && has && v > lim {
			errs = append(errs, Invalid(p.Child("requests"), string(r.Requests[name]),
				fmt.Sprintf("must be less than or equal to %s limit of %s", name, r.Limits[name])))
		}
	}
	return errs
}

func sortedQuantityKeys(m map[string]api.Quantity) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func validatePorts(ports []api.ContainerPort, p Path) ErrorList {
	var errs ErrorList
	for i, port := range ports {
		pp := p.Index(i)
		if port.ContainerPort == 0 {
			errs = append(errs, Required(pp.Child("containerPort"), ""))
		} else if port.ContainerPort < 1 || port.ContainerPort > 65535 {
			errs = append(errs, Invalid(pp.Child("containerPort"), port.ContainerPort, "must be between 1 and 65535, inclusive"))
		}
		if port.HostPort != 0 && (port.HostPort < 1 || port.HostPort > 65535) {
			errs = append(errs, Invalid(pp.Child("hostPort"), port.HostPort, "must be between 1 and 65535, inclusive"))
		}
		switch port.Protocol {
		case "TCP", "UDP", "SCTP":
		case "":
			errs = append(errs, Required(pp.Child("protocol"), ""))
		default:
			errs = append(errs, NotSupported(pp.Child("protocol"), port.Protocol, "SCTP", "TCP", "UDP"))
		}
	}
	return errs
}

func validateTaintEffect(effect string, allowEmpty bool, p Path) ErrorList {
	switch effect {
	case "NoSchedule", "PreferNoSchedule", "NoExecute":
		return nil
	case "":
		if allowEmpty {
			return nil
		}
		return ErrorList{Required(p, "")}
	}
	return ErrorList{NotSupported(p, effect, "NoSchedule", "PreferNoSchedule", "NoExecute")}
}

func validateTolerations(ts []api.Toleration, p Path) ErrorList {
	var errs ErrorList
	for i, t := range ts {
		at := func(field string) Path { return p.Index(i).Child(field) } // built only for an error
		if t.Key != "" {
			for _, m := range isQualifiedName(t.Key) {
				errs = append(errs, Invalid(at("key"), t.Key, m))
			}
		} else if t.Operator != "Exists" {
			errs = append(errs, Invalid(at("operator"), t.Operator,
				"operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != "NoExecute" {
			errs = append(errs, Invalid(at("effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case "", "Equal":
			if ms := isLabelValue(t.Value); len(ms) > 0 {
				errs = append(errs, Invalid(at("operator"), t.Value, strings.Join(ms, ";")))
			}
		case "Exists":
			if t.Value != "" {
				errs = append(errs, Invalid(at("operator"), t, "value must be empty when `operator` is 'Exists'"))
			}
		default:
			errs = append(errs, NotSupported(at("operator"), t.Operator, "Equal", "Exists"))
		}
		if len(validateTaintEffect(t.Effect, true, "")) > 0 {
			errs = append(errs, validateTaintEffect(t.Effect, true, at("effect"))...)
		}
	}
	return errs
}

// validateTaints checks a node's taints: a key, a label-like value, an
// effect, and one taint per key and effect.
func validateTaints(ts []api.Taint, p Path) ErrorList {
	var errs ErrorList
	seen := map[string]bool{}
	for i, t := range ts {
		tp := p.Index(i)
		for _, m := range isQualifiedName(t.Key) {
			errs = append(errs, Invalid(tp.Child("key"), t.Key, m))
		}
		for _, m := range isLabelValue(t.Value) {
			errs = append(errs, Invalid(tp.Child("value"), t.Value, m))
		}
		errs = append(errs, validateTaintEffect(t.Effect, false, tp.Child("effect"))...)
		k := t.Key + "\x00" + t.Effect
		if seen[k] {
			errs = append(errs, Duplicate(tp, t.Key+":"+t.Effect))
		}
		seen[k] = true
	}
	return errs
}

// podUpdateForbidden is the API server's detail when an update changes a
// pod's spec beyond what may change in place.
const podUpdateForbidden = "pod updates may not change fields other than `spec.containers[*].image`," +
	"`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations)," +
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// validatePodSpecUpdate allows container images and added tolerations to
// change, and a pod to be bound (nodeName set once); anything else in the
// spec is refused.
func validatePodSpecUpdate(old, new *api.PodSpec) ErrorList {
	o, n := old.DeepCopy(), new.DeepCopy()
	if len(o.Containers) == len(n.Containers) {
		for i := range o.Containers {
			o.Containers[i].Image = n.Containers[i].Image
		}
	}
	if o.NodeName == "" {
		o.NodeName = n.NodeName
	}
	if len(n.Tolerations) >= len(o.Tolerations) && reflect.DeepEqual(n.Tolerations[:len(o.Tolerations)], o.Tolerations) {
		o.Tolerations = n.Tolerations
	}
	if n.TerminationGracePeriodSeconds != nil && *n.TerminationGracePeriodSeconds == 1 &&
		o.TerminationGracePeriodSeconds != nil && *o.TerminationGracePeriodSeconds < 0 {
		o.TerminationGracePeriodSeconds = n.TerminationGracePeriodSeconds
	}
	errs := schedulingGatesUpdate(&o, &n)
	if !podSpecsEqual(&o, &n) {
		return append(errs, Forbidden(Path("spec"), podUpdateForbidden))
	}
	return errs
}

// podSpecsEqual compares specs treating empty and missing lists and maps
// alike, as the API server's semantic equality does.
func podSpecsEqual(a, b *api.PodSpec) bool {
	return reflect.DeepEqual(normalizePodSpec(*a), normalizePodSpec(*b))
}

func normalizePodSpec(s api.PodSpec) api.PodSpec {
	if len(s.NodeSelector) == 0 {
		s.NodeSelector = nil
	}
	if len(s.Tolerations) == 0 {
		s.Tolerations = nil
	}
	cs := make([]api.Container, len(s.Containers))
	for i, c := range s.Containers {
		if len(c.Ports) == 0 {
			c.Ports = nil
		}
		if len(c.Env) == 0 {
			c.Env = nil
		}
		if len(c.Command) == 0 {
			c.Command = nil
		}
		if len(c.Args) == 0 {
			c.Args = nil
		}
		if len(c.Resources.Requests) == 0 {
			c.Resources.Requests = nil
		}
		if len(c.Resources.Limits) == 0 {
			c.Resources.Limits = nil
		}
		cs[i] = c
	}
	s.Containers = cs
	return s
}
