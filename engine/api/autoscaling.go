package api

// HorizontalPodAutoscaler sets the replicas of a workload from a metric
// (autoscaling/v2). The simulation measures CPU only, from the signal a
// scenario or a fault sets (the cpu fault).
type HorizontalPodAutoscaler struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       HPASpec   `json:"spec" yaml:"spec"`
	Status     HPAStatus `json:"status" yaml:"status,omitempty"`
}

// HPASpec is what the autoscaler scales, between which bounds, on what.
type HPASpec struct {
	ScaleTargetRef CrossVersionObjectReference `json:"scaleTargetRef" yaml:"scaleTargetRef"`
	MinReplicas    *int32                      `json:"minReplicas,omitempty" yaml:"minReplicas,omitempty"`
	MaxReplicas    int32                       `json:"maxReplicas" yaml:"maxReplicas"`
	Metrics        []MetricSpec                `json:"metrics,omitempty" yaml:"metrics,omitempty"`
	Behavior       *HPABehavior                `json:"behavior,omitempty" yaml:"behavior,omitempty"`
}

// CrossVersionObjectReference names the scaled workload.
type CrossVersionObjectReference struct {
	Kind       string `json:"kind" yaml:"kind"`
	Name       string `json:"name" yaml:"name"`
	APIVersion string `json:"apiVersion,omitempty" yaml:"apiVersion,omitempty"`
}

// MetricSpec is one metric to scale on. Only type Resource is simulated.
type MetricSpec struct {
	Type     string                `json:"type" yaml:"type"`
	Resource *ResourceMetricSource `json:"resource,omitempty" yaml:"resource,omitempty"`
	Pods     map[string]any        `json:"pods,omitempty" yaml:"pods,omitempty"`
	Object   map[string]any        `json:"object,omitempty" yaml:"object,omitempty"`
	External map[string]any        `json:"external,omitempty" yaml:"external,omitempty"`
}

// ResourceMetricSource is a resource of the pods (cpu, memory) and its
// target.
type ResourceMetricSource struct {
	Name   string       `json:"name" yaml:"name"`
	Target MetricTarget `json:"target" yaml:"target"`
}

// MetricTarget is the target value: Utilization (percent of request),
// AverageValue or Value.
type MetricTarget struct {
	Type               string    `json:"type" yaml:"type"`
	AverageUtilization *int32    `json:"averageUtilization,omitempty" yaml:"averageUtilization,omitempty"`
	AverageValue       *Quantity `json:"averageValue,omitempty" yaml:"averageValue,omitempty"`
	Value              *Quantity `json:"value,omitempty" yaml:"value,omitempty"`
}

// HPABehavior tunes scaling up and down.
type HPABehavior struct {
	ScaleUp   *HPAScalingRules `json:"scaleUp,omitempty" yaml:"scaleUp,omitempty"`
	ScaleDown *HPAScalingRules `json:"scaleDown,omitempty" yaml:"scaleDown,omitempty"`
}

// HPAScalingRules are a stabilization window and rate policies.
type HPAScalingRules struct {
	StabilizationWindowSeconds *int32             `json:"stabilizationWindowSeconds,omitempty" yaml:"stabilizationWindowSeconds,omitempty"`
	SelectPolicy               *string            `json:"selectPolicy,omitempty" yaml:"selectPolicy,omitempty"`
	Policies                   []HPAScalingPolicy `json:"policies,omitempty" yaml:"policies,omitempty"`
}

// HPAScalingPolicy allows a change of Value pods (type Pods) or Value
// percent (type Percent) per PeriodSeconds.
type HPAScalingPolicy struct {
	Type          string `json:"type" yaml:"type"`
	Value         int32  `json:"value" yaml:"value"`
	PeriodSeconds int32  `json:"periodSeconds" yaml:"periodSeconds"`
}

// HPAStatus is what the autoscaler last saw and did.
type HPAStatus struct {
	ObservedGeneration *int64         `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	LastScaleTime      *Time          `json:"lastScaleTime,omitempty" yaml:"-"`
	CurrentReplicas    int32          `json:"currentReplicas" yaml:"currentReplicas"`
	DesiredReplicas    int32          `json:"desiredReplicas" yaml:"desiredReplicas"`
	CurrentMetrics     []MetricStatus `json:"currentMetrics,omitempty" yaml:"currentMetrics,omitempty"`
	Conditions         []HPACondition `json:"conditions,omitempty" yaml:"conditions,omitempty"`
}

// MetricStatus is the last reading of one metric.
type MetricStatus struct {
	Type     string                `json:"type" yaml:"type"`
	Resource *ResourceMetricStatus `json:"resource,omitempty" yaml:"resource,omitempty"`
}

// ResourceMetricStatus is a resource's current utilization and value.
type ResourceMetricStatus struct {
	Name    string            `json:"name" yaml:"name"`
	Current MetricValueStatus `json:"current" yaml:"current"`
}

// MetricValueStatus is a current reading.
type MetricValueStatus struct {
	AverageUtilization *int32    `json:"averageUtilization,omitempty" yaml:"averageUtilization,omitempty"`
	AverageValue       *Quantity `json:"averageValue,omitempty" yaml:"averageValue,omitempty"`
}

// HPACondition is AbleToScale, ScalingActive or ScalingLimited.
type HPACondition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"-"`
	Reason             string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string `json:"message,omitempty" yaml:"message,omitempty"`
}

// DeepCopy returns an independent copy of h.
func (h *HorizontalPodAutoscaler) DeepCopy() *HorizontalPodAutoscaler {
	out := *h
	out.ObjectMeta = h.ObjectMeta.DeepCopy()
	out.Spec.MinReplicas = copyInt32(h.Spec.MinReplicas)
	if h.Spec.Metrics != nil {
		out.Spec.Metrics = make([]MetricSpec, len(h.Spec.Metrics))
		for i, m := range h.Spec.Metrics {
			if m.Resource != nil {
				r := *m.Resource
				r.Target.AverageUtilization = copyInt32(r.Target.AverageUtilization)
				r.Target.AverageValue = copyQuantity(r.Target.AverageValue)
				r.Target.Value = copyQuantity(r.Target.Value)
				m.Resource = &r
			}
			m.Pods, m.Object, m.External = deepCopyMap(m.Pods), deepCopyMap(m.Object), deepCopyMap(m.External)
			out.Spec.Metrics[i] = m
		}
	}
	if b := h.Spec.Behavior; b != nil {
		out.Spec.Behavior = &HPABehavior{ScaleUp: b.ScaleUp.deepCopy(), ScaleDown: b.ScaleDown.deepCopy()}
	}
	if h.Status.ObservedGeneration != nil {
		v := *h.Status.ObservedGeneration
		out.Status.ObservedGeneration = &v
	}
	if h.Status.LastScaleTime != nil {
		v := *h.Status.LastScaleTime
		out.Status.LastScaleTime = &v
	}
	if h.Status.CurrentMetrics != nil {
		out.Status.CurrentMetrics = make([]MetricStatus, len(h.Status.CurrentMetrics))
		for i, m := range h.Status.CurrentMetrics {
			if m.Resource != nil {
				r := *m.Resource
				r.Current.AverageUtilization = copyInt32(r.Current.AverageUtilization)
				r.Current.AverageValue = copyQuantity(r.Current.AverageValue)
				m.Resource = &r
			}
			out.Status.CurrentMetrics[i] = m
		}
	}
	out.Status.Conditions = append([]HPACondition(nil), h.Status.Conditions...)
	return &out
}

func (r *HPAScalingRules) deepCopy() *HPAScalingRules {
	if r == nil {
		return nil
	}
	out := *r
	out.StabilizationWindowSeconds = copyInt32(r.StabilizationWindowSeconds)
	if r.SelectPolicy != nil {
		v := *r.SelectPolicy
		out.SelectPolicy = &v
	}
	out.Policies = append([]HPAScalingPolicy(nil), r.Policies...)
	return &out
}

func copyQuantity(q *Quantity) *Quantity {
	if q == nil {
		return nil
	}
	v := *q
	return &v
}

func (h *HorizontalPodAutoscaler) Meta() *ObjectMeta      { return &h.ObjectMeta }
func (h *HorizontalPodAutoscaler) GetTypeMeta() *TypeMeta { return &h.TypeMeta }
func (h *HorizontalPodAutoscaler) DeepCopyObject() Object { return h.DeepCopy() }
