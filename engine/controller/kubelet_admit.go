package controller

import (
	"fmt"

	"reconcile/engine/api"
)

// admitted reports whether the kubelet has taken the pod in: it has
// reported its status or made one of its containers.
func (k *KubeletLoop) admitted(p *api.Pod, rt *Runtime) bool {
	if p.Status.StartTime != nil {
		return true
	}
	key := api.RefOf(p).Key()
	for _, c := range allContainers(p) {
		if rt.Get(key+"/"+c.Name) != nil {
			return true
		}
	}
	return false
}

// admit is the kubelet's admission of a pod new to its node, as its
// predicate admit handler checks the pods it has already taken in: the
// pod count, then CPU, then memory, against the node's allocatable. It
// returns the reason (OutOfpods, OutOfcpu, OutOfmemory) and message of a
// pod that does not fit, or "".
func (k *KubeletLoop) admit(ctx *Context, p *api.Pod, rt *Runtime) (reason, msg string) {
	n, _ := ctx.Cache.Get("Node", k.node).(*api.Node)
	if n == nil {
		return "", ""
	}
	alloc := n.Status.Allocatable
	if alloc == nil {
		alloc = n.Status.Capacity
	}
	var pods, cpu, mem int64
	for _, o := range ctx.Cache.PodsOnNode(k.node) {
		if o.UID == p.UID || o.Status.Phase == api.PodSucceeded || o.Status.Phase == api.PodFailed || !k.admitted(o, rt) {
			continue
		}
		c, m := podRequests(o)
		pods, cpu, mem = pods+1, cpu+c, mem+m
	}
	wantCPU, wantMem := podRequests(p)
	short := func(res string, req, used, capacity int64) (string, string) {
		return "OutOf" + res, fmt.Sprintf("Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d", res, req, used, capacity)
	}
	switch q, ok := alloc["pods"]; {
	case ok && pods+1 > q.Value():
		return short("pods", 1, pods, q.Value())
	case wantCPU > 0 && cpu+wantCPU > alloc["cpu"].Milli():
		return short("cpu", wantCPU, cpu, alloc["cpu"].Milli())
	case wantMem > 0 && mem+wantMem > alloc["memory"].Value():
		return short("memory", wantMem, mem, alloc["memory"].Value())
	}
	return "", ""
}

// reject fails a pod the kubelet does not admit: an event, and a status
// of phase Failed with the reason, its conditions gone (the kubelet owns
// them and reports none).
func (k *KubeletLoop) reject(ctx *Context, p *api.Pod, reason, msg string) (Result, error) {
	ctx.Desired = desiredText(p)
	ctx.Observed = msg
	ctx.Difference = "the pod does not fit on this node: reject it"
	k.podEvent(ctx, p, "Warning", reason, msg)
	t := ctx.Now
	st := api.PodStatus{Phase: api.PodFailed, Reason: reason, Message: "Pod was rejected: " + msg, QOSClass: p.Status.QOSClass, StartTime: &t}
	np := p.WithStatus(st)
	if _, err := ctx.UpdateStatusOwned(np, reportStatus(np)); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Acted}, nil
}
