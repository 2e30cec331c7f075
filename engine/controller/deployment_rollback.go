package controller

import (
	"sort"
	"strconv"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
)

// EqualIgnoreHash reports whether two pod templates are the same but for
// their pod-template-hash label: whether a ReplicaSet's template is a
// Deployment's (kubectl describe reads it too: see kinds.EqualIgnoreHash).
func EqualIgnoreHash(a, b *api.PodTemplateSpec) bool { return kinds.EqualIgnoreHash(a, b) }

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
