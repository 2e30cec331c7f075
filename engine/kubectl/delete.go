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

// drain cordons a node and evicts its pods through the Eviction API
// (evict.go), as kubectl drain does. A pod no controller owns is refused
// unless --force: nothing would make it again. An eviction a
// PodDisruptionBudget refuses (429) is printed as kubectl prints it before
// it retries; kubectl then retries every 5s until --timeout, but this
// drain makes one pass and ends with an error that says so.
func (k *cmd) drain() (string, error) {
	if len(k.in.Args) == 0 && k.in.String("selector", "") == "" {
		return "", errors.New("error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples")
	}
	nodes, err := k.nodes()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, n := range nodes {
		if !n.Spec.Unschedulable {
			n.Spec.Unschedulable = true
			if _, err := k.write(n); err != nil {
				return b.String(), err
			}
			fmt.Fprintf(&b, "node/%s cordoned\n", n.Name)
		} else {
			fmt.Fprintf(&b, "node/%s already cordoned\n", n.Name)
		}
	}
	// --grace-period goes to each eviction's delete options: 0 deletes at
	// once, a negative value (the default) keeps the pod's own period.
	var opts store.DeleteOptions
	if g := k.in.Int("grace-period", -1); g >= 0 {
		period := int64(g)
		opts = store.DeleteOptions{Force: g == 0, GracePeriodSeconds: &period}
	}
	var fatal, pending, stopped []string
	for _, n := range nodes {
		victims, warned, refused := k.podsToEvict(n.Name)
		if len(refused.msgs) > 0 {
			// kubectl's aggregate of one error is the error; of more, a list.
			msg := refused.join("cannot delete ", ", ")
			if len(refused.msgs) > 1 {
				msg = "[" + msg + "]"
			}
			fmt.Fprintf(&b, "error: unable to drain node %q due to error: %s, continuing command...\n", n.Name, msg)
			fatal = append(fatal, msg)
			pending = append(pending, n.Name)
			continue
		}
		if len(warned.msgs) > 0 {
			fmt.Fprintf(&b, "Warning: %s\n", warned.join("", "; "))
		}
		if k.in.Bool("disable-eviction", false) {
			// Plain deletes: no budget is consulted, no DisruptionTarget set.
			for _, p := range victims {
				if _, err := k.st.DeleteWith("Pod", p.Namespace, p.Name, opts); err != nil && !errors.Is(err, store.ErrNotFound) {
					return b.String(), err
				}
			}
			for _, p := range victims {
				fmt.Fprintf(&b, "pod/%s deleted\n", p.Name)
			}
			fmt.Fprintf(&b, "node/%s drained\n", n.Name)
			continue
		}
		for _, p := range victims {
			fmt.Fprintf(&b, "evicting pod %s/%s\n", p.Namespace, p.Name)
		}
		// kubectl evicts the pods at once, each in its own goroutine: a
		// refusal is printed at once, "evicted" once the pod is gone
		// (here, once its eviction is accepted: drain does not wait).
		var retry, evicted []string
		var failed error
		for _, p := range victims {
			err := k.evict(p, opts)
			switch {
			case err == nil, errors.Is(err, store.ErrNotFound):
				evicted = append(evicted, p.Name)
			case isTooManyRequests(err):
				fmt.Fprintf(&b, "error when evicting pods/%q -n %q (will retry after 5s): %s\n", p.Name, p.Namespace, err)
				retry = append(retry, p.Name)
			default:
				var se *store.StatusError
				if !errors.As(err, &se) {
					return b.String(), err
				}
				failed = fmt.Errorf("error when evicting pods/%q -n %q: %s", p.Name, p.Namespace, err)
			}
		}
		for _, name := range evicted {
			fmt.Fprintf(&b, "pod/%s evicted\n", name)
		}
		if failed != nil {
			// kubectl waits for the evictions under way, then lists what is
			// left on the node and gives up on it.
			fmt.Fprintf(&b, "There are pending pods in node %q when an error occurred: %s\n", n.Name, failed)
			for _, p := range k.pendingOn(n.Name) {
				fmt.Fprintf(&b, "pod/%s\n", p)
			}
			fmt.Fprintf(&b, "error: unable to drain node %q due to error: %s, continuing command...\n", n.Name, failed)
			fatal = append(fatal, failed.Error())
			pending = append(pending, n.Name)
			continue
		}
		if len(retry) > 0 {
			// kubectl retries each refused eviction every 5s until they go
			// through or --timeout runs out; this drain makes one pass.
			stopped = append(stopped, fmt.Sprintf("node %q: %d pod(s) not evicted (%s): kubectl retries every 5s until --timeout; run kubectl drain again",
				n.Name, len(retry), strings.Join(retry, ", ")))
			continue
		}
		fmt.Fprintf(&b, "node/%s drained\n", n.Name)
	}
	for _, s := range stopped {
		fatal = append(fatal, "drain stopped after one pass of evictions: "+s)
	}
	if len(pending) > 0 {
		b.WriteString("There are pending nodes to be drained:\n")
		for _, n := range pending {
			fmt.Fprintf(&b, " %s\n", n)
		}
	}
	if len(fatal) > 0 {
		return b.String(), fmt.Errorf("error: %s", strings.Join(fatal, "\nerror: "))
	}
	return b.String(), nil
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
// is refused without --force. A pod that has finished goes whatever owns it.
func (k *cmd) podsToEvict(node string) (victims []*api.Pod, warned, refused podGroups) {
	sel := k.in.String("pod-selector", "")
	labels, _ := selector.ParseLabels(sel)
	force := k.in.Bool("force", false)
	for _, po := range k.st.List("Pod") {
		p := po.(*api.Pod)
		// A pod being deleted is listed too (--skip-wait-for-delete-timeout
		// is 0): its eviction deletes it again, which changes nothing.
		if p.Spec.NodeName != node || !labels.Matches(p.Labels) {
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
func (k *cmd) pendingOn(node string) []string {
	victims, _, _ := k.podsToEvict(node)
	names := make([]string, len(victims))
	for i, p := range victims {
		names[i] = p.Name
	}
	return names
}
