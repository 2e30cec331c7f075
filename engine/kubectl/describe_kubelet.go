package kubectl

import (
	"reconcile/engine/api"
)

// describeInitContainers prints a pod's init containers, as kubectl does
// before its containers (nothing when it has none).
func describeInitContainers(w *pw, p *api.Pod) {
	if len(p.Spec.More().InitContainers) == 0 {
		return
	}
	statuses := map[string]*api.ContainerStatus{}
	for i := range p.Status.InitContainerStatuses {
		statuses[p.Status.InitContainerStatuses[i].Name] = &p.Status.InitContainerStatuses[i]
	}
	describeContainerList(w, "", "Init Containers", p.Spec.More().InitContainers, statuses)
}

// describeEnvVar prints one environment variable: its value, or where it
// comes from.
func describeEnvVar(w *pw, e api.EnvVar) {
	switch vf := e.ValueFrom; {
	case vf == nil:
		w.line(3, "%s:\t%s\n", e.Name, e.Value)
	case vf.ConfigMapKeyRef != nil:
		r := vf.ConfigMapKeyRef
		w.line(3, "%s:\t<set to the key '%s' of config map '%s'>\tOptional: %t\n", e.Name, r.Key, r.Name, api.IsOptional(r.Optional))
	case vf.SecretKeyRef != nil:
		r := vf.SecretKeyRef
		w.line(3, "%s:\t<set to the key '%s' in secret '%s'>\tOptional: %t\n", e.Name, r.Key, r.Name, api.IsOptional(r.Optional))
	default:
		w.line(3, "%s:\t%s\n", e.Name, e.Value)
	}
}

// describeEnvFrom prints "Environment Variables from:" and each source.
func describeEnvFrom(w *pw, from []api.EnvFromSource) {
	if len(from) == 0 {
		return
	}
	w.line(2, "Environment Variables from:\n")
	for _, e := range from {
		kind, name, optional := "", "", false
		switch {
		case e.ConfigMapRef != nil:
			kind, name, optional = "ConfigMap", e.ConfigMapRef.Name, api.IsOptional(e.ConfigMapRef.Optional)
		case e.SecretRef != nil:
			kind, name, optional = "Secret", e.SecretRef.Name, api.IsOptional(e.SecretRef.Optional)
		}
		if e.Prefix == "" {
			w.line(3, "%s\t%s\tOptional: %t\n", name, kind, optional)
		} else {
			w.line(3, "%s\t%s with prefix '%s'\tOptional: %t\n", name, kind, e.Prefix, optional)
		}
	}
}
