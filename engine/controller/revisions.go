package controller

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"sort"
	"strconv"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// The history of DaemonSets and StatefulSets: one ControllerRevision per
// pod template a set has run, named <set>-<hash>, numbered in the order
// the templates became current. A template that comes back (kubectl
// rollout undo patches an old one in) takes its old revision object with
// a new number, max+1, as both controllers do; history beyond
// spec.revisionHistoryLimit goes, oldest first, but for the revisions live
// pods still run.

// StatefulSetHashLabel is the label a StatefulSet's revisions carry their
// hash in (the controller history's own label; a DaemonSet's revisions use
// controller-revision-hash, as its pods do).
const StatefulSetHashLabel = "controller.kubernetes.io/hash"

// RevisionsOf returns the ControllerRevisions an owner controls, from a
// list of every revision, ordered by revision number, then creation time,
// then name (the controllers' order).
func RevisionsOf(all []api.Object, uid string) []*api.ControllerRevision {
	var out []*api.ControllerRevision
	for _, o := range all {
		r := o.(*api.ControllerRevision)
		if ref := r.ControllerOf(); ref != nil && ref.UID == uid {
			out = append(out, r)
		}
	}
	SortRevisions(out)
	return out
}

// SortRevisions orders revisions by number, then creation, then name.
func SortRevisions(rs []*api.ControllerRevision) {
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if a.Revision != b.Revision {
			return a.Revision < b.Revision
		}
		if a.CreationTimestamp != b.CreationTimestamp {
			return a.CreationTimestamp < b.CreationTimestamp
		}
		return a.Name < b.Name
	})
}

func ownedRevisions(c *informer.Cache, uid string) []*api.ControllerRevision {
	return RevisionsOf(c.Owned("ControllerRevision", uid), uid)
}

// RevisionData is the data a set's revision holds for its template, as
// bytes to compare: the controllers tell a revision is a template's when
// their data are equal byte for byte.
func RevisionData(t *api.PodTemplateSpec) []byte {
	b, _ := json.Marshal(api.RevisionTemplate{Patch: "replace", PodTemplateSpec: *t})
	return b
}

// RevisionMatches reports whether r records template t.
func RevisionMatches(r *api.ControllerRevision, want []byte) bool {
	if r.Data.Spec == nil || r.Data.Spec.Template == nil {
		return false
	}
	b, _ := json.Marshal(r.Data.Spec.Template)
	return bytes.Equal(b, want)
}

func nextRevision(rs []*api.ControllerRevision) int64 {
	var m int64
	for _, r := range rs {
		m = max(m, r.Revision)
	}
	return m + 1
}

// newRevision makes a set's revision of its current template.
func newRevision(owner api.Object, apiVersion string, t *api.PodTemplateSpec, name, hashLabel, hash string, revision int64) *api.ControllerRevision {
	m := owner.Meta()
	labels := maps.Clone(t.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[hashLabel] = hash
	return &api.ControllerRevision{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: m.Namespace, Labels: labels, Annotations: maps.Clone(m.Annotations),
			OwnerReferences: []api.OwnerReference{{APIVersion: apiVersion, Kind: owner.GetTypeMeta().Kind, Name: m.Name, UID: m.UID, Controller: true, BlockOwnerDeletion: true}}},
		Data:     api.RevisionOf(t),
		Revision: revision,
	}
}

// createRevision creates r; one the cache has not shown yet (made by an
// earlier pass) is taken as made.
func createRevision(ctx *Context, r *api.ControllerRevision) (*api.ControllerRevision, error) {
	o, err := ctx.Create(r, func(o api.Object) Action { return On(Create, "controllerrevision", o.Meta().Name, "") })
	switch {
	case errors.Is(err, store.ErrExists):
		return r, nil
	case err != nil:
		return nil, err
	}
	return o.(*api.ControllerRevision), nil
}

// renumber gives an existing revision a new number: its template is the
// set's again.
func renumber(ctx *Context, r *api.ControllerRevision, revision int64) (*api.ControllerRevision, error) {
	n := r.DeepCopy()
	n.Revision = revision
	o, err := ctx.Update(n, On(Renumber, "controllerrevision", r.Name, "to revision "+strconv.FormatInt(revision, 10)))
	if err != nil {
		return nil, err
	}
	return o.(*api.ControllerRevision), nil
}

// daemonSetHistory makes sure the DaemonSet's current template has a
// revision, numbered above every other: it creates one named <ds>-<hash>,
// or renumbers the one that records the template. It returns the current
// revision and the old ones.
func daemonSetHistory(ctx *Context, ds *api.DaemonSet, hash string) (*api.ControllerRevision, []*api.ControllerRevision, error) {
	want := RevisionData(&ds.Spec.Template)
	var cur *api.ControllerRevision
	var old []*api.ControllerRevision
	revs := ownedRevisions(ctx.Cache, ds.UID)
	adopted, err := adoptOrphanRevisions(ctx, ds, ds.Spec.Selector)
	if err != nil {
		return nil, nil, err
	}
	if len(adopted) > 0 {
		revs = append(revs, adopted...)
		SortRevisions(revs)
	}
	for _, r := range revs {
		if RevisionMatches(r, want) && (cur == nil || r.Revision >= cur.Revision) {
			if cur != nil {
				old = append(old, cur)
			}
			cur = r
			continue
		}
		old = append(old, r)
	}
	next := nextRevision(old)
	switch {
	case cur == nil:
		cur, err = createRevision(ctx, newRevision(ds, "apps/v1", &ds.Spec.Template, ds.Name+"-"+hash, api.ControllerRevisionHashLabel, hash, next))
	case cur.Revision < next:
		cur, err = renumber(ctx, cur, next)
	}
	return cur, old, err
}

// cleanupDaemonSetHistory deletes the oldest revisions beyond the
// DaemonSet's revisionHistoryLimit, but for those its pods still run.
func cleanupDaemonSetHistory(ctx *Context, ds *api.DaemonSet, old []*api.ControllerRevision) error {
	kill := len(old) - int(api.Deref(ds.Spec.RevisionHistoryLimit, 10))
	if kill <= 0 {
		return nil
	}
	live := map[string]bool{} // lookup only
	for _, o := range ctx.Cache.Owned("Pod", ds.UID) {
		if h := o.Meta().Labels[api.ControllerRevisionHashLabel]; h != "" {
			live[h] = true
		}
	}
	for _, r := range old {
		if kill <= 0 {
			break
		}
		if live[r.Labels[api.ControllerRevisionHashLabel]] {
			continue
		}
		if err := ctx.Delete("ControllerRevision", r.Namespace, r.Name, false, On(Delete, "controllerrevision", r.Name, "")); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		kill--
	}
	return nil
}

// statefulSetHistory finds or makes the StatefulSet's update revision (its
// template's) and its current revision (status.currentRevision's, or the
// update revision when that names none). It returns them with the
// revisions it listed before.
func statefulSetHistory(ctx *Context, set *api.StatefulSet) (current, update *api.ControllerRevision, revs []*api.ControllerRevision, err error) {
	revs = ownedRevisions(ctx.Cache, set.UID)
	if adopted, err := adoptOrphanRevisions(ctx, set, set.Spec.Selector); err != nil {
		return nil, nil, revs, err
	} else if len(adopted) > 0 {
		revs = append(revs, adopted...)
		SortRevisions(revs)
	}
	want := RevisionData(&set.Spec.Template)
	var equal *api.ControllerRevision
	for _, r := range revs {
		if RevisionMatches(r, want) {
			equal = r // the last, by revision
		}
	}
	next := nextRevision(revs)
	switch {
	case equal != nil && equal == revs[len(revs)-1]:
		update = equal
	case equal != nil:
		update, err = renumber(ctx, equal, next)
	default:
		name := StatefulSetRevision(set)
		update, err = createRevision(ctx, newRevision(set, "apps/v1", &set.Spec.Template, name, StatefulSetHashLabel, name[len(set.Name)+1:], next))
	}
	if err != nil {
		return nil, nil, revs, err
	}
	for _, r := range revs {
		if r.Name == set.Status.CurrentRevision {
			current = r
		}
	}
	if current == nil {
		current = update
	}
	return current, update, revs, nil
}

// truncateStatefulSetHistory deletes the oldest revisions beyond the
// StatefulSet's revisionHistoryLimit, keeping the current and update
// revisions and those its pods run.
func truncateStatefulSetHistory(ctx *Context, set *api.StatefulSet, revs []*api.ControllerRevision, current, update string) error {
	live := map[string]bool{current: true, update: true} // lookup only
	for _, o := range ctx.Cache.Owned("Pod", set.UID) {
		live[o.Meta().Labels[api.ControllerRevisionHashLabel]] = true
	}
	var history []*api.ControllerRevision
	for _, r := range revs {
		if !live[r.Name] {
			history = append(history, r)
		}
	}
	limit := int(api.Deref(set.Spec.RevisionHistoryLimit, 10))
	if len(history) <= limit {
		return nil
	}
	for _, r := range history[:len(history)-limit] {
		if err := ctx.Delete("ControllerRevision", r.Namespace, r.Name, false, On(Delete, "controllerrevision", r.Name, "")); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}

// versionedSet is the set a new pod of an ordinal is made from, and its
// revision: during a rolling update, an ordinal below the partition (or,
// without rollingUpdate settings, below the pods already current) comes
// back with the current revision's template, as the controller restores
// it; any other with the update revision's.
func versionedSet(set *api.StatefulSet, current *api.ControllerRevision, update string, ordinal int) (*api.StatefulSet, string) {
	if current == nil || current.Name == update || current.Data.Template() == nil {
		return set, update
	}
	start := 0
	if set.Spec.Ordinals != nil {
		start = int(set.Spec.Ordinals.Start)
	}
	ru := set.Spec.UpdateStrategy.RollingUpdate
	old := set.Spec.UpdateStrategy.Type == api.RollingUpdateStrategy && ru == nil && ordinal < start+int(set.Status.CurrentReplicas) ||
		ru != nil && ordinal < start+int(api.Deref(ru.Partition, 0))
	if !old {
		return set, update
	}
	s := *set
	s.Spec.Template = current.Data.Template().DeepCopy()
	return &s, current.Name
}

// adoptOrphanRevisions adopts the ControllerRevisions with no controller
// that the set's selector matches (a StatefulSet or DaemonSet recreated
// after an orphaning delete finds its history: ClaimControllerRevisions),
// returning them as written.
func adoptOrphanRevisions(ctx *Context, set api.Object, sel *api.LabelSelector) ([]*api.ControllerRevision, error) {
	m := set.Meta()
	if sel.Empty() || m.DeletionTimestamp != nil {
		return nil, nil
	}
	var out []*api.ControllerRevision
	for _, o := range ctx.Cache.List("ControllerRevision") {
		r := o.(*api.ControllerRevision)
		if r.Namespace != m.Namespace || r.ControllerOf() != nil || r.DeletionTimestamp != nil || !sel.Matches(r.Labels) {
			continue
		}
		ref := api.OwnerReference{APIVersion: "apps/v1", Kind: set.GetTypeMeta().Kind, Name: m.Name, UID: m.UID, Controller: true, BlockOwnerDeletion: true}
		n, err := patchLive(ctx, r, On(Adopt, "controllerrevision", r.Name, ""), func(live api.Object) bool {
			return live.Meta().ControllerOf() == nil
		}, func(m *api.ObjectMeta) { m.OwnerReferences = append(m.OwnerReferences, ref) })
		if err != nil {
			return out, err
		}
		if n != nil {
			out = append(out, n.(*api.ControllerRevision))
		}
	}
	return out, nil
}
