package api

// Namespace is a scope for names (core/v1). Deleting one sets its phase
// to Terminating; the namespace controller deletes what it holds, then
// removes its "kubernetes" finalizer, and the API server removes it.
type Namespace struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       NamespaceSpec   `json:"spec" yaml:"spec,omitempty"`
	Status     NamespaceStatus `json:"status" yaml:"status,omitempty"`
}

// NamespaceSpec holds the finalizers that must finish before the namespace
// goes.
type NamespaceSpec struct {
	Finalizers []string `json:"finalizers,omitempty" yaml:"finalizers,omitempty"`
}

// Namespace phases.
const (
	NamespaceActive      = "Active"
	NamespaceTerminating = "Terminating"
)

// NamespaceFinalizer is the finalizer the namespace controller removes once
// the namespace is empty.
const NamespaceFinalizer = "kubernetes"

// NamespaceStatus is the namespace's phase and, while it terminates, the
// namespace controller's conditions.
type NamespaceStatus struct {
	Phase      string               `json:"phase,omitempty" yaml:"phase,omitempty"`
	Conditions []NamespaceCondition `json:"conditions,omitempty" yaml:"conditions,omitempty"`
}

// NamespaceCondition is one of the namespace controller's deletion
// conditions (NamespaceContentRemaining, ...).
type NamespaceCondition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"-"`
	Reason             string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string `json:"message,omitempty" yaml:"message,omitempty"`
}

// DeepCopy returns an independent copy of n.
func (n *Namespace) DeepCopy() *Namespace {
	out := *n
	out.ObjectMeta = n.ObjectMeta.DeepCopy()
	out.Spec.Finalizers = append([]string(nil), n.Spec.Finalizers...)
	out.Status.Conditions = append([]NamespaceCondition(nil), n.Status.Conditions...)
	return &out
}

func (n *Namespace) Meta() *ObjectMeta      { return &n.ObjectMeta }
func (n *Namespace) GetTypeMeta() *TypeMeta { return &n.TypeMeta }
func (n *Namespace) DeepCopyObject() Object { return n.DeepCopy() }

// LimitRange sets per-container (or per-pod) defaults and bounds on
// resources in its namespace (core/v1). The LimitRanger admission plugin
// applies it to pods when they are created.
type LimitRange struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       LimitRangeSpec `json:"spec" yaml:"spec"`
}

// LimitRangeSpec lists the limits.
type LimitRangeSpec struct {
	Limits []LimitRangeItem `json:"limits" yaml:"limits"`
}

// LimitRangeItem bounds one type of object: "Container" or "Pod" (the
// types PersistentVolumeClaim and others are stored, not enforced).
type LimitRangeItem struct {
	Type                 string              `json:"type" yaml:"type"`
	Max                  map[string]Quantity `json:"max,omitempty" yaml:"max,omitempty"`
	Min                  map[string]Quantity `json:"min,omitempty" yaml:"min,omitempty"`
	Default              map[string]Quantity `json:"default,omitempty" yaml:"default,omitempty"`
	DefaultRequest       map[string]Quantity `json:"defaultRequest,omitempty" yaml:"defaultRequest,omitempty"`
	MaxLimitRequestRatio map[string]Quantity `json:"maxLimitRequestRatio,omitempty" yaml:"maxLimitRequestRatio,omitempty"`
}

// DeepCopy returns an independent copy of l.
func (l *LimitRange) DeepCopy() *LimitRange {
	out := *l
	out.ObjectMeta = l.ObjectMeta.DeepCopy()
	if l.Spec.Limits != nil {
		out.Spec.Limits = make([]LimitRangeItem, len(l.Spec.Limits))
		for i, it := range l.Spec.Limits {
			it.Max, it.Min = cloneQuantities(it.Max), cloneQuantities(it.Min)
			it.Default, it.DefaultRequest = cloneQuantities(it.Default), cloneQuantities(it.DefaultRequest)
			it.MaxLimitRequestRatio = cloneQuantities(it.MaxLimitRequestRatio)
			out.Spec.Limits[i] = it
		}
	}
	return &out
}

func (l *LimitRange) Meta() *ObjectMeta      { return &l.ObjectMeta }
func (l *LimitRange) GetTypeMeta() *TypeMeta { return &l.TypeMeta }
func (l *LimitRange) DeepCopyObject() Object { return l.DeepCopy() }
