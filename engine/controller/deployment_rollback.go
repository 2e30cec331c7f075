package controller

import (
	"reflect"
	"sort"
	"strconv"

	"reconcile/engine/api"
)

// EqualIgnoreHash reports whether two pod templates are the same but for
// their pod-template-hash label: whether a ReplicaSet's template is a
// Deployment's.
func EqualIgnoreHash(a, b *api.PodTemplateSpec) bool {
	x, y := a.DeepCopy(), b.DeepCopy()
	delete(x.Labels, PodTemplateHashLabel)
	delete(y.Labels, PodTemplateHashLabel)
	if len(x.Labels) == 0 {
		x.Labels = nil
	}
	if len(y.Labels) == 0 {
		y.Labels = nil
	}
	x.CreationTimestamp, y.CreationTimestamp = 0, 0
	return reflect.DeepEqual(x, y)
}

// findNewReplicaSet splits the owned ReplicaSets into the one whose template
// matches the Deployment's (oldest first if several) and the rest.
func findNewReplicaSet(d *api.Deployment, all []*api.ReplicaSet) (*api.ReplicaSet, []*api.ReplicaSet) {
	sorted := append([]*api.ReplicaSet(nil), all...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].CreationTimestamp != sorted[j].CreationTimestamp {
			return sorted[i].CreationTimestamp < sorted[j].CreationTimestamp
		}
		return sorted[i].Name < sorted[j].Name
	})
	var newRS *api.ReplicaSet
	var old []*api.ReplicaSet
	for _, rs := range sorted {
		if newRS == nil && EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			newRS = rs
			continue
		}
		old = append(old, rs)
	}
	return newRS, old
}

func revision(o api.Object) int64 {
	v, _ := strconv.ParseInt(o.Meta().Annotations[RevisionAnnotation], 10, 64)
	return v
}

func maxRevision(rss []*api.ReplicaSet) int64 {
	var m int64
	for _, rs := range rss {
		m = max(m, revision(rs))
	}
	return m
}

func (c *Deployment) setRevision(d *api.Deployment, rev string) {
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[RevisionAnnotation] = rev
}
