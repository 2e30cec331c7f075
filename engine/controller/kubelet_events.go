package controller

import (
	"slices"
	"strconv"

	"reconcile/engine/api"
)

// A kubelet's events about a container name the container: their
// involved object is the pod's reference with a fieldPath, as
// kuberuntime's recordContainerEvent makes it with
// kubecontainer.GenerateContainerRef (pulls, Created, Started, Killing,
// BackOff, probes, hooks). Its events about the whole pod (FailedMount,
// FailedCreatePodSandBox, NetworkNotReady, admission) have none.
//
// Either names the pod the kubelet syncs, the one its pod manager holds:
// kubelet/config's checkAndUpdatePod copies each update's spec, labels,
// annotations, deletion and status into the pod it first received, never
// its resourceVersion. So every event names the pod's resourceVersion as
// this kubelet process first saw it (bound to its node, or listed when it
// started), however often the pod was written since.
//
// What a kubelet keeps for this (the pods it has seen, the fieldPaths it
// has made) is in lists never changed once made, which its clones share:
// a checkpoint's copy of the kubelet copies two pointers, and a pod seen
// costs one small object, whatever copies there are.

// seenPod is a pod as a kubelet process first saw it, in a list, newest
// first.
type seenPod struct {
	uid, resourceVersion string
	next                 *seenPod
}

// find returns the pod of uid in the list at s, or nil.
func (s *seenPod) find(uid string) *seenPod {
	for ; s != nil; s = s.next {
		if s.uid == uid {
			return s
		}
	}
	return nil
}

// see notes p as this kubelet process sees it, unless it saw it already.
func (k *KubeletLoop) see(p *api.Pod) {
	if k.seen.find(p.UID) == nil {
		k.seen = &seenPod{uid: p.UID, resourceVersion: p.ResourceVersion, next: k.seen}
	}
}

// forget drops the pods that have left this node (its cache has them no
// more): a new list of the others.
func (k *KubeletLoop) forget(ctx *Context) {
	pods := ctx.Cache.PodsOnNode(k.node)
	here := func(uid string) bool {
		return slices.ContainsFunc(pods, func(p *api.Pod) bool { return p.UID == uid })
	}
	gone := false
	for s := k.seen; s != nil && !gone; s = s.next {
		gone = !here(s.uid)
	}
	if !gone {
		return
	}
	var kept []*seenPod
	for s := k.seen; s != nil; s = s.next {
		if here(s.uid) {
			kept = append(kept, s)
		}
	}
	k.seen = nil
	for _, s := range slices.Backward(kept) {
		k.seen = &seenPod{uid: s.uid, resourceVersion: s.resourceVersion, next: k.seen}
	}
}

// podRef is the reference a kubelet's event names p by: p's, with the
// resourceVersion p had when this kubelet first saw it.
func (k *KubeletLoop) podRef(p *api.Pod) api.ObjectReference {
	ref := api.ReferenceTo(p)
	if s := k.seen.find(p.UID); s != nil {
		ref.ResourceVersion = s.resourceVersion
	}
	return ref
}

// podEvent records an event about the whole of p.
func (k *KubeletLoop) podEvent(ctx *Context, p *api.Pod, typ, reason, message string) {
	ctx.API.RecordAbout(ctx.component, ctx.Host, k.podRef(p), typ, reason, message)
}

// fieldPath is a fieldPath a kubelet made, in a list, newest first; n
// counts the list from it.
type fieldPath struct {
	path string
	n    int
	next *fieldPath
}

// maxFieldPaths bounds the fieldPaths a kubelet keeps to share.
const maxFieldPaths = 32

// containerRef is GenerateContainerRef: the pod's reference (podRef) with
// the fieldPath of its container named name, "spec.containers{NAME}" or
// "spec.initContainers{NAME}" (a sidecar is one), looked for in that
// order.
func (k *KubeletLoop) containerRef(p *api.Pod, name string) api.ObjectReference {
	ref := k.podRef(p)
	ref.FieldPath = k.fieldPath(p, name)
	return ref
}

// fieldPath is the fieldPath of p's container named name (empty when p
// has none of that name). The string is made once and shared: every event
// about an app container of this node's pods holds the same one.
func (k *KubeletLoop) fieldPath(p *api.Pod, name string) string {
	field, i := "spec.containers", slices.IndexFunc(p.Spec.Containers, func(c api.Container) bool { return c.Name == name })
	if i < 0 {
		field, i = "spec.initContainers", slices.IndexFunc(p.Spec.InitContainers, func(c api.Container) bool { return c.Name == name })
	}
	if i < 0 {
		return ""
	}
	if name == "" {
		return field + "[" + strconv.Itoa(i) + "]"
	}
	for f := k.fieldPaths; f != nil; f = f.next {
		fp := f.path
		if len(fp) == len(field)+len(name)+2 && fp[:len(field)] == field && fp[len(field)] == '{' && fp[len(field)+1:len(fp)-1] == name {
			return fp
		}
	}
	fp := field + "{" + name + "}"
	if n := k.fieldPaths.count(); n < maxFieldPaths {
		k.fieldPaths = &fieldPath{path: fp, n: n + 1, next: k.fieldPaths}
	}
	return fp
}

// count is how many fieldPaths the list at f holds.
func (f *fieldPath) count() int {
	if f == nil {
		return 0
	}
	return f.n
}

// containerEvent records an event about p's container named name.
func (k *KubeletLoop) containerEvent(ctx *Context, p *api.Pod, name, typ, reason, message string) {
	ctx.API.RecordAbout(ctx.component, ctx.Host, k.containerRef(p, name), typ, reason, message)
}
