package api

import "strconv"

// PodTemplateSpec describes the pods a workload creates.
type PodTemplateSpec struct {
	ObjectMeta `json:"metadata,omitempty" yaml:"metadata,omitempty"`
	Spec       PodSpec `json:"spec" yaml:"spec"`
}

// Pod is a group of containers bound to one node (core/v1).
type Pod struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       PodSpec   `json:"spec" yaml:"spec"`
	Status     PodStatus `json:"status" yaml:"status,omitempty"`
}

// PodSpec is the desired state of a pod.
type PodSpec struct {
	NodeName                      string            `json:"nodeName,omitempty" yaml:"nodeName,omitempty"`
	NodeSelector                  map[string]string `json:"nodeSelector,omitempty" yaml:"nodeSelector,omitempty"`
	Containers                    []Container       `json:"containers" yaml:"containers"`
	Tolerations                   []Toleration      `json:"tolerations,omitempty" yaml:"tolerations,omitempty"`
	RestartPolicy                 string            `json:"restartPolicy,omitempty" yaml:"restartPolicy,omitempty"`
	TerminationGracePeriodSeconds *int64            `json:"terminationGracePeriodSeconds,omitempty" yaml:"terminationGracePeriodSeconds,omitempty"`
	SchedulerName                 string            `json:"schedulerName,omitempty" yaml:"schedulerName,omitempty"`
	Affinity                      *Affinity         `json:"affinity,omitempty" yaml:"affinity,omitempty"`
	// PodSpecMore holds the rare fields, nil when none is set (read them
	// through More).
	*PodSpecMore `json:",inline" yaml:",inline"`
}

// Affinity holds scheduling constraints. Required node affinity and pod
// (anti-)affinity are simulated; preferred node affinity is kept as written.
type Affinity struct {
	NodeAffinity    *NodeAffinity `json:"nodeAffinity,omitempty" yaml:"nodeAffinity,omitempty"`
	PodAffinity     *PodAffinity  `json:"podAffinity,omitempty" yaml:"podAffinity,omitempty"`
	PodAntiAffinity *PodAffinity  `json:"podAntiAffinity,omitempty" yaml:"podAntiAffinity,omitempty"`
}

// NodeAffinity restricts the nodes a pod may run on.
type NodeAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  *NodeSelector             `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" yaml:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty" yaml:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PreferredSchedulingTerm is a soft node affinity rule: a node its
// preference matches scores its weight (1 to 100).
type PreferredSchedulingTerm struct {
	Weight     int32            `json:"weight" yaml:"weight"`
	Preference NodeSelectorTerm `json:"preference" yaml:"preference"`
}

// NodeSelector is a list of terms, any of which may match (ORed).
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms" yaml:"nodeSelectorTerms"`
}

// NodeSelectorTerm is a list of requirements, all of which must match.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty" yaml:"matchExpressions,omitempty"`
	// MatchFields are over the node's fields; metadata.name is the one
	// Kubernetes supports (a DaemonSet pins its pods to nodes with it).
	MatchFields []NodeSelectorRequirement `json:"matchFields,omitempty" yaml:"matchFields,omitempty"`
}

// NodeSelectorRequirement is one expression over a node's labels.
type NodeSelectorRequirement struct {
	Key      string   `json:"key" yaml:"key"`
	Operator string   `json:"operator" yaml:"operator"`
	Values   []string `json:"values,omitempty" yaml:"values,omitempty"`
}

// Matches reports whether a node's labels satisfy the selector: any term,
// every expression of it.
func (s *NodeSelector) Matches(labels map[string]string) bool {
	return s.MatchesNode("", labels)
}

// MatchesNode reports whether the node named name with labels satisfies
// the selector: any term, every expression and field requirement of it.
func (s *NodeSelector) MatchesNode(name string, labels map[string]string) bool {
	if s == nil {
		return true
	}
	fields := map[string]string{"metadata.name": name}
	for _, t := range s.NodeSelectorTerms {
		ok := len(t.MatchExpressions) > 0 || len(t.MatchFields) > 0
		for _, r := range t.MatchExpressions {
			if !r.matches(labels) {
				ok = false
				break
			}
		}
		for _, r := range t.MatchFields {
			if !r.matches(fields) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (r NodeSelectorRequirement) matches(labels map[string]string) bool {
	v, has := labels[r.Key]
	in := false
	for _, w := range r.Values {
		if v == w {
			in = true
		}
	}
	switch r.Operator {
	case "In":
		return has && in
	case "NotIn":
		return !has || !in
	case "Exists":
		return has
	case "DoesNotExist":
		return !has
	case "Gt", "Lt":
		if !has || len(r.Values) != 1 {
			return false
		}
		a, err1 := strconv.ParseInt(v, 10, 64)
		b, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if r.Operator == "Gt" {
			return a > b
		}
		return a < b
	}
	return false
}

// Container is one container of a pod.
type Container struct {
	Name            string               `json:"name" yaml:"name"`
	Image           string               `json:"image" yaml:"image"`
	ImagePullPolicy string               `json:"imagePullPolicy,omitempty" yaml:"imagePullPolicy,omitempty"`
	Ports           []ContainerPort      `json:"ports,omitempty" yaml:"ports,omitempty"`
	Resources       ResourceRequirements `json:"resources,omitempty" yaml:"resources,omitempty"`
	ReadinessProbe  *Probe               `json:"readinessProbe,omitempty" yaml:"readinessProbe,omitempty"`
	LivenessProbe   *Probe               `json:"livenessProbe,omitempty" yaml:"livenessProbe,omitempty"`
	Env             []EnvVar             `json:"env,omitempty" yaml:"env,omitempty"`
	Command         []string             `json:"command,omitempty" yaml:"command,omitempty"`
	Args            []string             `json:"args,omitempty" yaml:"args,omitempty"`
	// ContainerMore holds the rare fields, nil when none is set (read
	// them through More).
	*ContainerMore `json:",inline" yaml:",inline"`
}

// ContainerPort is a port a container listens on.
type ContainerPort struct {
	Name          string `json:"name,omitempty" yaml:"name,omitempty"`
	ContainerPort int32  `json:"containerPort" yaml:"containerPort"`
	Protocol      string `json:"protocol,omitempty" yaml:"protocol,omitempty"`
	// HostPort and HostIP expose the port on the node; they are stored
	// and shown, not simulated.
	HostPort int32  `json:"hostPort,omitempty" yaml:"hostPort,omitempty"`
	HostIP   string `json:"hostIP,omitempty" yaml:"hostIP,omitempty"`
}

// EnvVar is an environment variable.
type EnvVar struct {
	Name  string `json:"name" yaml:"name"`
	Value string `json:"value,omitempty" yaml:"value,omitempty"`
	// ValueFrom reads the value from a ConfigMap, a Secret or the pod.
	ValueFrom *EnvVarSource `json:"valueFrom,omitempty" yaml:"valueFrom,omitempty"`
}

// ResourceRequirements are a container's requests and limits.
type ResourceRequirements struct {
	Requests map[string]Quantity `json:"requests,omitempty" yaml:"requests,omitempty"`
	Limits   map[string]Quantity `json:"limits,omitempty" yaml:"limits,omitempty"`
}

// Probe checks a container. The handler (httpGet, tcpSocket, exec, grpc)
// decides the kubelet's failure message; the simulated image decides
// whether the probe passes.
type Probe struct {
	HTTPGet             map[string]any `json:"httpGet,omitempty" yaml:"httpGet,omitempty"`
	TCPSocket           map[string]any `json:"tcpSocket,omitempty" yaml:"tcpSocket,omitempty"`
	Exec                map[string]any `json:"exec,omitempty" yaml:"exec,omitempty"`
	InitialDelaySeconds int32          `json:"initialDelaySeconds,omitempty" yaml:"initialDelaySeconds,omitempty"`
	TimeoutSeconds      int32          `json:"timeoutSeconds,omitempty" yaml:"timeoutSeconds,omitempty"`
	PeriodSeconds       int32          `json:"periodSeconds,omitempty" yaml:"periodSeconds,omitempty"`
	SuccessThreshold    int32          `json:"successThreshold,omitempty" yaml:"successThreshold,omitempty"`
	FailureThreshold    int32          `json:"failureThreshold,omitempty" yaml:"failureThreshold,omitempty"`
	ProbeMore           `json:",inline" yaml:",inline"`
}

// Toleration lets a pod ignore a taint.
type Toleration struct {
	Key               string `json:"key,omitempty" yaml:"key,omitempty"`
	Operator          string `json:"operator,omitempty" yaml:"operator,omitempty"`
	Value             string `json:"value,omitempty" yaml:"value,omitempty"`
	Effect            string `json:"effect,omitempty" yaml:"effect,omitempty"`
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty" yaml:"tolerationSeconds,omitempty"`
}

// Tolerates reports whether t tolerates taint.
func (t Toleration) Tolerates(taint Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key == "" {
		return t.Operator == "Exists"
	}
	if t.Key != taint.Key {
		return false
	}
	if t.Operator == "Exists" {
		return true
	}
	return t.Value == taint.Value
}

// Pod phases.
const (
	PodPending   = "Pending"
	PodRunning   = "Running"
	PodSucceeded = "Succeeded"
	PodFailed    = "Failed"
	PodUnknown   = "Unknown"
)

// PodStatus is what the kubelet and scheduler report of a pod.
type PodStatus struct {
	Phase      string         `json:"phase,omitempty" yaml:"phase,omitempty"`
	Conditions []PodCondition `json:"conditions,omitempty" yaml:"conditions,omitempty"`
	Message    string         `json:"message,omitempty" yaml:"message,omitempty"`
	Reason     string         `json:"reason,omitempty" yaml:"reason,omitempty"`
	HostIP     string         `json:"hostIP,omitempty" yaml:"hostIP,omitempty"`
	HostIPs    []HostIP       `json:"hostIPs,omitempty" yaml:"hostIPs,omitempty"`
	PodIP      string         `json:"podIP,omitempty" yaml:"podIP,omitempty"`
	PodIPs     []PodIP        `json:"podIPs,omitempty" yaml:"podIPs,omitempty"`
	// QOSClass is set by the API server when it creates the pod
	// (PodQOSClass).
	QOSClass          string            `json:"qosClass,omitempty" yaml:"qosClass,omitempty"`
	StartTime         *Time             `json:"startTime,omitempty" yaml:"-"`
	ContainerStatuses []ContainerStatus `json:"containerStatuses,omitempty" yaml:"containerStatuses,omitempty"`

	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitempty" yaml:"initContainerStatuses,omitempty"`
}

// HostIP is one address of the node a pod runs on (status.hostIPs).
type HostIP struct {
	IP string `json:"ip" yaml:"ip"`
}

// PodIP is one address of a pod (status.podIPs): the cluster is single
// stack, so a pod has one, its podIP.
type PodIP struct {
	IP string `json:"ip" yaml:"ip"`
}

// PodCondition is PodScheduled, Initialized, ContainersReady, Ready or DisruptionTarget.
type PodCondition struct {
	Type   string `json:"type" yaml:"type"`
	Status string `json:"status" yaml:"status"`
	// LastProbeTime is null: no one probes a pod's conditions.
	LastProbeTime      NullTime `json:"lastProbeTime" yaml:"-"`
	LastTransitionTime Time     `json:"lastTransitionTime" yaml:"-"`
	Reason             string   `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string   `json:"message,omitempty" yaml:"message,omitempty"`
}

// ContainerStatus is the kubelet's report on one container.
type ContainerStatus struct {
	Name         string         `json:"name" yaml:"name"`
	State        ContainerState `json:"state" yaml:"state"`
	LastState    ContainerState `json:"lastState" yaml:"lastState"`
	Ready        bool           `json:"ready" yaml:"ready"`
	RestartCount int32          `json:"restartCount" yaml:"restartCount"`
	Image        string         `json:"image" yaml:"image"`
	ImageID      string         `json:"imageID" yaml:"imageID"`
	// ContainerID is the runtime's id of the newest container run for
	// it (containerd://…): none before the first one runs.
	ContainerID string `json:"containerID,omitempty" yaml:"containerID,omitempty"`
	Started     *bool  `json:"started,omitempty" yaml:"started,omitempty"`
}

// ContainerState is exactly one of waiting, running or terminated.
type ContainerState struct {
	Waiting    *ContainerStateWaiting    `json:"waiting,omitempty" yaml:"waiting,omitempty"`
	Running    *ContainerStateRunning    `json:"running,omitempty" yaml:"running,omitempty"`
	Terminated *ContainerStateTerminated `json:"terminated,omitempty" yaml:"terminated,omitempty"`
}

// ContainerStateWaiting says why a container is not running yet.
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message string `json:"message,omitempty" yaml:"message,omitempty"`
}

// ContainerStateRunning says since when a container runs.
type ContainerStateRunning struct {
	StartedAt Time `json:"startedAt" yaml:"-"`
}

// ContainerStateTerminated says how a container ended.
type ContainerStateTerminated struct {
	ExitCode   int32  `json:"exitCode" yaml:"exitCode"`
	Reason     string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message    string `json:"message,omitempty" yaml:"message,omitempty"`
	StartedAt  Time   `json:"startedAt" yaml:"-"`
	FinishedAt Time   `json:"finishedAt" yaml:"-"`
	// ContainerID is the id of the container that ended.
	ContainerID string `json:"containerID,omitempty" yaml:"containerID,omitempty"`
}

// Node is a machine pods run on (core/v1).
type Node struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       NodeSpec   `json:"spec" yaml:"spec"`
	Status     NodeStatus `json:"status" yaml:"status,omitempty"`
}

// NodeSpec holds scheduling switches.
type NodeSpec struct {
	Unschedulable bool    `json:"unschedulable,omitempty" yaml:"unschedulable,omitempty"`
	Taints        []Taint `json:"taints,omitempty" yaml:"taints,omitempty"`
	// PodCIDR and PodCIDRs are the node's range of pod addresses, which
	// the node-ipam-controller assigns (PodCIDR is PodCIDRs[0]).
	PodCIDR  string   `json:"podCIDR,omitempty" yaml:"podCIDR,omitempty"`
	PodCIDRs []string `json:"podCIDRs,omitempty" yaml:"podCIDRs,omitempty"`
}

// Taint repels pods that do not tolerate it.
type Taint struct {
	Key       string `json:"key" yaml:"key"`
	Value     string `json:"value,omitempty" yaml:"value,omitempty"`
	Effect    string `json:"effect" yaml:"effect"`
	TimeAdded *Time  `json:"timeAdded,omitempty" yaml:"-"`
}

// NodeStatus is what the kubelet and the node lifecycle controller report.
type NodeStatus struct {
	Capacity    map[string]Quantity `json:"capacity,omitempty" yaml:"capacity,omitempty"`
	Allocatable map[string]Quantity `json:"allocatable,omitempty" yaml:"allocatable,omitempty"`
	Conditions  []NodeCondition     `json:"conditions,omitempty" yaml:"conditions,omitempty"`
	// Addresses, DaemonEndpoints and NodeInfo are what the kubelet
	// reports of its machine; kubectl get nodes -o wide and describe node
	// print them.
	Addresses       []NodeAddress       `json:"addresses,omitempty" yaml:"addresses,omitempty"`
	DaemonEndpoints NodeDaemonEndpoints `json:"daemonEndpoints" yaml:"daemonEndpoints"`
	NodeInfo        *NodeSystemInfo     `json:"nodeInfo,omitempty" yaml:"nodeInfo,omitempty"`
}

// NodeAddress is one address of a node: InternalIP, ExternalIP or Hostname.
type NodeAddress struct {
	Type    string `json:"type" yaml:"type"`
	Address string `json:"address" yaml:"address"`
}

// NodeDaemonEndpoints are the ports the node's daemons listen on: the
// kubelet's (10250). Its field is "Port", capitalised, as in the API.
type NodeDaemonEndpoints struct {
	KubeletEndpoint struct {
		Port int32 `json:"Port" yaml:"Port"`
	} `json:"kubeletEndpoint" yaml:"kubeletEndpoint"`
}

// NodeSystemInfo describes a node's machine and software. Every field is
// written, empty or not, as the API server does (kubeProxyVersion is no
// longer set by v1.34's kubelet: empty).
type NodeSystemInfo struct {
	MachineID               string `json:"machineID" yaml:"machineID"`
	SystemUUID              string `json:"systemUUID" yaml:"systemUUID"`
	BootID                  string `json:"bootID" yaml:"bootID"`
	KernelVersion           string `json:"kernelVersion" yaml:"kernelVersion"`
	OSImage                 string `json:"osImage" yaml:"osImage"`
	ContainerRuntimeVersion string `json:"containerRuntimeVersion" yaml:"containerRuntimeVersion"`
	KubeletVersion          string `json:"kubeletVersion" yaml:"kubeletVersion"`
	KubeProxyVersion        string `json:"kubeProxyVersion" yaml:"kubeProxyVersion"`
	OperatingSystem         string `json:"operatingSystem" yaml:"operatingSystem"`
	Architecture            string `json:"architecture" yaml:"architecture"`
}

// NodeCondition is Ready, MemoryPressure, DiskPressure or PIDPressure.
type NodeCondition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	LastHeartbeatTime  Time   `json:"lastHeartbeatTime" yaml:"-"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"-"`
	Reason             string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string `json:"message,omitempty" yaml:"message,omitempty"`
}

// Event is a core/v1 Event, as the API server returns it. Two recorders
// write them. The legacy one (client-go tools/record), which every
// simulated component but the scheduler uses, aggregates: count,
// firstTimestamp and lastTimestamp, source, eventTime null. The
// events.k8s.io one (client-go tools/events), which kube-scheduler uses,
// writes an events.k8s.io/v1 Event, which core/v1 reads with eventTime,
// action, series, source {}, no count and both timestamps null (NoTime).
type Event struct {
	TypeMeta       `json:",inline" yaml:",inline"`
	ObjectMeta     `json:"metadata" yaml:"metadata"`
	InvolvedObject ObjectReference `json:"involvedObject" yaml:"involvedObject"`
	Reason         string          `json:"reason" yaml:"reason"`
	Message        string          `json:"message" yaml:"message"`
	Source         EventSource     `json:"source" yaml:"source"`
	// FirstTimestamp and LastTimestamp are NoTime (null) for an event of
	// the events.k8s.io recorder.
	FirstTimestamp Time `json:"firstTimestamp" yaml:"-"`
	LastTimestamp  Time `json:"lastTimestamp" yaml:"-"`
	// Count is 0 (absent) for an event of the events.k8s.io recorder.
	Count int32  `json:"count,omitempty" yaml:"count,omitempty"`
	Type  string `json:"type" yaml:"type"`
	// EventTime is nil (null) for the legacy recorder, which sets no
	// eventTime; the events.k8s.io recorder sets it when it makes the
	// event.
	EventTime *MicroTime `json:"eventTime" yaml:"-"`
	// Series is set by the events.k8s.io recorder on the second
	// occurrence of an isomorphic event (store/series.go).
	Series *EventSeries `json:"series,omitempty" yaml:"series,omitempty"`
	// Action is what the events.k8s.io recorder's caller was doing
	// (the scheduler's Scheduling, Binding); the legacy recorder sets none.
	Action string `json:"action,omitempty" yaml:"action,omitempty"`
	// ReportingController and ReportingInstance are the source's
	// component and host again, as the legacy recorder writes them; the
	// events.k8s.io recorder's own (reportingController, and
	// "<controller>-<host>").
	ReportingController string `json:"reportingComponent" yaml:"reportingComponent"`
	ReportingInstance   string `json:"reportingInstance" yaml:"reportingInstance"`
}

// EventSeries is an Event's series: how many times the recorder saw it
// up to its last write, and when last.
type EventSeries struct {
	Count            int32     `json:"count" yaml:"count"`
	LastObservedTime MicroTime `json:"lastObservedTime" yaml:"-"`
}

// Component is who recorded e, as kubectl's describe, its wide SOURCE
// column and the API server's source field selector read it: the source's
// component, else the reporting controller (the scheduler's events).
func (e *Event) Component() string {
	if e.Source.Component != "" {
		return e.Source.Component
	}
	return e.ReportingController
}

// FirstSeen is when e was first seen: its eventTime, or else its
// firstTimestamp (kubectl's describe and kubectl events read it so).
func (e *Event) FirstSeen() Time {
	if e.EventTime != nil {
		return Time(*e.EventTime)
	}
	return e.FirstTimestamp
}

// Repeats is how many times e was seen, as kubectl's describe and
// kubectl events show it ("x%d over"): its series' count, or else its
// count; 1 for a singleton of the events.k8s.io recorder.
func (e *Event) Repeats() int32 {
	if e.Series != nil {
		return e.Series.Count
	}
	return max(e.Count, 1)
}

// LastSeen is when e was last seen: its series' lastObservedTime, or else
// its lastTimestamp, or else its eventTime (kubectl's printers).
func (e *Event) LastSeen() Time {
	if e.Series != nil {
		return Time(e.Series.LastObservedTime)
	}
	if e.LastTimestamp != NoTime {
		return e.LastTimestamp
	}
	return e.FirstSeen()
}

// NullTime is a time the object leaves unset, which the API server renders
// as null (an Event's eventTime from the legacy recorder).
type NullTime struct{}

// MarshalJSON renders the unset time: null.
func (NullTime) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

// ObjectReference names the object an event is about (core/v1
// ObjectReference, its fields in that order): ResourceVersion is the
// object's as its recorder saw it, FieldPath the part of it the event is
// about (a container: "spec.containers{app}"), empty for the whole.
type ObjectReference struct {
	Kind            string `json:"kind" yaml:"kind"`
	Namespace       string `json:"namespace,omitempty" yaml:"namespace,omitempty"`
	Name            string `json:"name" yaml:"name"`
	UID             string `json:"uid,omitempty" yaml:"uid,omitempty"`
	APIVersion      string `json:"apiVersion,omitempty" yaml:"apiVersion,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty" yaml:"resourceVersion,omitempty"`
	FieldPath       string `json:"fieldPath,omitempty" yaml:"fieldPath,omitempty"`
}

// ReferenceTo is client-go's GetReference (tools/reference/ref.go): o's
// kind, namespace, name, UID, apiVersion and resourceVersion, as o holds
// them (the strings are o's own). An event recorder names its object so.
func ReferenceTo(o Object) ObjectReference {
	m, t := o.Meta(), o.GetTypeMeta()
	return ObjectReference{Kind: t.Kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID, APIVersion: t.APIVersion, ResourceVersion: m.ResourceVersion}
}

// EventSource is the component that reported an event.
type EventSource struct {
	Component string `json:"component,omitempty" yaml:"component,omitempty"`
	Host      string `json:"host,omitempty" yaml:"host,omitempty"`
}

// Lease is a node's heartbeat (coordination.k8s.io/v1, namespace kube-node-lease).
type Lease struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       LeaseSpec `json:"spec" yaml:"spec"`
}

// LeaseSpec holds the holder and the last renewal.
type LeaseSpec struct {
	HolderIdentity       string `json:"holderIdentity,omitempty" yaml:"holderIdentity,omitempty"`
	LeaseDurationSeconds int32  `json:"leaseDurationSeconds,omitempty" yaml:"leaseDurationSeconds,omitempty"`
	RenewTime            Time   `json:"renewTime" yaml:"-"`
}

// Unstructured is an object of a kind the engine stores and lists but does
// not simulate (a Service, a ConfigMap, ...).
type Unstructured struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       map[string]any `json:"spec,omitempty" yaml:"spec,omitempty"`
	Data       map[string]any `json:"data,omitempty" yaml:"data,omitempty"`
	// Fields are the kind's other top-level fields as written (a Secret's
	// type and stringData, a Role's rules), rendered beside spec and data.
	Fields map[string]any `json:"-" yaml:"-"`
}
