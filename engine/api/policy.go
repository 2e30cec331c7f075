package api

import "maps"

// PodDisruptionBudget bounds the voluntary disruption of the pods its
// selector matches (policy/v1): the Eviction API refuses to evict one of
// them when that would leave fewer healthy than the budget wants, and the
// disruption controller keeps its status.
type PodDisruptionBudget struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       PodDisruptionBudgetSpec   `json:"spec" yaml:"spec"`
	Status     PodDisruptionBudgetStatus `json:"status" yaml:"status,omitempty"`
}

// PodDisruptionBudgetSpec says which pods the budget guards and how many of
// them must stay available (minAvailable) or may be unavailable
// (maxUnavailable), each a number or a percentage; one of the two at most.
type PodDisruptionBudgetSpec struct {
	MinAvailable               *IntOrString   `json:"minAvailable,omitempty" yaml:"minAvailable,omitempty"`
	Selector                   *LabelSelector `json:"selector,omitempty" yaml:"selector,omitempty"`
	MaxUnavailable             *IntOrString   `json:"maxUnavailable,omitempty" yaml:"maxUnavailable,omitempty"`
	UnhealthyPodEvictionPolicy *string        `json:"unhealthyPodEvictionPolicy,omitempty" yaml:"unhealthyPodEvictionPolicy,omitempty"`
}

// The unhealthy pod eviction policies: whether a running pod that is not
// Ready may be evicted only while the budget is met (IfHealthyBudget, the
// behaviour when unset) or always (AlwaysAllow).
const (
	IfHealthyBudget = "IfHealthyBudget"
	AlwaysAllow     = "AlwaysAllow"
)

// PodDisruptionBudgetStatus is what the disruption controller last
// computed: the healthy pods it counts and wants, the pods it expects,
// how many more may be disrupted, and the pods the Eviction API has
// evicted that it has not yet seen go (disruptedPods, pod name → when).
type PodDisruptionBudgetStatus struct {
	ObservedGeneration int64           `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	DisruptedPods      map[string]Time `json:"disruptedPods,omitempty" yaml:"-"`
	DisruptionsAllowed int32           `json:"disruptionsAllowed" yaml:"disruptionsAllowed"`
	CurrentHealthy     int32           `json:"currentHealthy" yaml:"currentHealthy"`
	DesiredHealthy     int32           `json:"desiredHealthy" yaml:"desiredHealthy"`
	ExpectedPods       int32           `json:"expectedPods" yaml:"expectedPods"`
	Conditions         []Condition     `json:"conditions,omitempty" yaml:"conditions,omitempty"`
}

// Condition is a metav1.Condition, as a PodDisruptionBudget's
// DisruptionAllowed.
type Condition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"-"`
	Reason             string `json:"reason" yaml:"reason"`
	Message            string `json:"message" yaml:"message"`
}

// The DisruptionAllowed condition of a PodDisruptionBudget and its reasons.
const (
	DisruptionAllowedCondition = "DisruptionAllowed"
	SyncFailedReason           = "SyncFailed"
	SufficientPodsReason       = "SufficientPods"
	InsufficientPodsReason     = "InsufficientPods"
)

// DeepCopy returns an independent copy of b.
func (b *PodDisruptionBudget) DeepCopy() *PodDisruptionBudget {
	out := *b
	out.ObjectMeta = b.ObjectMeta.DeepCopy()
	out.Spec.MinAvailable = copyIntOrString(b.Spec.MinAvailable)
	out.Spec.MaxUnavailable = copyIntOrString(b.Spec.MaxUnavailable)
	out.Spec.Selector = b.Spec.Selector.DeepCopy()
	if p := b.Spec.UnhealthyPodEvictionPolicy; p != nil {
		v := *p
		out.Spec.UnhealthyPodEvictionPolicy = &v
	}
	out.Status.DisruptedPods = maps.Clone(b.Status.DisruptedPods)
	out.Status.Conditions = append([]Condition(nil), b.Status.Conditions...)
	return &out
}

func (b *PodDisruptionBudget) Meta() *ObjectMeta      { return &b.ObjectMeta }
func (b *PodDisruptionBudget) GetTypeMeta() *TypeMeta { return &b.TypeMeta }
func (b *PodDisruptionBudget) DeepCopyObject() Object { return b.DeepCopy() }

// FindCondition returns the condition of type t, nil if there is none.
func FindCondition(cs []Condition, t string) *Condition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}

// SetCondition sets c in cs as apimachinery's SetStatusCondition does: a
// new condition, or one whose status changes, gets now as its
// lastTransitionTime; otherwise the time is kept and reason, message and
// observedGeneration are updated.
func SetCondition(cs *[]Condition, c Condition, now Time) {
	if old := FindCondition(*cs, c.Type); old != nil {
		if old.Status != c.Status {
			old.Status = c.Status
			old.LastTransitionTime = now
		}
		old.Reason, old.Message, old.ObservedGeneration = c.Reason, c.Message, c.ObservedGeneration
		return
	}
	c.LastTransitionTime = now
	*cs = append(*cs, c)
}
