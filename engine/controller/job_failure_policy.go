package controller

import (
	"fmt"
	"math"

	"reconcile/engine/api"
)

// matchPodFailurePolicy is the job controller's matchPodFailurePolicy
// (pkg/controller/job/pod_failure_policy.go): the Job's rules, in order,
// against a failed pod. It returns the action of the first rule that
// matches ("" when none does: the failure counts), and for FailJob the
// message the Job's conditions carry.
func matchPodFailurePolicy(pf *api.PodFailurePolicy, p *api.Pod) (action, message string) {
	if pf == nil {
		return "", ""
	}
	for i, r := range pf.Rules {
		switch {
		case r.OnExitCodes != nil:
			cs := matchOnExitCodes(p, r.OnExitCodes)
			if cs == nil {
				continue
			}
			if r.Action == "FailJob" {
				message = fmt.Sprintf("Container %s for pod %s/%s failed with exit code %d matching %s rule at index %d",
					cs.Name, p.Namespace, p.Name, cs.State.Terminated.ExitCode, r.Action, i)
			}
			return r.Action, message
		case r.OnPodConditions != nil:
			c := matchOnPodConditions(p, r.OnPodConditions)
			if c == nil {
				continue
			}
			if r.Action == "FailJob" {
				message = fmt.Sprintf("Pod %s/%s has condition %s matching %s rule at index %d", p.Namespace, p.Name, c.Type, r.Action, i)
			}
			return r.Action, message
		}
	}
	return "", ""
}

// matchOnExitCodes returns the first terminated container, then init
// container, that exited with a code other than 0 the requirement matches.
func matchOnExitCodes(p *api.Pod, req map[string]any) *api.ContainerStatus {
	name, named := req["containerName"].(string)
	op, _ := req["operator"].(string)
	values, _ := req["values"].([]any)
	for _, list := range [][]api.ContainerStatus{p.Status.ContainerStatuses, p.Status.InitContainerStatuses} {
		for i := range list {
			cs := &list[i]
			t := cs.State.Terminated
			if t == nil || named && name != cs.Name || t.ExitCode == 0 {
				continue
			}
			in := false
			for _, v := range values {
				if n, ok := exitCodeValue(v); ok && n == int64(t.ExitCode) {
					in = true
				}
			}
			if op == "In" && in || op == "NotIn" && !in {
				return cs
			}
		}
	}
	return nil
}

// exitCodeValue reads a number of onExitCodes.values as decoded.
func exitCodeValue(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	case uint64:
		if n <= math.MaxInt64 {
			return int64(n), true
		}
	case float64:
		if n == math.Trunc(n) {
			return int64(n), true
		}
	}
	return 0, false
}

// matchOnPodConditions returns the first of the pod's conditions that one
// of the patterns matches by type and status.
func matchOnPodConditions(p *api.Pod, patterns []map[string]any) *api.PodCondition {
	for i := range p.Status.Conditions {
		c := &p.Status.Conditions[i]
		for _, pat := range patterns {
			if pat["type"] == c.Type && pat["status"] == c.Status {
				return c
			}
		}
	}
	return nil
}
