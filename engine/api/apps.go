package api

// Deployment declares a replicated, rolling-updated workload (apps/v1).
type Deployment struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       DeploymentSpec   `json:"spec" yaml:"spec"`
	Status     DeploymentStatus `json:"status" yaml:"status,omitempty"`
}

// DeploymentSpec is the desired state of a Deployment.
type DeploymentSpec struct {
	Replicas                *int32             `json:"replicas,omitempty" yaml:"replicas,omitempty"`
	Selector                *LabelSelector     `json:"selector,omitempty" yaml:"selector,omitempty"`
	Template                PodTemplateSpec    `json:"template" yaml:"template"`
	Strategy                DeploymentStrategy `json:"strategy,omitempty" yaml:"strategy,omitempty"`
	MinReadySeconds         int32              `json:"minReadySeconds,omitempty" yaml:"minReadySeconds,omitempty"`
	RevisionHistoryLimit    *int32             `json:"revisionHistoryLimit,omitempty" yaml:"revisionHistoryLimit,omitempty"`
	Paused                  bool               `json:"paused,omitempty" yaml:"paused,omitempty"`
	ProgressDeadlineSeconds *int32             `json:"progressDeadlineSeconds,omitempty" yaml:"progressDeadlineSeconds,omitempty"`
}

// DeploymentStrategy is RollingUpdate or Recreate.
type DeploymentStrategy struct {
	Type          string                   `json:"type,omitempty" yaml:"type,omitempty"`
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty" yaml:"rollingUpdate,omitempty"`
}

// RollingUpdateDeployment bounds a rolling update.
type RollingUpdateDeployment struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty" yaml:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty" yaml:"maxSurge,omitempty"`
}

// Strategy types.
const (
	RollingUpdateStrategy = "RollingUpdate"
	RecreateStrategy      = "Recreate"
)

// DeploymentStatus is what the deployment controller last observed.
type DeploymentStatus struct {
	ObservedGeneration  int64                 `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	Replicas            int32                 `json:"replicas,omitempty" yaml:"replicas,omitempty"`
	UpdatedReplicas     int32                 `json:"updatedReplicas,omitempty" yaml:"updatedReplicas,omitempty"`
	ReadyReplicas       int32                 `json:"readyReplicas,omitempty" yaml:"readyReplicas,omitempty"`
	AvailableReplicas   int32                 `json:"availableReplicas,omitempty" yaml:"availableReplicas,omitempty"`
	UnavailableReplicas int32                 `json:"unavailableReplicas,omitempty" yaml:"unavailableReplicas,omitempty"`
	Conditions          []DeploymentCondition `json:"conditions,omitempty" yaml:"conditions,omitempty"`
	CollisionCount      *int32                `json:"collisionCount,omitempty" yaml:"collisionCount,omitempty"`
}

// DeploymentCondition is one of Available, Progressing, ReplicaFailure.
type DeploymentCondition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	LastUpdateTime     Time   `json:"lastUpdateTime" yaml:"-"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"-"`
	Reason             string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string `json:"message,omitempty" yaml:"message,omitempty"`
}

// ReplicaSet keeps a number of identical pods running (apps/v1).
type ReplicaSet struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       ReplicaSetSpec   `json:"spec" yaml:"spec"`
	Status     ReplicaSetStatus `json:"status" yaml:"status,omitempty"`
}

// ReplicaSetSpec is the desired state of a ReplicaSet.
type ReplicaSetSpec struct {
	Replicas        *int32          `json:"replicas,omitempty" yaml:"replicas,omitempty"`
	MinReadySeconds int32           `json:"minReadySeconds,omitempty" yaml:"minReadySeconds,omitempty"`
	Selector        *LabelSelector  `json:"selector,omitempty" yaml:"selector,omitempty"`
	Template        PodTemplateSpec `json:"template" yaml:"template"`
}

// ReplicaSetStatus is what the replicaset controller last observed.
type ReplicaSetStatus struct {
	Replicas             int32                 `json:"replicas" yaml:"replicas"`
	FullyLabeledReplicas int32                 `json:"fullyLabeledReplicas,omitempty" yaml:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32                 `json:"readyReplicas,omitempty" yaml:"readyReplicas,omitempty"`
	AvailableReplicas    int32                 `json:"availableReplicas,omitempty" yaml:"availableReplicas,omitempty"`
	ObservedGeneration   int64                 `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	Conditions           []ReplicaSetCondition `json:"conditions,omitempty" yaml:"conditions,omitempty"`
}

// ReplicaSetCondition is ReplicaFailure when creating or deleting pods fails.
type ReplicaSetCondition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"-"`
	Reason             string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string `json:"message,omitempty" yaml:"message,omitempty"`
}

// Int32 returns a pointer to v.
func Int32(v int32) *int32 { return &v }

// Deref returns *p, or def when p is nil.
func Deref(p *int32, def int32) int32 {
	if p == nil {
		return def
	}
	return *p
}
