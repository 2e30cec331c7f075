package api

// The workloads beside Deployments and Jobs: DaemonSets, StatefulSets and
// CronJobs, and the storage a StatefulSet claims (PersistentVolumeClaims
// and the PersistentVolumes bound to them).

// DaemonSet runs one pod on every eligible node (apps/v1).
type DaemonSet struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       DaemonSetSpec   `json:"spec" yaml:"spec"`
	Status     DaemonSetStatus `json:"status" yaml:"status,omitempty"`
}

// DaemonSetSpec is the desired state of a DaemonSet.
type DaemonSetSpec struct {
	Selector             *LabelSelector          `json:"selector,omitempty" yaml:"selector,omitempty"`
	Template             PodTemplateSpec         `json:"template" yaml:"template"`
	UpdateStrategy       DaemonSetUpdateStrategy `json:"updateStrategy,omitempty" yaml:"updateStrategy,omitempty"`
	MinReadySeconds      int32                   `json:"minReadySeconds,omitempty" yaml:"minReadySeconds,omitempty"`
	RevisionHistoryLimit *int32                  `json:"revisionHistoryLimit,omitempty" yaml:"revisionHistoryLimit,omitempty"`
}

// DaemonSetUpdateStrategy is RollingUpdate or OnDelete.
type DaemonSetUpdateStrategy struct {
	Type          string                  `json:"type,omitempty" yaml:"type,omitempty"`
	RollingUpdate *RollingUpdateDaemonSet `json:"rollingUpdate,omitempty" yaml:"rollingUpdate,omitempty"`
}

// RollingUpdateDaemonSet bounds a DaemonSet's rolling update.
type RollingUpdateDaemonSet struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty" yaml:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty" yaml:"maxSurge,omitempty"`
}

// OnDeleteStrategy replaces a DaemonSet's or StatefulSet's pods only when
// someone deletes them.
const OnDeleteStrategy = "OnDelete"

// DaemonSetStatus is what the daemonset controller last observed.
type DaemonSetStatus struct {
	CurrentNumberScheduled int32  `json:"currentNumberScheduled" yaml:"currentNumberScheduled"`
	NumberMisscheduled     int32  `json:"numberMisscheduled" yaml:"numberMisscheduled"`
	DesiredNumberScheduled int32  `json:"desiredNumberScheduled" yaml:"desiredNumberScheduled"`
	NumberReady            int32  `json:"numberReady" yaml:"numberReady"`
	ObservedGeneration     int64  `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	UpdatedNumberScheduled int32  `json:"updatedNumberScheduled,omitempty" yaml:"updatedNumberScheduled,omitempty"`
	NumberAvailable        int32  `json:"numberAvailable,omitempty" yaml:"numberAvailable,omitempty"`
	NumberUnavailable      int32  `json:"numberUnavailable,omitempty" yaml:"numberUnavailable,omitempty"`
	CollisionCount         *int32 `json:"collisionCount,omitempty" yaml:"collisionCount,omitempty"`
}

// StatefulSet runs pods with stable names and storage (apps/v1).
type StatefulSet struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       StatefulSetSpec   `json:"spec" yaml:"spec"`
	Status     StatefulSetStatus `json:"status" yaml:"status,omitempty"`
}

// StatefulSetSpec is the desired state of a StatefulSet.
type StatefulSetSpec struct {
	Replicas                             *int32                                           `json:"replicas,omitempty" yaml:"replicas,omitempty"`
	Selector                             *LabelSelector                                   `json:"selector,omitempty" yaml:"selector,omitempty"`
	Template                             PodTemplateSpec                                  `json:"template" yaml:"template"`
	VolumeClaimTemplates                 []PersistentVolumeClaim                          `json:"volumeClaimTemplates,omitempty" yaml:"volumeClaimTemplates,omitempty"`
	ServiceName                          string                                           `json:"serviceName,omitempty" yaml:"serviceName,omitempty"`
	PodManagementPolicy                  string                                           `json:"podManagementPolicy,omitempty" yaml:"podManagementPolicy,omitempty"`
	UpdateStrategy                       StatefulSetUpdateStrategy                        `json:"updateStrategy,omitempty" yaml:"updateStrategy,omitempty"`
	RevisionHistoryLimit                 *int32                                           `json:"revisionHistoryLimit,omitempty" yaml:"revisionHistoryLimit,omitempty"`
	MinReadySeconds                      int32                                            `json:"minReadySeconds,omitempty" yaml:"minReadySeconds,omitempty"`
	PersistentVolumeClaimRetentionPolicy *StatefulSetPersistentVolumeClaimRetentionPolicy `json:"persistentVolumeClaimRetentionPolicy,omitempty" yaml:"persistentVolumeClaimRetentionPolicy,omitempty"`
	Ordinals                             *StatefulSetOrdinals                             `json:"ordinals,omitempty" yaml:"ordinals,omitempty"`
}

// Pod management policies.
const (
	OrderedReadyPodManagement = "OrderedReady"
	ParallelPodManagement     = "Parallel"
)

// StatefulSetUpdateStrategy is RollingUpdate (with a partition) or OnDelete.
type StatefulSetUpdateStrategy struct {
	Type          string                            `json:"type,omitempty" yaml:"type,omitempty"`
	RollingUpdate *RollingUpdateStatefulSetStrategy `json:"rollingUpdate,omitempty" yaml:"rollingUpdate,omitempty"`
}

// RollingUpdateStatefulSetStrategy: ordinals below Partition keep the old
// template.
type RollingUpdateStatefulSetStrategy struct {
	Partition      *int32       `json:"partition,omitempty" yaml:"partition,omitempty"`
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty" yaml:"maxUnavailable,omitempty"`
}

// StatefulSetPersistentVolumeClaimRetentionPolicy says what happens to the
// claims when the StatefulSet is deleted or scaled down: Retain or Delete.
type StatefulSetPersistentVolumeClaimRetentionPolicy struct {
	WhenDeleted string `json:"whenDeleted,omitempty" yaml:"whenDeleted,omitempty"`
	WhenScaled  string `json:"whenScaled,omitempty" yaml:"whenScaled,omitempty"`
}

// StatefulSetOrdinals moves the first ordinal.
type StatefulSetOrdinals struct {
	Start int32 `json:"start,omitempty" yaml:"start,omitempty"`
}

// StatefulSetStatus is what the statefulset controller last observed.
type StatefulSetStatus struct {
	ObservedGeneration int64  `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	Replicas           int32  `json:"replicas" yaml:"replicas"`
	ReadyReplicas      int32  `json:"readyReplicas,omitempty" yaml:"readyReplicas,omitempty"`
	CurrentReplicas    int32  `json:"currentReplicas,omitempty" yaml:"currentReplicas,omitempty"`
	UpdatedReplicas    int32  `json:"updatedReplicas,omitempty" yaml:"updatedReplicas,omitempty"`
	CurrentRevision    string `json:"currentRevision,omitempty" yaml:"currentRevision,omitempty"`
	UpdateRevision     string `json:"updateRevision,omitempty" yaml:"updateRevision,omitempty"`
	CollisionCount     *int32 `json:"collisionCount,omitempty" yaml:"collisionCount,omitempty"`
	AvailableReplicas  int32  `json:"availableReplicas" yaml:"availableReplicas"`
}

// PersistentVolumeClaim asks for storage (core/v1).
type PersistentVolumeClaim struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       PersistentVolumeClaimSpec   `json:"spec" yaml:"spec"`
	Status     PersistentVolumeClaimStatus `json:"status,omitempty" yaml:"status,omitempty"`
}

// PersistentVolumeClaimSpec is the storage a claim asks for.
type PersistentVolumeClaimSpec struct {
	AccessModes               []string                   `json:"accessModes,omitempty" yaml:"accessModes,omitempty"`
	Selector                  *LabelSelector             `json:"selector,omitempty" yaml:"selector,omitempty"`
	Resources                 VolumeResourceRequirements `json:"resources,omitempty" yaml:"resources,omitempty"`
	VolumeName                string                     `json:"volumeName,omitempty" yaml:"volumeName,omitempty"`
	StorageClassName          *string                    `json:"storageClassName,omitempty" yaml:"storageClassName,omitempty"`
	VolumeMode                *string                    `json:"volumeMode,omitempty" yaml:"volumeMode,omitempty"`
	VolumeAttributesClassName *string                    `json:"volumeAttributesClassName,omitempty" yaml:"volumeAttributesClassName,omitempty"`
}

// VolumeResourceRequirements is how much storage a claim asks for.
type VolumeResourceRequirements struct {
	Requests map[string]Quantity `json:"requests,omitempty" yaml:"requests,omitempty"`
	Limits   map[string]Quantity `json:"limits,omitempty" yaml:"limits,omitempty"`
}

// PersistentVolumeClaimStatus: Pending until a volume is bound, then Bound.
type PersistentVolumeClaimStatus struct {
	Phase       string              `json:"phase,omitempty" yaml:"phase,omitempty"`
	AccessModes []string            `json:"accessModes,omitempty" yaml:"accessModes,omitempty"`
	Capacity    map[string]Quantity `json:"capacity,omitempty" yaml:"capacity,omitempty"`
}

// Claim and volume phases.
const (
	ClaimPending    = "Pending"
	ClaimBound      = "Bound"
	VolumeAvailable = "Available"
	VolumeBound     = "Bound"
	VolumeReleased  = "Released"
)

// PersistentVolume is a piece of storage in the cluster (core/v1).
type PersistentVolume struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       PersistentVolumeSpec   `json:"spec" yaml:"spec"`
	Status     PersistentVolumeStatus `json:"status,omitempty" yaml:"status,omitempty"`
}

// PersistentVolumeSpec describes a volume. Where its bytes live (hostPath,
// csi, local, nfs) is kept as written: no bytes are simulated.
type PersistentVolumeSpec struct {
	Capacity                      map[string]Quantity `json:"capacity,omitempty" yaml:"capacity,omitempty"`
	AccessModes                   []string            `json:"accessModes,omitempty" yaml:"accessModes,omitempty"`
	ClaimRef                      *ObjectReference    `json:"claimRef,omitempty" yaml:"claimRef,omitempty"`
	PersistentVolumeReclaimPolicy string              `json:"persistentVolumeReclaimPolicy,omitempty" yaml:"persistentVolumeReclaimPolicy,omitempty"`
	StorageClassName              string              `json:"storageClassName,omitempty" yaml:"storageClassName,omitempty"`
	VolumeMode                    *string             `json:"volumeMode,omitempty" yaml:"volumeMode,omitempty"`
	VolumeAttributesClassName     *string             `json:"volumeAttributesClassName,omitempty" yaml:"volumeAttributesClassName,omitempty"`
	HostPath                      map[string]any      `json:"hostPath,omitempty" yaml:"hostPath,omitempty"`
	CSI                           map[string]any      `json:"csi,omitempty" yaml:"csi,omitempty"`
	Local                         map[string]any      `json:"local,omitempty" yaml:"local,omitempty"`
	NFS                           map[string]any      `json:"nfs,omitempty" yaml:"nfs,omitempty"`
	NodeAffinity                  map[string]any      `json:"nodeAffinity,omitempty" yaml:"nodeAffinity,omitempty"`
}

// PersistentVolumeStatus is Available, Bound or Released.
type PersistentVolumeStatus struct {
	Phase   string `json:"phase,omitempty" yaml:"phase,omitempty"`
	Reason  string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message string `json:"message,omitempty" yaml:"message,omitempty"`
}

// CronJob creates Jobs on a schedule (batch/v1).
type CronJob struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       CronJobSpec   `json:"spec" yaml:"spec"`
	Status     CronJobStatus `json:"status,omitempty" yaml:"status,omitempty"`
}

// CronJobSpec is the desired state of a CronJob.
type CronJobSpec struct {
	Schedule                   string          `json:"schedule" yaml:"schedule"`
	TimeZone                   *string         `json:"timeZone,omitempty" yaml:"timeZone,omitempty"`
	StartingDeadlineSeconds    *int64          `json:"startingDeadlineSeconds,omitempty" yaml:"startingDeadlineSeconds,omitempty"`
	ConcurrencyPolicy          string          `json:"concurrencyPolicy,omitempty" yaml:"concurrencyPolicy,omitempty"`
	Suspend                    *bool           `json:"suspend,omitempty" yaml:"suspend,omitempty"`
	JobTemplate                JobTemplateSpec `json:"jobTemplate" yaml:"jobTemplate"`
	SuccessfulJobsHistoryLimit *int32          `json:"successfulJobsHistoryLimit,omitempty" yaml:"successfulJobsHistoryLimit,omitempty"`
	FailedJobsHistoryLimit     *int32          `json:"failedJobsHistoryLimit,omitempty" yaml:"failedJobsHistoryLimit,omitempty"`
}

// Concurrency policies.
const (
	AllowConcurrent   = "Allow"
	ForbidConcurrent  = "Forbid"
	ReplaceConcurrent = "Replace"
)

// JobTemplateSpec is the Job a CronJob creates.
type JobTemplateSpec struct {
	ObjectMeta `json:"metadata,omitempty" yaml:"metadata,omitempty"`
	Spec       JobSpec `json:"spec" yaml:"spec"`
}

// CronJobStatus is what the cronjob controller last observed.
type CronJobStatus struct {
	Active             []ObjectReference `json:"active,omitempty" yaml:"active,omitempty"`
	LastScheduleTime   *Time             `json:"lastScheduleTime,omitempty" yaml:"-"`
	LastSuccessfulTime *Time             `json:"lastSuccessfulTime,omitempty" yaml:"-"`
}

// Bool returns a pointer to v.
func Bool(v bool) *bool { return &v }

// String returns a pointer to v.
func String(v string) *string { return &v }

func (d *DaemonSet) Meta() *ObjectMeta             { return &d.ObjectMeta }
func (s *StatefulSet) Meta() *ObjectMeta           { return &s.ObjectMeta }
func (c *CronJob) Meta() *ObjectMeta               { return &c.ObjectMeta }
func (c *PersistentVolumeClaim) Meta() *ObjectMeta { return &c.ObjectMeta }
func (v *PersistentVolume) Meta() *ObjectMeta      { return &v.ObjectMeta }

func (d *DaemonSet) GetTypeMeta() *TypeMeta             { return &d.TypeMeta }
func (s *StatefulSet) GetTypeMeta() *TypeMeta           { return &s.TypeMeta }
func (c *CronJob) GetTypeMeta() *TypeMeta               { return &c.TypeMeta }
func (c *PersistentVolumeClaim) GetTypeMeta() *TypeMeta { return &c.TypeMeta }
func (v *PersistentVolume) GetTypeMeta() *TypeMeta      { return &v.TypeMeta }

func (d *DaemonSet) DeepCopyObject() Object             { return d.DeepCopy() }
func (s *StatefulSet) DeepCopyObject() Object           { return s.DeepCopy() }
func (c *CronJob) DeepCopyObject() Object               { return c.DeepCopy() }
func (c *PersistentVolumeClaim) DeepCopyObject() Object { return c.DeepCopy() }
func (v *PersistentVolume) DeepCopyObject() Object      { return v.DeepCopy() }

// DeepCopy returns an independent copy of d.
func (d *DaemonSet) DeepCopy() *DaemonSet {
	out := *d
	out.ObjectMeta = d.ObjectMeta.DeepCopy()
	out.Spec.Selector = d.Spec.Selector.DeepCopy()
	out.Spec.Template = d.Spec.Template.DeepCopy()
	out.Spec.RevisionHistoryLimit = copyInt32(d.Spec.RevisionHistoryLimit)
	if ru := d.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		out.Spec.UpdateStrategy.RollingUpdate = &RollingUpdateDaemonSet{MaxUnavailable: copyIntOrString(ru.MaxUnavailable), MaxSurge: copyIntOrString(ru.MaxSurge)}
	}
	out.Status.CollisionCount = copyInt32(d.Status.CollisionCount)
	return &out
}

// DeepCopy returns an independent copy of s.
func (s *StatefulSet) DeepCopy() *StatefulSet {
	out := *s
	out.ObjectMeta = s.ObjectMeta.DeepCopy()
	out.Spec.Replicas = copyInt32(s.Spec.Replicas)
	out.Spec.Selector = s.Spec.Selector.DeepCopy()
	out.Spec.Template = s.Spec.Template.DeepCopy()
	if s.Spec.VolumeClaimTemplates != nil {
		out.Spec.VolumeClaimTemplates = make([]PersistentVolumeClaim, len(s.Spec.VolumeClaimTemplates))
		for i := range s.Spec.VolumeClaimTemplates {
			out.Spec.VolumeClaimTemplates[i] = *s.Spec.VolumeClaimTemplates[i].DeepCopy()
		}
	}
	if ru := s.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		out.Spec.UpdateStrategy.RollingUpdate = &RollingUpdateStatefulSetStrategy{Partition: copyInt32(ru.Partition), MaxUnavailable: copyIntOrString(ru.MaxUnavailable)}
	}
	out.Spec.RevisionHistoryLimit = copyInt32(s.Spec.RevisionHistoryLimit)
	if p := s.Spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		v := *p
		out.Spec.PersistentVolumeClaimRetentionPolicy = &v
	}
	if o := s.Spec.Ordinals; o != nil {
		v := *o
		out.Spec.Ordinals = &v
	}
	out.Status.CollisionCount = copyInt32(s.Status.CollisionCount)
	return &out
}

func copyString(p *string) *string {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// DeepCopy returns an independent copy of c.
func (c *PersistentVolumeClaim) DeepCopy() *PersistentVolumeClaim {
	out := *c
	out.ObjectMeta = c.ObjectMeta.DeepCopy()
	out.Spec.AccessModes = append([]string(nil), c.Spec.AccessModes...)
	out.Spec.Selector = c.Spec.Selector.DeepCopy()
	out.Spec.Resources = VolumeResourceRequirements{Requests: cloneQuantities(c.Spec.Resources.Requests), Limits: cloneQuantities(c.Spec.Resources.Limits)}
	out.Spec.StorageClassName = copyString(c.Spec.StorageClassName)
	out.Spec.VolumeMode = copyString(c.Spec.VolumeMode)
	out.Spec.VolumeAttributesClassName = copyString(c.Spec.VolumeAttributesClassName)
	out.Status.AccessModes = append([]string(nil), c.Status.AccessModes...)
	out.Status.Capacity = cloneQuantities(c.Status.Capacity)
	return &out
}

// DeepCopy returns an independent copy of v.
func (v *PersistentVolume) DeepCopy() *PersistentVolume {
	out := *v
	out.ObjectMeta = v.ObjectMeta.DeepCopy()
	out.Spec.Capacity = cloneQuantities(v.Spec.Capacity)
	out.Spec.AccessModes = append([]string(nil), v.Spec.AccessModes...)
	if v.Spec.ClaimRef != nil {
		r := *v.Spec.ClaimRef
		out.Spec.ClaimRef = &r
	}
	out.Spec.VolumeMode = copyString(v.Spec.VolumeMode)
	out.Spec.VolumeAttributesClassName = copyString(v.Spec.VolumeAttributesClassName)
	out.Spec.HostPath = deepCopyMap(v.Spec.HostPath)
	out.Spec.CSI = deepCopyMap(v.Spec.CSI)
	out.Spec.Local = deepCopyMap(v.Spec.Local)
	out.Spec.NFS = deepCopyMap(v.Spec.NFS)
	out.Spec.NodeAffinity = deepCopyMap(v.Spec.NodeAffinity)
	return &out
}

// DeepCopy returns an independent copy of c.
func (c *CronJob) DeepCopy() *CronJob {
	out := *c
	out.ObjectMeta = c.ObjectMeta.DeepCopy()
	out.Spec.TimeZone = copyString(c.Spec.TimeZone)
	if c.Spec.StartingDeadlineSeconds != nil {
		v := *c.Spec.StartingDeadlineSeconds
		out.Spec.StartingDeadlineSeconds = &v
	}
	if c.Spec.Suspend != nil {
		v := *c.Spec.Suspend
		out.Spec.Suspend = &v
	}
	out.Spec.JobTemplate = c.Spec.JobTemplate.DeepCopy()
	out.Spec.SuccessfulJobsHistoryLimit = copyInt32(c.Spec.SuccessfulJobsHistoryLimit)
	out.Spec.FailedJobsHistoryLimit = copyInt32(c.Spec.FailedJobsHistoryLimit)
	out.Status.Active = append([]ObjectReference(nil), c.Status.Active...)
	if t := c.Status.LastScheduleTime; t != nil {
		v := *t
		out.Status.LastScheduleTime = &v
	}
	if t := c.Status.LastSuccessfulTime; t != nil {
		v := *t
		out.Status.LastSuccessfulTime = &v
	}
	return &out
}

// DeepCopy returns an independent copy of t.
func (t JobTemplateSpec) DeepCopy() JobTemplateSpec {
	j := (&Job{Spec: t.Spec}).DeepCopy()
	return JobTemplateSpec{ObjectMeta: t.ObjectMeta.DeepCopy(), Spec: j.Spec}
}

// Labels of a workload's pods.
const (
	// ControllerRevisionHashLabel names the revision of the template a
	// DaemonSet's or StatefulSet's pod was made from.
	ControllerRevisionHashLabel = "controller-revision-hash"
	// StatefulSetPodNameLabel carries a StatefulSet pod's own name.
	StatefulSetPodNameLabel = "statefulset.kubernetes.io/pod-name"
	// PodIndexLabel carries a StatefulSet pod's ordinal.
	PodIndexLabel = "apps.kubernetes.io/pod-index"
)
