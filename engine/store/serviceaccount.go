package store

import (
	"fmt"
	"slices"

	"reconcile/engine/api"
)

// The mutating admission a pod meets when it is created, before it is
// validated: the Priority plugin and the ServiceAccount plugin
// (plugin/pkg/admission/priority, plugin/pkg/admission/serviceaccount).

const (
	// ServiceAccountTokenVolume is the prefix of the name the
	// ServiceAccount plugin gives the projected volume it adds.
	ServiceAccountTokenVolume = "kube-api-access-"
	// ServiceAccountTokenPath is where that volume is mounted.
	ServiceAccountTokenPath = "/var/run/secrets/kubernetes.io/serviceaccount"
	// PreemptLowerPriority is the preemption policy of a pod whose
	// priority no PriorityClass gives.
	PreemptLowerPriority = "PreemptLowerPriority"
)

// tokenProjection is the source of the volume the ServiceAccount plugin
// adds (its TokenVolumeSource): a bound token, the cluster's CA and the
// pod's namespace. One value is shared by every pod that has it: a stored
// object is never written. Its numbers are float64, as a manifest's
// untyped fields decode, so that the pod read back compares equal.
var tokenProjection = map[string]any{
	"defaultMode": 420.0,
	"sources": []any{
		map[string]any{"serviceAccountToken": map[string]any{"expirationSeconds": 3607.0, "path": "token"}},
		map[string]any{"configMap": map[string]any{"name": "kube-root-ca.crt",
			"items": []any{map[string]any{"key": "ca.crt", "path": "ca.crt"}}}},
		map[string]any{"downwardAPI": map[string]any{"items": []any{map[string]any{
			"fieldRef": map[string]any{"apiVersion": "v1", "fieldPath": "metadata.namespace"}, "path": "namespace"}}}},
	},
}

// mutate runs the mutating admission plugins on a pod being created: its
// priority, its service account and the token volume. name is the pod's
// name as admission sees it. The pod is the store's own (CreateOwned:
// its caller shares nothing the store changes), so its rare fields and
// containers are written in place, not on copies.
func (s *Store) mutate(op string, obj api.Object, name string) error {
	p, ok := obj.(*api.Pod)
	if !ok || op != "CREATE" {
		return nil
	}
	m := p.Spec.SetMore()
	if err := priority(m, name); err != nil {
		return err
	}
	s.serviceAccount(p, m)
	return nil
}

// priority gives a pod that names no PriorityClass the priority of a
// cluster without a default one: 0, preempting lower priorities. A pod
// that names a class keeps what it says (classes are not simulated).
func priority(m *api.PodSpecMore, name string) error {
	if m.PriorityClassName != "" {
		return nil
	}
	if m.Priority != nil && *m.Priority != 0 {
		return &StatusError{Reason: "Forbidden", Message: fmt.Sprintf(
			"pods %q is forbidden: the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name",
			name, *m.Priority, 0)}
	}
	if m.Priority == nil {
		m.Priority = new(int32)
	}
	if m.PreemptionPolicy == nil {
		pol := PreemptLowerPriority
		m.PreemptionPolicy = &pol
	}
	return nil
}

// serviceAccount is the ServiceAccount plugin: the pod runs as "default"
// when it names no account, and unless the pod or its account says
// automountServiceAccountToken: false, every container without a mount at
// ServiceAccountTokenPath gets the kube-api-access-xxxxx volume there,
// read-only. The volume's name is drawn from the store's seed.
func (s *Store) serviceAccount(p *api.Pod, m *api.PodSpecMore) {
	if m.ServiceAccountName == "" {
		m.ServiceAccountName = "default"
	}
	m.DeprecatedServiceAccount = m.ServiceAccountName
	if !s.automount(p.Namespace, m) {
		return
	}
	vol := ""
	for _, v := range m.Volumes {
		if len(v.Name) > len(ServiceAccountTokenVolume) && v.Name[:len(ServiceAccountTokenVolume)] == ServiceAccountTokenVolume {
			vol = v.Name
			break
		}
	}
	hasVolume := vol != ""
	if vol == "" {
		b := make([]byte, 5)
		for i := range b {
			b[i] = nameAlphabet[s.volRng.intn(len(nameAlphabet))]
		}
		vol = ServiceAccountTokenVolume + string(b)
	}
	mount := api.VolumeMount{Name: vol, ReadOnly: true, MountPath: ServiceAccountTokenPath}
	mounted := false
	add := func(cs []api.Container) {
		for i := range cs {
			c := &cs[i]
			if slices.ContainsFunc(c.More().VolumeMounts, func(v api.VolumeMount) bool { return v.MountPath == ServiceAccountTokenPath }) {
				continue
			}
			cm := c.SetMore()
			cm.VolumeMounts = append(slices.Clip(cm.VolumeMounts), mount)
			mounted = true
		}
	}
	add(m.InitContainers)
	add(p.Spec.Containers)
	if !hasVolume && mounted {
		m.Volumes = append(slices.Clip(m.Volumes), api.Volume{Name: vol, Projected: tokenProjection})
	}
}

// automount is whether the pod gets its account's token: the pod's
// automountServiceAccountToken, else its ServiceAccount's (when one is
// stored), else true.
func (s *Store) automount(ns string, m *api.PodSpecMore) bool {
	if m.AutomountServiceAccountToken != nil {
		return *m.AutomountServiceAccountToken
	}
	if sa, ok := s.Get("ServiceAccount", ns, m.ServiceAccountName).(*api.Unstructured); ok {
		if b, ok := sa.Fields["automountServiceAccountToken"].(bool); ok {
			return b
		}
	}
	return true
}
