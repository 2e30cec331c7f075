package controller

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
)

// lookupData returns the keys of the ConfigMap or Secret ns/name the
// kubelet's cache holds, and whether it exists.
func lookupData(ctx *Context, kind, ns, name string) (map[string]any, bool) {
	u, _ := ctx.Cache.Get(kind, ns+"/"+name).(*api.Unstructured)
	if u == nil {
		return nil, false
	}
	return u.Data, true
}

// notFound is the API's NotFound message for a ConfigMap or Secret.
func notFound(kind, name string) string {
	return fmt.Sprintf("%s %q not found", strings.ToLower(kind), name)
}

// configError is why the kubelet cannot build a container's environment
// ("" if it can): a ConfigMap or Secret that envFrom or env.valueFrom
// names and that does not exist, or a key it does not have. optional:
// true skips a missing one.
func (k *KubeletLoop) configError(ctx *Context, p *api.Pod, c api.Container) string {
	for _, ef := range c.More().EnvFrom {
		for _, ref := range []struct {
			kind string
			r    *api.OptionalObjectRef
		}{{"ConfigMap", ef.ConfigMapRef}, {"Secret", ef.SecretRef}} {
			if ref.r == nil {
				continue
			}
			if _, ok := lookupData(ctx, ref.kind, p.Namespace, ref.r.Name); !ok && !api.IsOptional(ref.r.Optional) {
				return notFound(ref.kind, ref.r.Name)
			}
		}
	}
	for _, e := range c.Env {
		if e.ValueFrom == nil {
			continue
		}
		for _, ref := range []struct {
			kind string
			r    *api.KeySelector
		}{{"ConfigMap", e.ValueFrom.ConfigMapKeyRef}, {"Secret", e.ValueFrom.SecretKeyRef}} {
			if ref.r == nil || api.IsOptional(ref.r.Optional) {
				continue
			}
			data, ok := lookupData(ctx, ref.kind, p.Namespace, ref.r.Name)
			if !ok {
				return notFound(ref.kind, ref.r.Name)
			}
			if _, has := data[ref.r.Key]; !has {
				return fmt.Sprintf("couldn't find key %s in %s %s/%s", ref.r.Key, ref.kind, p.Namespace, ref.r.Name)
			}
		}
	}
	return ""
}

// volumeError is why a ConfigMap or Secret volume cannot be set up ("" if
// it can): the object is missing (and not optional), or an item names a
// key it does not have.
func volumeError(ctx *Context, ns string, v api.Volume) string {
	kind, name, optional, items := "", "", false, []api.KeyToPath(nil)
	switch {
	case v.ConfigMap != nil:
		kind, name, optional, items = "ConfigMap", v.ConfigMap.Name, api.IsOptional(v.ConfigMap.Optional), v.ConfigMap.Items
	case v.Secret != nil:
		kind, name, optional, items = "Secret", v.Secret.SecretName, api.IsOptional(v.Secret.Optional), v.Secret.Items
	default:
		return ""
	}
	data, ok := lookupData(ctx, kind, ns, name)
	if !ok {
		if optional {
			return ""
		}
		return notFound(kind, name)
	}
	for _, it := range items {
		if _, has := data[it.Key]; !has && !optional {
			if kind == "Secret" {
				return "references non-existent secret key: " + it.Key
			}
			return "configmap references non-existent config key: " + it.Key
		}
	}
	return ""
}

// mountVolumes sets up the pod's volumes before any container starts. A
// ConfigMap or Secret volume whose object is missing fails (FailedMount)
// and holds every container in ContainerCreating until it appears.
func (k *KubeletLoop) mountVolumes(s *podSync) bool {
	ok := true
	for _, v := range s.p.Spec.More().Volumes {
		msg := volumeError(s.ctx, s.p.Namespace, v)
		if msg == "" {
			continue
		}
		ok = false
		k.podEvent(s.ctx, s.p, "Warning", "FailedMount", fmt.Sprintf("MountVolume.SetUp failed for volume %q : %s", v.Name, msg))
		s.seen = append(s.seen, "volume "+v.Name+": "+msg)
	}
	if !ok {
		s.because("volumes not mounted")
		s.act(Do(Wait, "for the volumes: no container starts"))
	}
	return ok
}

func (k *KubeletLoop) anyContainer(s *podSync) bool {
	for _, c := range allContainers(s.p) {
		if s.rt.Get(s.key+"/"+c.Name) != nil {
			return true
		}
	}
	return false
}

// refersTo reports whether the pod names the ConfigMap or Secret kind/name
// in a volume, an envFrom or an env valueFrom.
func refersTo(p *api.Pod, kind, name string) bool {
	for _, v := range p.Spec.More().Volumes {
		if (kind == "ConfigMap" && v.ConfigMap != nil && v.ConfigMap.Name == name) || (kind == "Secret" && v.Secret != nil && v.Secret.SecretName == name) {
			return true
		}
	}
	for _, c := range allContainers(p) {
		for _, ef := range c.More().EnvFrom {
			if (kind == "ConfigMap" && ef.ConfigMapRef != nil && ef.ConfigMapRef.Name == name) || (kind == "Secret" && ef.SecretRef != nil && ef.SecretRef.Name == name) {
				return true
			}
		}
		for _, e := range c.Env {
			if vf := e.ValueFrom; vf != nil && ((kind == "ConfigMap" && vf.ConfigMapKeyRef != nil && vf.ConfigMapKeyRef.Name == name) || (kind == "Secret" && vf.SecretKeyRef != nil && vf.SecretKeyRef.Name == name)) {
				return true
			}
		}
	}
	return false
}
