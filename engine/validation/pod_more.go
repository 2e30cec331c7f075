package validation

import (
	"cmp"
	"strings"

	"reconcile/engine/api"
)

// The checks of the pod fields beyond the engine's first model
// (api.PodSpecMore): init containers, volumes and their mounts, DNS,
// scheduling gates, topology spread and pod (anti-)affinity.

// defaultPodSpecMore gives init containers the defaults regular containers
// get.
func defaultPodSpecMore(s *api.PodSpec) {
	for i := range s.More().InitContainers {
		defaultContainer(&s.More().InitContainers[i])
	}
}

// defaultContainer sets a container's imagePullPolicy, its ports'
// protocol and its probes' timing, where it sets none, and writes its
// requests and limits as the API server stores them ("0.5" is "500m").
func defaultContainer(c *api.Container) {
	c.Resources.Requests = api.CanonicalList(c.Resources.Requests)
	c.Resources.Limits = api.CanonicalList(c.Resources.Limits)
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = DefaultPullPolicy(c.Image)
	}
	if m := c.More(); m.TerminationMessagePath == "" || m.TerminationMessagePolicy == "" {
		m.TerminationMessagePath = cmp.Or(m.TerminationMessagePath, DefaultTerminationMessagePath)
		m.TerminationMessagePolicy = cmp.Or(m.TerminationMessagePolicy, DefaultTerminationMessagePolicy)
		c.ContainerMore = &m // a copy: a container's may be shared
	}
	for j := range c.Ports {
		if c.Ports[j].Protocol == "" {
			c.Ports[j].Protocol = "TCP"
		}
	}
	defaultProbe(c.ReadinessProbe)
	defaultProbe(c.LivenessProbe)
	defaultProbe(c.More().StartupProbe)
	if l := c.More().Lifecycle; l != nil {
		for _, h := range []*api.LifecycleHandler{l.PostStart, l.PreStop} {
			if h != nil {
				h.HTTPGet = defaultHTTPGet(h.HTTPGet)
			}
		}
	}
}

// defaultHTTPGet is an httpGet action with the API server's defaults
// (SetDefaults_HTTPGetAction): path "/" and scheme HTTP where it sets
// none, so that kubectl describe reads "http-get http://:8080/healthz".
// The map is copied when it changes: a stored object's is never written.
func defaultHTTPGet(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	unset := func(k string) bool { v, ok := m[k]; return !ok || v == nil || v == "" }
	if !unset("path") && !unset("scheme") {
		return m
	}
	out := make(map[string]any, len(m)+2)
	for k, v := range m { // each key copied: order cannot matter
		out[k] = v
	}
	if unset("path") {
		out["path"] = "/"
	}
	if unset("scheme") {
		out["scheme"] = "HTTP"
	}
	return out
}

func validatePodSpecMore(s *api.PodSpec, p Path) ErrorList {
	var errs ErrorList
	volumes := map[string]bool{}
	for i, v := range s.More().Volumes {
		vp := p.Child("volumes").Index(i)
		if v.Name == "" {
			errs = append(errs, Required(vp.Child("name"), ""))
		} else {
			for _, m := range IsDNS1123Label(v.Name) {
				errs = append(errs, Invalid(vp.Child("name"), v.Name, m))
			}
			if volumes[v.Name] {
				errs = append(errs, Duplicate(vp.Child("name"), v.Name))
			}
		}
		volumes[v.Name] = true
		errs = append(errs, validateVolumeSource(v, vp)...)
		if v.ConfigMap != nil && v.ConfigMap.Name == "" {
			errs = append(errs, Required(vp.Child("configMap").Child("name"), ""))
		}
		if v.Secret != nil && v.Secret.SecretName == "" {
			errs = append(errs, Required(vp.Child("secret").Child("secretName"), ""))
		}
	}
	if len(s.More().InitContainers) > 0 {
		ip := p.Child("initContainers")
		errs = append(errs, validateContainers(s.More().InitContainers, ip)...)
		names := map[string]bool{}
		for _, c := range s.Containers {
			names[c.Name] = true
		}
		for i, c := range s.More().InitContainers {
			cp := ip.Index(i)
			if names[c.Name] {
				errs = append(errs, Duplicate(cp.Child("name"), c.Name))
			}
			sidecar := c.IsSidecar()
			if c.More().RestartPolicy != nil && !sidecar {
				errs = append(errs, NotSupported(cp.Child("restartPolicy"), *c.More().RestartPolicy, "Always"))
			}
			if !sidecar {
				for _, pr := range []struct {
					name  string
					probe *api.Probe
				}{{"livenessProbe", c.LivenessProbe}, {"readinessProbe", c.ReadinessProbe}, {"startupProbe", c.More().StartupProbe}} {
					if pr.probe != nil {
						errs = append(errs, Forbidden(cp.Child(pr.name), "may not be set for init containers without restartPolicy=Always"))
					}
				}
				if c.More().Lifecycle != nil {
					errs = append(errs, Forbidden(cp.Child("lifecycle"), "may not be set for init containers without restartPolicy=Always"))
				}
			}
			errs = append(errs, validateMounts(c.More().VolumeMounts, volumes, cp.Child("volumeMounts"))...)
		}
	}
	for i, c := range s.Containers {
		cp := p.Child("containers").Index(i)
		if c.More().RestartPolicy != nil {
			errs = append(errs, Forbidden(cp.Child("restartPolicy"), "may not be set for non-init containers"))
		}
		errs = append(errs, validateMounts(c.More().VolumeMounts, volumes, cp.Child("volumeMounts"))...)
		errs = append(errs, validateProbe(c.More().StartupProbe, cp.Child("startupProbe"), true)...)
	}
	switch s.More().DNSPolicy {
	case "", "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None":
	default:
		errs = append(errs, NotSupported(p.Child("dnsPolicy"), s.More().DNSPolicy, "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"))
	}
	if s.More().DNSPolicy == "None" { // validatePodDNSConfig
		if s.More().DNSConfig == nil {
			errs = append(errs, Required(p.Child("dnsConfig"), "must provide `dnsConfig` when `dnsPolicy` is None"))
		} else if len(s.More().DNSConfig.Nameservers) == 0 {
			errs = append(errs, Required(p.Child("dnsConfig").Child("nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None"))
		}
	}
	gates := map[string]bool{}
	for i, g := range s.More().SchedulingGates {
		gp := p.Child("schedulingGates").Index(i).Child("name")
		for _, m := range isQualifiedName(g.Name) {
			errs = append(errs, Invalid(gp, g.Name, m))
		}
		if gates[g.Name] {
			errs = append(errs, Duplicate(gp, g.Name))
		}
		gates[g.Name] = true
	}
	errs = append(errs, validateSpread(s.More().TopologySpreadConstraints, p.Child("topologySpreadConstraints"))...)
	if a := s.Affinity; a != nil {
		ap := p.Child("affinity")
		errs = append(errs, validatePodAffinity(a.PodAffinity, ap.Child("podAffinity"))...)
		errs = append(errs, validatePodAffinity(a.PodAntiAffinity, ap.Child("podAntiAffinity"))...)
		if na := a.NodeAffinity; na != nil {
			for i, w := range na.PreferredDuringSchedulingIgnoredDuringExecution {
				if w.Weight < 1 || w.Weight > 100 {
					wp := ap.Child("nodeAffinity").Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
					errs = append(errs, Invalid(wp.Child("weight"), w.Weight, "must be in the range 1-100"))
				}
			}
		}
	}
	return errs
}

// validateVolumeSource requires exactly one source in a volume.
func validateVolumeSource(v api.Volume, p Path) ErrorList {
	var set []string
	if v.ConfigMap != nil {
		set = append(set, "configMap")
	}
	if v.Secret != nil {
		set = append(set, "secret")
	}
	if v.PersistentVolumeClaim != nil {
		set = append(set, "persistentVolumeClaim")
		if v.PersistentVolumeClaim.ClaimName == "" {
			return ErrorList{Required(p.Child("persistentVolumeClaim", "claimName"), "")}
		}
	}
	if v.EmptyDir != nil {
		set = append(set, "emptyDir")
	}
	others := map[string]map[string]any{"hostPath": v.HostPath, "projected": v.Projected,
		"downwardAPI": v.DownwardAPI, "csi": v.CSI, "nfs": v.NFS, "ephemeral": v.Ephemeral, "image": v.Image}
	// Only counted: any order gives the same count.
	for name, m := range others {
		if m != nil {
			set = append(set, name)
		}
	}
	switch {
	case len(set) == 0:
		return ErrorList{Required(p, "must specify a volume type")}
	case len(set) > 1:
		return ErrorList{Forbidden(p, "may not specify more than 1 volume type")}
	}
	return nil
}

// validateMounts checks that each mount names a volume of the pod and a path.
func validateMounts(ms []api.VolumeMount, volumes map[string]bool, p Path) ErrorList {
	var errs ErrorList
	paths := map[string]bool{}
	for i, m := range ms {
		mp := p.Index(i)
		if m.Name == "" {
			errs = append(errs, Required(mp.Child("name"), ""))
		} else if !volumes[m.Name] {
			errs = append(errs, &FieldError{Type: TypeNotFound, Field: mp.Child("name").String(), BadValue: m.Name})
		}
		if m.MountPath == "" {
			errs = append(errs, Required(mp.Child("mountPath"), ""))
		} else if paths[m.MountPath] {
			errs = append(errs, Invalid(mp.Child("mountPath"), m.MountPath, "must be unique"))
		}
		paths[m.MountPath] = true
	}
	return errs
}

// validateSpread checks topology spread constraints.
func validateSpread(cs []api.TopologySpreadConstraint, p Path) ErrorList {
	var errs ErrorList
	seen := map[string]bool{}
	for i, c := range cs {
		cp := p.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, Invalid(cp.Child("maxSkew"), c.MaxSkew, "must be greater than zero"))
		}
		if c.TopologyKey == "" {
			errs = append(errs, Required(cp.Child("topologyKey"), "can not be empty"))
		} else {
			for _, m := range isQualifiedName(c.TopologyKey) {
				errs = append(errs, Invalid(cp.Child("topologyKey"), c.TopologyKey, m))
			}
		}
		switch c.WhenUnsatisfiable {
		case "DoNotSchedule", "ScheduleAnyway":
		default:
			errs = append(errs, NotSupported(cp.Child("whenUnsatisfiable"), c.WhenUnsatisfiable, "DoNotSchedule", "ScheduleAnyway"))
		}
		if c.MinDomains != nil {
			if *c.MinDomains <= 0 {
				errs = append(errs, Invalid(cp.Child("minDomains"), *c.MinDomains, "must be greater than 0"))
			} else if c.WhenUnsatisfiable != "DoNotSchedule" {
				errs = append(errs, Invalid(cp.Child("minDomains"), *c.MinDomains, "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not "+c.WhenUnsatisfiable))
			}
		}
		key := c.TopologyKey + "\x00" + c.WhenUnsatisfiable
		if seen[key] {
			errs = append(errs, Duplicate(cp, strings.Join([]string{c.TopologyKey, c.WhenUnsatisfiable}, ", ")))
		}
		seen[key] = true
	}
	return errs
}

// validatePodAffinity checks the terms of pod affinity or anti-affinity.
func validatePodAffinity(a *api.PodAffinity, p Path) ErrorList {
	if a == nil {
		return nil
	}
	var errs ErrorList
	for i, t := range a.RequiredDuringSchedulingIgnoredDuringExecution {
		errs = append(errs, validateAffinityTerm(t, p.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i))...)
	}
	for i, w := range a.PreferredDuringSchedulingIgnoredDuringExecution {
		wp := p.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
		if w.Weight < 1 || w.Weight > 100 {
			errs = append(errs, Invalid(wp.Child("weight"), w.Weight, "must be in the range 1-100"))
		}
		errs = append(errs, validateAffinityTerm(w.PodAffinityTerm, wp.Child("podAffinityTerm"))...)
	}
	return errs
}

func validateAffinityTerm(t api.PodAffinityTerm, p Path) ErrorList {
	var errs ErrorList
	if t.TopologyKey == "" {
		errs = append(errs, Required(p.Child("topologyKey"), "can not be empty"))
	} else {
		for _, m := range isQualifiedName(t.TopologyKey) {
			errs = append(errs, Invalid(p.Child("topologyKey"), t.TopologyKey, m))
		}
	}
	for i, ns := range t.Namespaces {
		for _, m := range IsDNS1123Label(ns) {
			errs = append(errs, Invalid(p.Child("namespaces").Index(i), ns, m))
		}
	}
	return errs
}

// countSet counts the true values.
func countSet(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// schedulingGatesUpdate lets an update remove scheduling gates (o takes
// n's gates then) and refuses one that adds a gate.
func schedulingGatesUpdate(o, n *api.PodSpec) ErrorList {
	old := map[string]bool{}
	for _, g := range o.More().SchedulingGates {
		old[g.Name] = true
	}
	o.SetMore().SchedulingGates = n.More().SchedulingGates
	o.NormalizeRare()
	for _, g := range n.More().SchedulingGates {
		if !old[g.Name] {
			return ErrorList{Forbidden(Path("spec.schedulingGates"), "only deletion is allowed, but found new scheduling gate '"+g.Name+"'")}
		}
	}
	return nil
}

// validateJobSpecMore checks a Job's completionMode and podFailurePolicy.
func validateJobSpecMore(s *api.JobSpec, p Path) ErrorList {
	var errs ErrorList
	if m := s.CompletionMode; m != nil {
		// (Indexed needs completions; the engine's defaults always set them.)
		switch *m {
		case "NonIndexed", "Indexed":
		default:
			errs = append(errs, NotSupported(p.Child("completionMode"), *m, "NonIndexed", "Indexed"))
		}
	}
	if pf := s.PodFailurePolicy; pf != nil {
		if rp := s.Template.Spec.RestartPolicy; rp != "Never" {
			errs = append(errs, Invalid(p.Child("template", "spec", "restartPolicy"), rp, "only \"Never\" is supported when podFailurePolicy is specified"))
		}
		for i, r := range pf.Rules {
			switch r.Action {
			case "Count", "FailIndex", "FailJob", "Ignore":
			default:
				errs = append(errs, NotSupported(p.Child("podFailurePolicy", "rules").Index(i).Child("action"), r.Action, "Count", "FailIndex", "FailJob", "Ignore"))
			}
		}
	}
	return errs
}
