package controller

import (
	"slices"
	"strconv"
	"strings"

	"reconcile/engine/api"
)

// A kubelet's events about a container name the container: their
// involved object is the pod's reference with a fieldPath, as
// kuberuntime's recordContainerEvent makes it with
// kubecontainer.GenerateContainerRef (pulls, Created, Started, Killing,
// BackOff, probes, hooks). Its events about the whole pod (FailedMount,
// FailedCreatePodSandBox, admission) have none. Either names the pod as the
// kubelet synced it: its resourceVersion is the one the kubelet read.

// maxFieldPaths bounds the fieldPaths a kubelet keeps to share.
const maxFieldPaths = 32

// containerRef is GenerateContainerRef: p's reference with the fieldPath
// of its container named name, "spec.containers{NAME}" or
// "spec.initContainers{NAME}" (a sidecar is one), looked for in that order.
func (k *KubeletLoop) containerRef(p *api.Pod, name string) api.ObjectReference {
	ref := api.ReferenceTo(p)
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
	for _, fp := range k.fieldPaths {
		if len(fp) == len(field)+len(name)+2 && strings.HasPrefix(fp, field) && fp[len(field)] == '{' && fp[len(field)+1:len(fp)-1] == name {
			return fp
		}
	}
	fp := field + "{" + name + "}"
	if len(k.fieldPaths) < maxFieldPaths {
		k.fieldPaths = append(k.fieldPaths, fp)
	}
	return fp
}

// containerEvent records an event about p's container named name.
func (k *KubeletLoop) containerEvent(ctx *Context, p *api.Pod, name, typ, reason, message string) {
	ctx.API.RecordAbout(ctx.component, ctx.Host, k.containerRef(p, name), typ, reason, message)
}
