package validation

import "reconcile/engine/api"

// validatePodKubeletFields checks what the kubelet reads beyond images:
// volumes, init containers (a sidecar is one with restartPolicy Always),
// and that each volumeMount names a volume of the pod.
func validatePodKubeletFields(s *api.PodSpec, p Path) ErrorList {
	var errs ErrorList
	vols := map[string]bool{}
	for i, v := range s.Volumes {
		vp := p.Child("volumes").Index(i)
		if v.Name == "" {
			errs = append(errs, Required(vp.Child("name"), ""))
		} else {
			for _, m := range IsDNS1123Label(v.Name) {
				errs = append(errs, Invalid(vp.Child("name"), v.Name, m))
			}
			if vols[v.Name] {
				errs = append(errs, Duplicate(vp.Child("name"), v.Name))
			}
			vols[v.Name] = true
		}
		if v.ConfigMap != nil && v.ConfigMap.Name == "" {
			errs = append(errs, Required(vp.Child("configMap").Child("name"), ""))
		}
		if v.Secret != nil && v.Secret.SecretName == "" {
			errs = append(errs, Required(vp.Child("secret").Child("secretName"), ""))
		}
	}
	names := map[string]bool{}
	for _, c := range s.Containers {
		names[c.Name] = true
	}
	if len(s.InitContainers) > 0 {
		ip := p.Child("initContainers")
		errs = append(errs, validateContainers(s.InitContainers, ip)...)
		for i, c := range s.InitContainers {
			cp := ip.Index(i)
			if names[c.Name] {
				errs = append(errs, Duplicate(cp.Child("name"), c.Name))
			}
			switch c.RestartPolicy {
			case "":
				for _, pr := range []struct {
					field string
					probe *api.Probe
				}{{"livenessProbe", c.LivenessProbe}, {"readinessProbe", c.ReadinessProbe}, {"startupProbe", c.StartupProbe}} {
					if pr.probe != nil {
						errs = append(errs, Forbidden(cp.Child(pr.field), "may not be set for init containers without restartPolicy=Always"))
					}
				}
				if c.Lifecycle != nil {
					errs = append(errs, Forbidden(cp.Child("lifecycle"), "may not be set for init containers without restartPolicy=Always"))
				}
			case "Always":
			default:
				errs = append(errs, NotSupported(cp.Child("restartPolicy"), c.RestartPolicy, "Always"))
			}
		}
	}
	for _, list := range []struct {
		field string
		cs    []api.Container
	}{{"initContainers", s.InitContainers}, {"containers", s.Containers}} {
		for i, c := range list.cs {
			cp := p.Child(list.field).Index(i)
			if list.field == "containers" && c.RestartPolicy != "" {
				errs = append(errs, Forbidden(cp.Child("restartPolicy"), "may not be set for non-init containers"))
			}
			for j, m := range c.VolumeMounts {
				if !vols[m.Name] {
					errs = append(errs, &FieldError{Type: TypeNotFound, Field: cp.Child("volumeMounts").Index(j).Child("name").String(), BadValue: m.Name})
				}
			}
		}
	}
	return errs
}
