package kubectl

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/selector"
	"reconcile/engine/store"
)

// delete deletes the objects named or selected. Pods on a node are deleted
// gracefully (they terminate, then go) unless --grace-period=0 --force.
// --cascade is the delete's propagation policy: background (the default:
// the object goes, the garbage collector then deletes its dependents),
// foreground (it stays, Terminating, until the collector has deleted its
// dependents) or orphan (it stays until the collector has taken its
// references off its dependents, which stay). An object with finalizers
// stays, Terminating, until they are removed. Like kubectl, delete says
// "deleted" once the API server has accepted the delete; it does not wait
// for the object to go (kubectl's --wait is not simulated).
func (k *cmd) delete() (string, error) {
	in := k.in
	if len(in.Args) == 0 {
		return "", errNoResources
	}
	cascade := in.String("cascade", "background")
	var warnings strings.Builder
	switch cascade {
	case "background", "foreground", "orphan":
	case "true", "false", "1", "0", "t", "f", "TRUE", "FALSE", "True", "False", "T", "F":
		repl := "background"
		if b := in.Bool("cascade", true); !b {
			repl = "orphan"
		}
		fmt.Fprintf(&warnings, "warning: --cascade=%s is deprecated (boolean value) and can be replaced with --cascade=%s.\n", cascade, repl)
		cascade = repl
	default:
		return "", fmt.Errorf("error: invalid cascade value (%s). Must be \"background\", \"foreground\", or \"orphan\"", cascade)
	}
	if o := in.String("output", ""); o != "" && o != "name" {
		return "", fmt.Errorf("error: unexpected -o output mode: %s. We only support '-o name'", o)
	}
	if in.Bool("all", false) && (in.String("selector", "") != "" || in.String("field-selector", "") != "") {
		return "", errors.New("error: setting 'all' parameter but found a non empty selector. ")
	}
	grace := in.Int("grace-period", -1)
	if in.Bool("now", false) {
		if grace != -1 {
			return "", errors.New("error: --now and --grace-period cannot be specified together")
		}
		grace = 1
	}
	force := in.Bool("force", false)
	switch {
	case grace == 0 && !force:
		grace = 1 // kubectl's guard against an accidental force
	case force && grace < 0:
		grace = 0
	}
	switch {
	case grace == 0 && force:
		warnings.WriteString("Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n")
	case grace > 0 && force:
		return warnings.String(), errors.New("error: --force and --grace-period greater than 0 cannot be specified together")
	}
	objs, errs, err := k.resolve(in.Args, true)
	if err != nil {
		return warnings.String(), err
	}
	selected := in.Bool("all", false) || in.String("selector", "") != "" || in.String("field-selector", "") != ""
	if (selected && !in.Has("ignore-not-found")) || in.Bool("ignore-not-found", false) {
		errs = dropNotFound(errs)
	}
	var b strings.Builder
	b.WriteString(warnings.String())
	policy := map[string]string{"background": store.Background, "foreground": store.Foreground, "orphan": store.Orphan}[cascade]
	var gracePeriod *int64
	if grace > 0 {
		g := int64(grace)
		gracePeriod = &g
	}
	for _, f := range objs {
		m := f.obj.Meta()
		if _, err := k.st.DeleteWith(f.kind.Name, m.Namespace, m.Name, store.DeleteOptions{PropagationPolicy: policy, Force: grace == 0, GracePeriodSeconds: gracePeriod}); err != nil {
			errs = append(errs, err)
			continue
		}
		if in.String("output", "") == "name" {
			fmt.Fprintf(&b, "%s/%s\n", f.kind.Qualified(), m.Name)
			continue
		}
		what := "deleted"
		if grace == 0 {
			what = "force deleted"
		}
		if f.kind.Namespaced {
			what += " from " + m.Namespace + " namespace"
		}
		fmt.Fprintf(&b, "%s %q %s\n", f.kind.Qualified(), m.Name, what)
	}
	if len(objs) == 0 && len(errs) == 0 {
		b.WriteString("No resources found\n")
	}
	return b.String(), errorsText(errs)
}

// markEvicted is what the Eviction API writes before it deletes a pod that
// has not finished: the DisruptionTarget condition, which a Job's pod
// failure policy can match.
func (k *cmd) markEvicted(p *api.Pod) error {
	if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
		return nil
	}
	n := p.DeepCopy()
	c := api.PodCondition{Type: "DisruptionTarget", Status: "True", LastTransitionTime: k.now, Reason: "EvictionByEvictionAPI", Message: "Eviction API: evicting"}
	if i := slices.IndexFunc(n.Status.Conditions, func(c api.PodCondition) bool { return c.Type == "DisruptionTarget" }); i >= 0 {
		old := n.Status.Conditions[i]
		if old.Status == c.Status && old.Reason == c.Reason && old.Message == c.Message {
			return nil // UpdatePodCondition changes nothing: a no-op update
		}
		if old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		}
		n.Status.Conditions[i] = c
	} else {
		n.Status.Conditions = append(n.Status.Conditions, c)
	}
	n.ResourceVersion = ""
	_, err := k.st.UpdateStatus(n)
	return err
}

// podGroups are pods by the message kubectl lists them under, in the order
// the messages first came (kubectl's map has none).
type podGroups struct {
	msgs []string
	pods map[string][]string
}

func (g *podGroups) add(msg string, p *api.Pod) {
	if g.pods == nil {
		g.pods = map[string][]string{}
	}
	if _, ok := g.pods[msg]; !ok {
		g.msgs = append(g.msgs, msg)
	}
	g.pods[msg] = append(g.pods[msg], p.Namespace+"/"+p.Name)
}

// join writes the groups as kubectl does: "MSG: ns/a, ns/b", each group
// with prefix, joined by sep.
func (g *podGroups) join(prefix, sep string) string {
	parts := make([]string, len(g.msgs))
	for i, m := range g.msgs {
		parts[i] = prefix + m + ": " + strings.Join(g.pods[m], ", ")
	}
	return strings.Join(parts, sep)
}

// podsToEvict lists a node's pods as drain's filters sort them: those to
// evict, those it warns of (evicted or left alone), and those it refuses.
// A DaemonSet's pod is refused without --ignore-daemonsets and left on the
// node with it (its DaemonSet would put it back); a pod no controller owns
// is refused without --force, and one with an emptyDir volume without
// --delete-emptydir-data. A pod that has finished goes whatever owns it.
//
// A pod whose deletionTimestamp is more than skip seconds past
// (--skip-wait-for-delete-timeout) is left out, unless skip is 0.
func (k *cmd) podsToEvict(node string, skip int) (victims []*api.Pod, warned, refused podGroups) {
	sel := k.in.String("pod-selector", "")
	labels, _ := selector.ParseLabels(sel)
	force := k.in.Bool("force", false)
	for _, po := range k.st.List("Pod") {
		p := po.(*api.Pod)
		// A pod being deleted is listed too (unless
		// --skip-wait-for-delete-timeout leaves it out): its eviction
		// deletes it again, which changes nothing.
		if p.Spec.NodeName != node || !labels.Matches(p.Labels) || skipDeleted(p, skip, k.now) {
			continue
		}
		finished := p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
		ref := p.ControllerOf()
		switch {
		case finished:
		case ref != nil && ref.Kind == "DaemonSet":
			if k.st.Get("DaemonSet", p.Namespace, ref.Name) == nil {
				msg := fmt.Sprintf("daemonsets.apps %q not found", ref.Name)
				if !force {
					refused.add(msg, p)
					continue
				}
				warned.add(msg, p)
				break
			}
			if !k.in.Bool("ignore-daemonsets", false) {
				refused.add("DaemonSet-managed Pods (use --ignore-daemonsets to ignore)", p)
				continue
			}
			warned.add("ignoring DaemonSet-managed Pods", p)
			continue
		case hasLocalStorage(p) && !k.in.Bool("delete-emptydir-data", false):
			// With the flag kubectl's warning is dropped: the filter after
			// it (no controller) writes the pod's status again.
			refused.add("Pods with local storage (use --delete-emptydir-data to override)", p)
			continue
		case ref == nil:
			if !force {
				refused.add("cannot delete Pods that declare no controller (use --force to override)", p)
				continue
			}
			warned.add("deleting Pods that declare no controller", p)
		}
		victims = append(victims, p)
	}
	return victims, warned, refused
}

// pendingOn names the pods drain would still evict from a node, as
// kubectl lists them after an error.
func (k *cmd) pendingOn(node string, skip int) []string {
	victims, _, _ := k.podsToEvict(node, skip)
	names := make([]string, len(victims))
	for i, p := range victims {
		names[i] = p.Name
	}
	return names
}

// hasLocalStorage reports a pod with an emptyDir volume: its data goes with
// it, so drain asks for --delete-emptydir-data.
func hasLocalStorage(p *api.Pod) bool {
	for _, v := range p.Spec.Volumes {
		if v.EmptyDir != nil {
			return true
		}
	}
	return false
}
