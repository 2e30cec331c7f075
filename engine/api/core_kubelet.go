package api

// The pod fields the kubelet reads besides images and probes: volumes,
// ConfigMap and Secret references, lifecycle hooks.

// Volume is a pod volume. ConfigMap and Secret volumes are simulated (a
// missing object keeps the pod in ContainerCreating); the other sources
// are kept as written and always mount.
type Volume struct {
	Name                  string                 `json:"name" yaml:"name"`
	ConfigMap             *ConfigMapVolumeSource `json:"configMap,omitempty" yaml:"configMap,omitempty"`
	Secret                *SecretVolumeSource    `json:"secret,omitempty" yaml:"secret,omitempty"`
	EmptyDir              *EmptyDirVolumeSource  `json:"emptyDir,omitempty" yaml:"emptyDir,omitempty"`
	HostPath              map[string]any         `json:"hostPath,omitempty" yaml:"hostPath,omitempty"`
	PersistentVolumeClaim map[string]any         `json:"persistentVolumeClaim,omitempty" yaml:"persistentVolumeClaim,omitempty"`
	Projected             map[string]any         `json:"projected,omitempty" yaml:"projected,omitempty"`
	DownwardAPI           map[string]any         `json:"downwardAPI,omitempty" yaml:"downwardAPI,omitempty"`
}

// EmptyDirVolumeSource is a scratch directory that lives as long as the
// pod.
type EmptyDirVolumeSource struct {
	Medium    string   `json:"medium,omitempty" yaml:"medium,omitempty"`
	SizeLimit Quantity `json:"sizeLimit,omitempty" yaml:"sizeLimit,omitempty"`
}

// ConfigMapVolumeSource mounts a ConfigMap's keys as files.
type ConfigMapVolumeSource struct {
	Name        string      `json:"name,omitempty" yaml:"name,omitempty"`
	Items       []KeyToPath `json:"items,omitempty" yaml:"items,omitempty"`
	DefaultMode *int32      `json:"defaultMode,omitempty" yaml:"defaultMode,omitempty"`
	Optional    *bool       `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// SecretVolumeSource mounts a Secret's keys as files.
type SecretVolumeSource struct {
	SecretName  string      `json:"secretName,omitempty" yaml:"secretName,omitempty"`
	Items       []KeyToPath `json:"items,omitempty" yaml:"items,omitempty"`
	DefaultMode *int32      `json:"defaultMode,omitempty" yaml:"defaultMode,omitempty"`
	Optional    *bool       `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// KeyToPath mounts one key at a path.
type KeyToPath struct {
	Key  string `json:"key" yaml:"key"`
	Path string `json:"path" yaml:"path"`
	Mode *int32 `json:"mode,omitempty" yaml:"mode,omitempty"`
}

// VolumeMount mounts a pod volume into a container.
type VolumeMount struct {
	Name      string `json:"name" yaml:"name"`
	MountPath string `json:"mountPath" yaml:"mountPath"`
	SubPath   string `json:"subPath,omitempty" yaml:"subPath,omitempty"`
	ReadOnly  bool   `json:"readOnly,omitempty" yaml:"readOnly,omitempty"`
}

// EnvFromSource sets environment variables from every key of a ConfigMap
// or Secret.
type EnvFromSource struct {
	Prefix       string        `json:"prefix,omitempty" yaml:"prefix,omitempty"`
	ConfigMapRef *EnvFromNamed `json:"configMapRef,omitempty" yaml:"configMapRef,omitempty"`
	SecretRef    *EnvFromNamed `json:"secretRef,omitempty" yaml:"secretRef,omitempty"`
}

// EnvFromNamed names the ConfigMap or Secret of an envFrom entry.
type EnvFromNamed struct {
	Name     string `json:"name,omitempty" yaml:"name,omitempty"`
	Optional *bool  `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// EnvVarSource takes a variable's value from a key of a ConfigMap or
// Secret (fieldRef and resourceFieldRef are kept as written).
type EnvVarSource struct {
	ConfigMapKeyRef  *KeySelector   `json:"configMapKeyRef,omitempty" yaml:"configMapKeyRef,omitempty"`
	SecretKeyRef     *KeySelector   `json:"secretKeyRef,omitempty" yaml:"secretKeyRef,omitempty"`
	FieldRef         map[string]any `json:"fieldRef,omitempty" yaml:"fieldRef,omitempty"`
	ResourceFieldRef map[string]any `json:"resourceFieldRef,omitempty" yaml:"resourceFieldRef,omitempty"`
}

// KeySelector selects one key of a ConfigMap or Secret.
type KeySelector struct {
	Name     string `json:"name,omitempty" yaml:"name,omitempty"`
	Key      string `json:"key" yaml:"key"`
	Optional *bool  `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// Lifecycle holds a container's hooks.
type Lifecycle struct {
	PostStart *LifecycleHandler `json:"postStart,omitempty" yaml:"postStart,omitempty"`
	PreStop   *LifecycleHandler `json:"preStop,omitempty" yaml:"preStop,omitempty"`
}

// LifecycleHandler is a hook's action: exec, httpGet, tcpSocket
// (deprecated, kept) or sleep.
type LifecycleHandler struct {
	Exec      map[string]any `json:"exec,omitempty" yaml:"exec,omitempty"`
	HTTPGet   map[string]any `json:"httpGet,omitempty" yaml:"httpGet,omitempty"`
	TCPSocket map[string]any `json:"tcpSocket,omitempty" yaml:"tcpSocket,omitempty"`
	Sleep     *SleepAction   `json:"sleep,omitempty" yaml:"sleep,omitempty"`
}

// SleepAction pauses for Seconds.
type SleepAction struct {
	Seconds int64 `json:"seconds" yaml:"seconds"`
}

// IsOptional reads an optional flag (nil is false).
func IsOptional(b *bool) bool { return b != nil && *b }

func copyBoolPtr(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}

func copyKeySelector(k *KeySelector) *KeySelector {
	if k == nil {
		return nil
	}
	v := *k
	v.Optional = copyBoolPtr(k.Optional)
	return &v
}

func copyKeyToPaths(items []KeyToPath) []KeyToPath {
	if items == nil {
		return nil
	}
	out := make([]KeyToPath, len(items))
	for i, it := range items {
		it.Mode = copyInt32(it.Mode)
		out[i] = it
	}
	return out
}

func copyHandler(h *LifecycleHandler) *LifecycleHandler {
	if h == nil {
		return nil
	}
	v := *h
	v.Exec, v.HTTPGet, v.TCPSocket = deepCopyMap(h.Exec), deepCopyMap(h.HTTPGet), deepCopyMap(h.TCPSocket)
	if h.Sleep != nil {
		s := *h.Sleep
		v.Sleep = &s
	}
	return &v
}

// deepCopyKubeletFields copies what a container holds for the kubelet
// beyond its image: env sources, envFrom, mounts, hooks, startup probe.
func deepCopyKubeletFields(c *Container) {
	if c.Env != nil {
		for i := range c.Env {
			if vf := c.Env[i].ValueFrom; vf != nil {
				v := EnvVarSource{ConfigMapKeyRef: copyKeySelector(vf.ConfigMapKeyRef), SecretKeyRef: copyKeySelector(vf.SecretKeyRef),
					FieldRef: deepCopyMap(vf.FieldRef), ResourceFieldRef: deepCopyMap(vf.ResourceFieldRef)}
				c.Env[i].ValueFrom = &v
			}
		}
	}
	if c.EnvFrom != nil {
		out := make([]EnvFromSource, len(c.EnvFrom))
		for i, e := range c.EnvFrom {
			if e.ConfigMapRef != nil {
				r := *e.ConfigMapRef
				r.Optional = copyBoolPtr(r.Optional)
				e.ConfigMapRef = &r
			}
			if e.SecretRef != nil {
				r := *e.SecretRef
				r.Optional = copyBoolPtr(r.Optional)
				e.SecretRef = &r
			}
			out[i] = e
		}
		c.EnvFrom = out
	}
	c.VolumeMounts = append([]VolumeMount(nil), c.VolumeMounts...)
	c.StartupProbe = copyProbe(c.StartupProbe)
	if c.Lifecycle != nil {
		l := Lifecycle{PostStart: copyHandler(c.Lifecycle.PostStart), PreStop: copyHandler(c.Lifecycle.PreStop)}
		c.Lifecycle = &l
	}
}

// deepCopyContainer copies a container (as PodSpec.DeepCopy copies each of
// its containers).
func deepCopyContainer(c Container) Container {
	c.Ports = append([]ContainerPort(nil), c.Ports...)
	c.Env = append([]EnvVar(nil), c.Env...)
	c.Command = append([]string(nil), c.Command...)
	c.Args = append([]string(nil), c.Args...)
	c.Resources.Requests = cloneQuantities(c.Resources.Requests)
	c.Resources.Limits = cloneQuantities(c.Resources.Limits)
	c.ReadinessProbe = copyProbe(c.ReadinessProbe)
	c.LivenessProbe = copyProbe(c.LivenessProbe)
	deepCopyKubeletFields(&c)
	return c
}

// deepCopyPodSpecKubelet copies init containers and volumes into out.
func deepCopyPodSpecKubelet(s PodSpec, out *PodSpec) {
	if s.InitContainers != nil {
		out.InitContainers = make([]Container, len(s.InitContainers))
		for i, c := range s.InitContainers {
			out.InitContainers[i] = deepCopyContainer(c)
		}
	}
	if s.Volumes != nil {
		out.Volumes = make([]Volume, len(s.Volumes))
		for i, v := range s.Volumes {
			if v.ConfigMap != nil {
				cm := *v.ConfigMap
				cm.Items, cm.DefaultMode, cm.Optional = copyKeyToPaths(cm.Items), copyInt32(cm.DefaultMode), copyBoolPtr(cm.Optional)
				v.ConfigMap = &cm
			}
			if v.Secret != nil {
				sc := *v.Secret
				sc.Items, sc.DefaultMode, sc.Optional = copyKeyToPaths(sc.Items), copyInt32(sc.DefaultMode), copyBoolPtr(sc.Optional)
				v.Secret = &sc
			}
			if v.EmptyDir != nil {
				e := *v.EmptyDir
				v.EmptyDir = &e
			}
			v.HostPath, v.PersistentVolumeClaim = deepCopyMap(v.HostPath), deepCopyMap(v.PersistentVolumeClaim)
			v.Projected, v.DownwardAPI = deepCopyMap(v.Projected), deepCopyMap(v.DownwardAPI)
			out.Volumes[i] = v
		}
	}
}

// deepCopyContainerStatuses copies a list of container statuses.
func deepCopyContainerStatuses(in []ContainerStatus) []ContainerStatus {
	if in == nil {
		return nil
	}
	out := make([]ContainerStatus, len(in))
	for i, cs := range in {
		cs.State = cs.State.DeepCopy()
		cs.LastState = cs.LastState.DeepCopy()
		if cs.Started != nil {
			v := *cs.Started
			cs.Started = &v
		}
		out[i] = cs
	}
	return out
}
