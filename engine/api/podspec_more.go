package api

// The pod fields below decode and validate as Kubernetes has them. The
// scheduler simulates scheduling gates, pod (anti-)affinity and topology
// spread; the rest is kept as written (the kubelet reads what it
// simulates). Fields kept as map[string]any are not checked field by field.

// PodSpecMore is the part of PodSpec beyond the engine's first model of a
// pod, inlined into PodSpec.
type PodSpecMore struct {
	InitContainers               []Container                `json:"initContainers,omitempty" yaml:"initContainers,omitempty"`
	Volumes                      []Volume                   `json:"volumes,omitempty" yaml:"volumes,omitempty"`
	DNSPolicy                    string                     `json:"dnsPolicy,omitempty" yaml:"dnsPolicy,omitempty"`
	DNSConfig                    *PodDNSConfig              `json:"dnsConfig,omitempty" yaml:"dnsConfig,omitempty"`
	SchedulingGates              []PodSchedulingGate        `json:"schedulingGates,omitempty" yaml:"schedulingGates,omitempty"`
	TopologySpreadConstraints    []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty" yaml:"topologySpreadConstraints,omitempty"`
	ServiceAccountName           string                     `json:"serviceAccountName,omitempty" yaml:"serviceAccountName,omitempty"`
	DeprecatedServiceAccount     string                     `json:"serviceAccount,omitempty" yaml:"serviceAccount,omitempty"`
	AutomountServiceAccountToken *bool                      `json:"automountServiceAccountToken,omitempty" yaml:"automountServiceAccountToken,omitempty"`
	// SecurityContext is {} once defaulted: shown (omitzero), as
	// Kubernetes shows its empty PodSecurityContext.
	SecurityContext       map[string]any         `json:"securityContext,omitzero" yaml:"securityContext,omitempty"`
	ImagePullSecrets      []LocalObjectReference `json:"imagePullSecrets,omitempty" yaml:"imagePullSecrets,omitempty"`
	HostNetwork           bool                   `json:"hostNetwork,omitempty" yaml:"hostNetwork,omitempty"`
	HostPID               bool                   `json:"hostPID,omitempty" yaml:"hostPID,omitempty"`
	HostIPC               bool                   `json:"hostIPC,omitempty" yaml:"hostIPC,omitempty"`
	Hostname              string                 `json:"hostname,omitempty" yaml:"hostname,omitempty"`
	Subdomain             string                 `json:"subdomain,omitempty" yaml:"subdomain,omitempty"`
	PriorityClassName     string                 `json:"priorityClassName,omitempty" yaml:"priorityClassName,omitempty"`
	Priority              *int32                 `json:"priority,omitempty" yaml:"priority,omitempty"`
	ActiveDeadlineSeconds *int64                 `json:"activeDeadlineSeconds,omitempty" yaml:"activeDeadlineSeconds,omitempty"`
	EnableServiceLinks    *bool                  `json:"enableServiceLinks,omitempty" yaml:"enableServiceLinks,omitempty"`
	ShareProcessNamespace *bool                  `json:"shareProcessNamespace,omitempty" yaml:"shareProcessNamespace,omitempty"`
	RuntimeClassName      *string                `json:"runtimeClassName,omitempty" yaml:"runtimeClassName,omitempty"`
	PreemptionPolicy      *string                `json:"preemptionPolicy,omitempty" yaml:"preemptionPolicy,omitempty"`
	HostAliases           []map[string]any       `json:"hostAliases,omitempty" yaml:"hostAliases,omitempty"`
	ReadinessGates        []map[string]any       `json:"readinessGates,omitempty" yaml:"readinessGates,omitempty"`
	Overhead              map[string]Quantity    `json:"overhead,omitempty" yaml:"overhead,omitempty"`
	OS                    map[string]any         `json:"os,omitempty" yaml:"os,omitempty"`
	HostUsers             *bool                  `json:"hostUsers,omitempty" yaml:"hostUsers,omitempty"`
	SetHostnameAsFQDN     *bool                  `json:"setHostnameAsFQDN,omitempty" yaml:"setHostnameAsFQDN,omitempty"`
	EphemeralContainers   []map[string]any       `json:"ephemeralContainers,omitempty" yaml:"ephemeralContainers,omitempty"`
	ResourceClaims        []map[string]any       `json:"resourceClaims,omitempty" yaml:"resourceClaims,omitempty"`
	PodResources          map[string]any         `json:"resources,omitempty" yaml:"resources,omitempty"`
}

// ContainerMore is the part of Container beyond the engine's first model,
// inlined into Container.
type ContainerMore struct {
	VolumeMounts             []VolumeMount   `json:"volumeMounts,omitempty" yaml:"volumeMounts,omitempty"`
	EnvFrom                  []EnvFromSource `json:"envFrom,omitempty" yaml:"envFrom,omitempty"`
	StartupProbe             *Probe          `json:"startupProbe,omitempty" yaml:"startupProbe,omitempty"`
	Lifecycle                *Lifecycle      `json:"lifecycle,omitempty" yaml:"lifecycle,omitempty"`
	WorkingDir               string          `json:"workingDir,omitempty" yaml:"workingDir,omitempty"`
	SecurityContext          map[string]any  `json:"securityContext,omitempty" yaml:"securityContext,omitempty"`
	Stdin                    bool            `json:"stdin,omitempty" yaml:"stdin,omitempty"`
	StdinOnce                bool            `json:"stdinOnce,omitempty" yaml:"stdinOnce,omitempty"`
	TTY                      bool            `json:"tty,omitempty" yaml:"tty,omitempty"`
	TerminationMessagePath   string          `json:"terminationMessagePath,omitempty" yaml:"terminationMessagePath,omitempty"`
	TerminationMessagePolicy string          `json:"terminationMessagePolicy,omitempty" yaml:"terminationMessagePolicy,omitempty"`
	// RestartPolicy "Always" on an init container makes it a sidecar.
	RestartPolicy *string          `json:"restartPolicy,omitempty" yaml:"restartPolicy,omitempty"`
	VolumeDevices []map[string]any `json:"volumeDevices,omitempty" yaml:"volumeDevices,omitempty"`
	ResizePolicy  []map[string]any `json:"resizePolicy,omitempty" yaml:"resizePolicy,omitempty"`
}

// ProbeMore is the part of Probe beyond the engine's first model.
type ProbeMore struct {
	// GRPC checks a gRPC health service (GA since Kubernetes 1.27).
	GRPC                          *GRPCAction `json:"grpc,omitempty" yaml:"grpc,omitempty"`
	TerminationGracePeriodSeconds *int64      `json:"terminationGracePeriodSeconds,omitempty" yaml:"terminationGracePeriodSeconds,omitempty"`
}

// GRPCAction is a probe's gRPC health check.
type GRPCAction struct {
	Port    int32   `json:"port" yaml:"port"`
	Service *string `json:"service,omitempty" yaml:"service,omitempty"`
}

// Lifecycle holds a container's hooks.
type Lifecycle struct {
	PostStart  *LifecycleHandler `json:"postStart,omitempty" yaml:"postStart,omitempty"`
	PreStop    *LifecycleHandler `json:"preStop,omitempty" yaml:"preStop,omitempty"`
	StopSignal string            `json:"stopSignal,omitempty" yaml:"stopSignal,omitempty"`
}

// LifecycleHandler is one hook: exactly one of its actions.
type LifecycleHandler struct {
	Exec      map[string]any `json:"exec,omitempty" yaml:"exec,omitempty"`
	HTTPGet   map[string]any `json:"httpGet,omitempty" yaml:"httpGet,omitempty"`
	TCPSocket map[string]any `json:"tcpSocket,omitempty" yaml:"tcpSocket,omitempty"`
	Sleep     *SleepAction   `json:"sleep,omitempty" yaml:"sleep,omitempty"`
}

// Volume is a directory the pod's containers may mount: its name and
// exactly one source.
type Volume struct {
	Name                  string                          `json:"name" yaml:"name"`
	ConfigMap             *ConfigMapVolumeSource          `json:"configMap,omitempty" yaml:"configMap,omitempty"`
	Secret                *SecretVolumeSource             `json:"secret,omitempty" yaml:"secret,omitempty"`
	EmptyDir              *EmptyDirVolumeSource           `json:"emptyDir,omitempty" yaml:"emptyDir,omitempty"`
	PersistentVolumeClaim *PersistentVolumeClaimReference `json:"persistentVolumeClaim,omitempty" yaml:"persistentVolumeClaim,omitempty"`
	HostPath              map[string]any                  `json:"hostPath,omitempty" yaml:"hostPath,omitempty"`
	Projected             map[string]any                  `json:"projected,omitempty" yaml:"projected,omitempty"`
	DownwardAPI           map[string]any                  `json:"downwardAPI,omitempty" yaml:"downwardAPI,omitempty"`
	CSI                   map[string]any                  `json:"csi,omitempty" yaml:"csi,omitempty"`
	NFS                   map[string]any                  `json:"nfs,omitempty" yaml:"nfs,omitempty"`
	Ephemeral             map[string]any                  `json:"ephemeral,omitempty" yaml:"ephemeral,omitempty"`
	Image                 map[string]any                  `json:"image,omitempty" yaml:"image,omitempty"`
}

// EmptyDirVolumeSource is a scratch directory that lives as long as the
// pod. (A pointer, so that `emptyDir: {}` stays set through JSON.)
type EmptyDirVolumeSource struct {
	Medium    string   `json:"medium,omitempty" yaml:"medium,omitempty"`
	SizeLimit Quantity `json:"sizeLimit,omitempty" yaml:"sizeLimit,omitempty"`
}

// ConfigMapVolumeSource projects a ConfigMap's keys as files.
type ConfigMapVolumeSource struct {
	Name        string      `json:"name,omitempty" yaml:"name,omitempty"`
	Items       []KeyToPath `json:"items,omitempty" yaml:"items,omitempty"`
	DefaultMode *int32      `json:"defaultMode,omitempty" yaml:"defaultMode,omitempty"`
	Optional    *bool       `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// SecretVolumeSource projects a Secret's keys as files.
type SecretVolumeSource struct {
	SecretName  string      `json:"secretName,omitempty" yaml:"secretName,omitempty"`
	Items       []KeyToPath `json:"items,omitempty" yaml:"items,omitempty"`
	DefaultMode *int32      `json:"defaultMode,omitempty" yaml:"defaultMode,omitempty"`
	Optional    *bool       `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// KeyToPath maps one key to a file path.
type KeyToPath struct {
	Key  string `json:"key" yaml:"key"`
	Path string `json:"path" yaml:"path"`
	Mode *int32 `json:"mode,omitempty" yaml:"mode,omitempty"`
}

// PersistentVolumeClaimReference names a claim a pod mounts.
type PersistentVolumeClaimReference struct {
	ClaimName string `json:"claimName" yaml:"claimName"`
	ReadOnly  bool   `json:"readOnly,omitempty" yaml:"readOnly,omitempty"`
}

// VolumeMount mounts a volume into a container.
type VolumeMount struct {
	Name              string  `json:"name" yaml:"name"`
	MountPath         string  `json:"mountPath" yaml:"mountPath"`
	ReadOnly          bool    `json:"readOnly,omitempty" yaml:"readOnly,omitempty"`
	SubPath           string  `json:"subPath,omitempty" yaml:"subPath,omitempty"`
	SubPathExpr       string  `json:"subPathExpr,omitempty" yaml:"subPathExpr,omitempty"`
	MountPropagation  *string `json:"mountPropagation,omitempty" yaml:"mountPropagation,omitempty"`
	RecursiveReadOnly *string `json:"recursiveReadOnly,omitempty" yaml:"recursiveReadOnly,omitempty"`
}

// LocalObjectReference names an object in the pod's namespace.
type LocalObjectReference struct {
	Name string `json:"name,omitempty" yaml:"name,omitempty"`
}

// EnvFromSource imports every key of a ConfigMap or Secret as variables.
type EnvFromSource struct {
	Prefix       string             `json:"prefix,omitempty" yaml:"prefix,omitempty"`
	ConfigMapRef *OptionalObjectRef `json:"configMapRef,omitempty" yaml:"configMapRef,omitempty"`
	SecretRef    *OptionalObjectRef `json:"secretRef,omitempty" yaml:"secretRef,omitempty"`
}

// OptionalObjectRef names a ConfigMap or Secret that may be missing when
// Optional is true.
type OptionalObjectRef struct {
	Name     string `json:"name,omitempty" yaml:"name,omitempty"`
	Optional *bool  `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// EnvVarSource is where an environment variable's value comes from.
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

// PodDNSConfig adds to the DNS settings dnsPolicy gives.
type PodDNSConfig struct {
	Nameservers []string             `json:"nameservers,omitempty" yaml:"nameservers,omitempty"`
	Searches    []string             `json:"searches,omitempty" yaml:"searches,omitempty"`
	Options     []PodDNSConfigOption `json:"options,omitempty" yaml:"options,omitempty"`
}

// PodDNSConfigOption is one resolver option.
type PodDNSConfigOption struct {
	Name  string  `json:"name,omitempty" yaml:"name,omitempty"`
	Value *string `json:"value,omitempty" yaml:"value,omitempty"`
}

// PodSchedulingGate holds a pod back from scheduling while it is listed.
type PodSchedulingGate struct {
	Name string `json:"name" yaml:"name"`
}

// PodAffinity is a set of inter-pod affinity (or anti-affinity) rules.
type PodAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" yaml:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty" yaml:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAffinityTerm selects pods (in namespaces) that must, or must not, run
// in the same topology domain (nodes sharing the value of TopologyKey).
type PodAffinityTerm struct {
	LabelSelector     *LabelSelector `json:"labelSelector,omitempty" yaml:"labelSelector,omitempty"`
	Namespaces        []string       `json:"namespaces,omitempty" yaml:"namespaces,omitempty"`
	TopologyKey       string         `json:"topologyKey" yaml:"topologyKey"`
	NamespaceSelector *LabelSelector `json:"namespaceSelector,omitempty" yaml:"namespaceSelector,omitempty"`
	MatchLabelKeys    []string       `json:"matchLabelKeys,omitempty" yaml:"matchLabelKeys,omitempty"`
	MismatchLabelKeys []string       `json:"mismatchLabelKeys,omitempty" yaml:"mismatchLabelKeys,omitempty"`
}

// WeightedPodAffinityTerm is a preferred term and its weight (1-100).
type WeightedPodAffinityTerm struct {
	Weight          int32           `json:"weight" yaml:"weight"`
	PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm" yaml:"podAffinityTerm"`
}

// TopologySpreadConstraint spreads matching pods over topology domains.
type TopologySpreadConstraint struct {
	MaxSkew            int32          `json:"maxSkew" yaml:"maxSkew"`
	TopologyKey        string         `json:"topologyKey" yaml:"topologyKey"`
	WhenUnsatisfiable  string         `json:"whenUnsatisfiable" yaml:"whenUnsatisfiable"`
	LabelSelector      *LabelSelector `json:"labelSelector,omitempty" yaml:"labelSelector,omitempty"`
	MinDomains         *int32         `json:"minDomains,omitempty" yaml:"minDomains,omitempty"`
	NodeAffinityPolicy *string        `json:"nodeAffinityPolicy,omitempty" yaml:"nodeAffinityPolicy,omitempty"`
	NodeTaintsPolicy   *string        `json:"nodeTaintsPolicy,omitempty" yaml:"nodeTaintsPolicy,omitempty"`
	MatchLabelKeys     []string       `json:"matchLabelKeys,omitempty" yaml:"matchLabelKeys,omitempty"`
}

// JobSpecMore is the part of JobSpec beyond the engine's first model,
// inlined into JobSpec. Kept as written: the Job controller does not act
// on these yet.
type JobSpecMore struct {
	CompletionMode          *string           `json:"completionMode,omitempty" yaml:"completionMode,omitempty"`
	PodFailurePolicy        *PodFailurePolicy `json:"podFailurePolicy,omitempty" yaml:"podFailurePolicy,omitempty"`
	ActiveDeadlineSeconds   *int64            `json:"activeDeadlineSeconds,omitempty" yaml:"activeDeadlineSeconds,omitempty"`
	TTLSecondsAfterFinished *int32            `json:"ttlSecondsAfterFinished,omitempty" yaml:"ttlSecondsAfterFinished,omitempty"`
	Suspend                 *bool             `json:"suspend,omitempty" yaml:"suspend,omitempty"`
	BackoffLimitPerIndex    *int32            `json:"backoffLimitPerIndex,omitempty" yaml:"backoffLimitPerIndex,omitempty"`
	MaxFailedIndexes        *int32            `json:"maxFailedIndexes,omitempty" yaml:"maxFailedIndexes,omitempty"`
	PodReplacementPolicy    *string           `json:"podReplacementPolicy,omitempty" yaml:"podReplacementPolicy,omitempty"`
	SuccessPolicy           map[string]any    `json:"successPolicy,omitempty" yaml:"successPolicy,omitempty"`
	ManagedBy               *string           `json:"managedBy,omitempty" yaml:"managedBy,omitempty"`
}

// PodFailurePolicy decides what a failed pod means for its Job.
type PodFailurePolicy struct {
	Rules []PodFailurePolicyRule `json:"rules" yaml:"rules"`
}

// PodFailurePolicyRule is one rule: an action and what it matches.
type PodFailurePolicyRule struct {
	Action          string           `json:"action" yaml:"action"`
	OnExitCodes     map[string]any   `json:"onExitCodes,omitempty" yaml:"onExitCodes,omitempty"`
	OnPodConditions []map[string]any `json:"onPodConditions,omitempty" yaml:"onPodConditions,omitempty"`
}

// IsSidecar reports whether an init container is a sidecar: one with
// restartPolicy Always, which starts before the containers and keeps
// running beside them.
func (c *Container) IsSidecar() bool { r := c.More().RestartPolicy; return r != nil && *r == "Always" }
