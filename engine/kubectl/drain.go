package kubectl

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"reconcile/engine/api"
	"reconcile/engine/limits"
	"reconcile/engine/store"
)

// kubectl drain, as v1.34's pkg/drain does it, over simulated time.
//
// drain cordons its nodes, then drains them one after the other. For a
// node it lists the pods its filters let go (podsToEvict) and evicts
// each through the Eviction API (evict.go): an eviction a
// PodDisruptionBudget refuses (429) is printed and tried again 5s later,
// "evicting pod NS/NAME" printed before every try; an eviction accepted
// is followed by a wait, polled every second, for the pod to be gone
// ("pod/NAME evicted" then). Once every pod of the node has gone or
// failed, the node is drained ("node/NAME drained") or not (its error),
// and the next node starts. --timeout bounds each node's evictions and
// waits (0: forever): an eviction due after it fails with "global timeout
// reached", a wait with "context deadline exceeded". --disable-eviction
// deletes the pods instead, then waits for them the same way.
//
// A run (package sim) drives a drain as a watching command that writes:
// it starts it (StartDrain), which makes the first evictions at once, and
// has it act again at the moments it asks for (Watch.NextAct, ActAt),
// each one a write of kubectl's own at a simulated time. Run, outside a
// run, makes the first moment only (drain).

// The retry and poll periods of pkg/drain.
const (
	drainRetry = 5 * api.Second
	drainPoll  = 1 * api.Second
)

// drainPod is one pod a drain evicts (or deletes).
type drainPod struct {
	namespace, name, uid string
	state                drainState
	// next is when its next eviction is due (drainEvict) or its next look
	// at whether it is gone (drainWait).
	next api.Time
	// err is the error it failed with (drainDone).
	err string
}

type drainState uint8

const (
	drainEvict drainState = iota // an eviction due at next
	drainWait                    // evicted or deleted: to be gone, looked at from next
	drainDone                    // gone, or failed (err)
)

// drainer is a drain under way.
type drainer struct {
	k       *cmd
	opts    store.DeleteOptions
	timeout api.Duration // --timeout; 0: none
	evict   bool         // through the Eviction API (not --disable-eviction)
	skip    int          // --skip-wait-for-delete-timeout
	// once: a drain outside a run, which makes its first moment only.
	once  bool
	nodes []string
	// node is the index of the node being drained (len(nodes) once all
	// are), start when its evictions began.
	node    int
	start   api.Time
	pods    []drainPod
	nodeErr string // the error the node failed with (its deletions); "-": reported as it began (pods refused)
	fatal   []string
	pending []string
	ended   bool
	// stopped: a drain outside a run whose evictions were refused.
	stopped []string
	// stoppedBefore is len(stopped) when the node began.
	stoppedBefore int
}

// newDrainer starts kubectl drain: it cordons the nodes (printing what it
// did) and is ready to drain the first.
func (k *cmd) newDrainer() (*drainer, string, error) {
	if len(k.in.Args) == 0 && k.in.String("selector", "") == "" {
		return nil, "", errors.New("error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples")
	}
	nodes, err := k.nodes()
	if err != nil {
		return nil, "", err
	}
	d := &drainer{k: k, evict: !k.in.Bool("disable-eviction", false), skip: k.in.Int("skip-wait-for-delete-timeout", 0), node: -1}
	if t, err := api.ParseDuration(k.in.String("timeout", "0s")); err == nil && t > 0 {
		d.timeout = t
	}
	// --grace-period goes to each eviction's delete options: 0 deletes at
	// once, a negative value (the default) keeps the pod's own period.
	if g := k.in.Int("grace-period", -1); g >= 0 {
		period := int64(g)
		d.opts = store.DeleteOptions{Force: g == 0, GracePeriodSeconds: &period}
	}
	var b strings.Builder
	for _, n := range nodes {
		d.nodes = append(d.nodes, n.Name)
		if !n.Spec.Unschedulable {
			n.Spec.Unschedulable = true
			if _, err := k.write(n); err != nil {
				return nil, b.String(), err
			}
			fmt.Fprintf(&b, "node/%s cordoned\n", n.Name)
		} else {
			fmt.Fprintf(&b, "node/%s already cordoned\n", n.Name)
		}
	}
	return d, b.String(), nil
}

// drain is kubectl drain outside a run: its first moment. An eviction
// accepted counts as done at once ("evicted"); one refused ends the
// command with an error that says kubectl would go on.
func (k *cmd) drain() (string, error) {
	d, out, err := k.newDrainer()
	if err != nil {
		return out, err
	}
	d.once = true
	out += d.step(k.st, k.now)
	return out, d.err()
}

// step does what is due at now: the evictions and looks due, a node
// finished, the next one started. It returns what it printed.
func (d *drainer) step(st *store.Store, now api.Time) string {
	if d.ended {
		return ""
	}
	d.k.st, d.k.now = st, now
	var b strings.Builder
	for {
		if d.node >= 0 {
			d.act(&b, now)
			if !d.nodeDone() {
				break
			}
			d.endNode(&b)
		}
		d.node++
		if d.node >= len(d.nodes) {
			d.end(&b)
			break
		}
		d.beginNode(&b, now)
	}
	return b.String()
}

// beginNode lists the pods of the node to drain, now.
func (d *drainer) beginNode(b *strings.Builder, now api.Time) {
	k, name := d.k, d.nodes[d.node]
	d.pods, d.nodeErr, d.start, d.stoppedBefore = nil, "", now, len(d.stopped)
	victims, warned, refused := k.podsToEvict(name, d.skip)
	if len(refused.msgs) > 0 {
		// kubectl's aggregate of one error is the error; of more, a list.
		msg := refused.join("cannot delete ", ", ")
		if len(refused.msgs) > 1 {
			msg = "[" + msg + "]"
		}
		fmt.Fprintf(b, "error: unable to drain node %q due to error: %s, continuing command...\n", name, msg)
		d.fatal, d.pending = append(d.fatal, msg), append(d.pending, name)
		d.nodeErr = "-" // reported
		return
	}
	if len(warned.msgs) > 0 {
		fmt.Fprintf(b, "Warning: %s\n", warned.join("", "; "))
	}
	for _, p := range victims {
		d.pods = append(d.pods, drainPod{namespace: p.Namespace, name: p.Name, uid: p.UID, next: now})
	}
	if d.evict || len(d.pods) == 0 {
		return
	}
	// --disable-eviction: plain deletes, all at once; no budget is
	// consulted, no DisruptionTarget set. Then the wait for them all.
	for i := range d.pods {
		p := &d.pods[i]
		if _, err := k.st.DeleteWith("Pod", p.namespace, p.name, d.opts); err != nil && !errors.Is(err, store.ErrNotFound) {
			d.nodeErr = err.Error()
			d.failPods("")
			return
		}
		p.state = drainWait
	}
}

// act makes the evictions due at now, then looks at the pods evicted.
func (d *drainer) act(b *strings.Builder, now api.Time) {
	if d.nodeDone() {
		return
	}
	k := d.k
	late := d.timeout > 0 && now >= d.start+d.timeout
	var due []int
	for i, p := range d.pods {
		if p.state == drainEvict && p.next <= now {
			due = append(due, i)
			fmt.Fprintf(b, "evicting pod %s/%s\n", p.namespace, p.name)
		}
	}
	// kubectl evicts the pods at once, each in its own goroutine; here in
	// the order they were listed, their refusals after the "evicting"
	// lines.
	var evicted []string
	for _, i := range due {
		p := &d.pods[i]
		if late {
			p.state, p.err = drainDone, fmt.Sprintf("error when evicting pods/%q -n %q: global timeout reached: %v", p.name, p.namespace, goDuration(d.timeout))
			continue
		}
		err := k.evict(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: p.namespace, Name: p.name}}, d.opts)
		switch {
		case err == nil:
			p.state, p.next = drainWait, now
			if d.once {
				p.state, evicted = drainDone, append(evicted, p.name)
			}
		case errors.Is(err, store.ErrNotFound):
			p.state = drainDone // gone already: nothing is printed
		case isTooManyRequests(err):
			fmt.Fprintf(b, "error when evicting pods/%q -n %q (will retry after %v): %s\n", p.name, p.namespace, goDuration(drainRetry), err)
			p.next = now + drainRetry
			if d.once {
				d.stopped = append(d.stopped, p.name)
				p.state = drainDone
			}
		default:
			p.state, p.err = drainDone, fmt.Sprintf("error when evicting pods/%q -n %q: %s", p.name, p.namespace, err)
		}
	}
	for _, name := range evicted {
		fmt.Fprintf(b, "pod/%s evicted\n", name)
	}
	if d.once && !d.evict {
		for i := range d.pods {
			if p := &d.pods[i]; p.state == drainWait {
				p.state = drainDone
				fmt.Fprintf(b, "pod/%s deleted\n", p.name)
			}
		}
	}
	d.look(b, now)
}

// look is waitForDelete's poll: each pod evicted whose look is due is
// gone (deleted, or another pod of its name) or waited for a second more,
// until the node's timeout.
func (d *drainer) look(b *strings.Builder, now api.Time) {
	late := d.timeout > 0 && now >= d.start+d.timeout
	verb := "evicted"
	if !d.evict {
		verb = "deleted"
	}
	for i := range d.pods {
		p := &d.pods[i]
		if p.state != drainWait || p.next > now {
			continue
		}
		if late {
			if !d.evict {
				// One wait for all the pods deleted: its error is the node's.
				d.nodeErr = "context deadline exceeded"
				d.failPods("")
				return
			}
			p.state, p.err = drainDone, fmt.Sprintf("error when waiting for pod %q in namespace %q to terminate: context deadline exceeded", p.name, p.namespace)
			continue
		}
		cur, _ := d.k.st.Get("Pod", p.namespace, p.name).(*api.Pod)
		switch {
		case cur == nil || cur.UID != p.uid:
			p.state = drainDone
			fmt.Fprintf(b, "pod/%s %s\n", p.name, verb)
		case skipDeleted(cur, d.skip, now):
			p.state = drainDone
			fmt.Fprintf(b, "pod %q has DeletionTimestamp older than %v seconds, skipping\n", p.name, d.skip)
		default:
			p.next = now + drainPoll
			if d.timeout > 0 {
				p.next = min(p.next, d.start+d.timeout)
			}
		}
	}
}

// skipDeleted is shouldSkipPod: --skip-wait-for-delete-timeout is N > 0
// and the pod's deletionTimestamp is more than N seconds past.
func skipDeleted(p *api.Pod, skip int, now api.Time) bool {
	return skip > 0 && p.DeletionTimestamp != nil && int((now-*p.DeletionTimestamp)/api.Second) > skip
}

// failPods ends every pod of the node not done yet, with err.
func (d *drainer) failPods(err string) {
	for i := range d.pods {
		if d.pods[i].state != drainDone {
			d.pods[i].state, d.pods[i].err = drainDone, err
		}
	}
}

func (d *drainer) nodeDone() bool {
	for _, p := range d.pods {
		if p.state != drainDone {
			return false
		}
	}
	return true
}

// endNode ends the node drained, or failed with the errors of its pods
// (kubectl's aggregate: one error is the error, more a list).
func (d *drainer) endNode(b *strings.Builder) {
	name := d.nodes[d.node]
	if d.nodeErr == "-" {
		return
	}
	var errs []string
	if d.nodeErr != "" {
		errs = append(errs, d.nodeErr)
	}
	for _, p := range d.pods {
		if p.err != "" && !slices.Contains(errs, p.err) {
			errs = append(errs, p.err)
		}
	}
	if len(errs) == 0 {
		if len(d.stopped) > d.stoppedBefore {
			return // outside a run: not drained, and no error of the node's
		}
		fmt.Fprintf(b, "node/%s drained\n", name)
		return
	}
	msg := errs[0]
	if len(errs) > 1 {
		msg = "[" + strings.Join(errs, ", ") + "]"
	}
	// kubectl lists what is left on the node, then gives up on it.
	if left := d.k.pendingOn(name, d.skip); len(left) > 0 {
		fmt.Fprintf(b, "There are pending pods in node %q when an error occurred: %s\n", name, msg)
		for _, p := range left {
			fmt.Fprintf(b, "pod/%s\n", p)
		}
	}
	fmt.Fprintf(b, "error: unable to drain node %q due to error: %s, continuing command...\n", name, msg)
	d.fatal, d.pending = append(d.fatal, msg), append(d.pending, name)
}

// end lists the nodes left undrained.
func (d *drainer) end(b *strings.Builder) {
	d.ended = true
	if len(d.pending) > 0 {
		b.WriteString("There are pending nodes to be drained:\n")
		for _, n := range d.pending {
			fmt.Fprintf(b, " %s\n", n)
		}
	}
}

// err is the error the drain ended with, nil when it drained every node.
func (d *drainer) err() error {
	fatal := d.fatal
	if d.once && len(d.stopped) > 0 {
		fatal = append(slices.Clip(fatal), fmt.Sprintf("drain made its first evictions only: %d pod(s) not evicted (%s): kubectl retries every 5s until --timeout; a run carries the drain on",
			len(d.stopped), strings.Join(d.stopped, ", ")))
	}
	if len(fatal) == 0 {
		return nil
	}
	return fmt.Errorf("error: %s", strings.Join(fatal, "\nerror: "))
}

// next is when the drain acts again.
func (d *drainer) next() (api.Time, bool) {
	var at api.Time
	ok := false
	for _, p := range d.pods {
		if p.state != drainDone && (!ok || p.next < at) {
			at, ok = p.next, true
		}
	}
	return at, ok && !d.ended
}

// wouldAct reports whether acting at now would change anything: a pod
// evicted is gone, an eviction due would not be refused, or the node's
// timeout ends something.
func (d *drainer) wouldAct(st *store.Store, now api.Time) bool {
	if d.ended {
		return false
	}
	if d.timeout > 0 && now >= d.start+d.timeout {
		return true
	}
	for _, p := range d.pods {
		if p.state == drainDone || p.next > now {
			continue
		}
		cur, _ := st.Get("Pod", p.namespace, p.name).(*api.Pod)
		if p.state == drainWait {
			if cur == nil || cur.UID != p.uid || skipDeleted(cur, d.skip, now) {
				return true
			}
			continue
		}
		if cur == nil {
			return true
		}
		k := *d.k
		k.st = st
		if _, err := k.evictionBudget(cur); !isTooManyRequests(err) {
			return true
		}
	}
	return false
}

func (d *drainer) clone() *drainer {
	c := *d
	k := *d.k
	c.k = &k
	c.pods = slices.Clone(d.pods)
	c.nodes = slices.Clip(d.nodes)
	c.fatal, c.pending, c.stopped = slices.Clip(d.fatal), slices.Clip(d.pending), slices.Clip(d.stopped)
	return &c
}

// goDuration writes d as Go's time.Duration prints it ("5s", "1m30s").
func goDuration(d api.Duration) string { return (time.Duration(d) * time.Millisecond).String() }

// StartDrain starts line when it is a kubectl drain (without "kubectl"),
// at simulated time now: it cordons the nodes and makes the first
// evictions, writing to st. It reports false, writing nothing, for any
// other line (and for a drain piped to head, which Run answers). The
// drain has ended when ended: out is then its whole output, code its exit
// code; otherwise it goes on as a watching command (Watch.NextAct,
// Watch.ActAt), out its output so far.
func StartDrain(st *store.Store, now api.Time, line string) (w *Watch, out string, code int, ended, ok bool) {
	if len(line) > limits.MaxLine {
		return nil, "", 0, false, false
	}
	rest, head, err := cutHead(line)
	if err != nil || head >= 0 {
		return nil, "", 0, false, false
	}
	in, err := Parse(rest)
	if err != nil || in.Command != "drain" || in.Help != nil {
		return nil, "", 0, false, false
	}
	k := &cmd{st: st, now: now, in: in, ns: in.String("namespace", "default"), room: limits.MaxOutput}
	w = &Watch{Command: "kubectl " + strings.TrimSpace(line), kind: "drain"}
	w.add(strings.Join(in.Warnings, ""))
	d, first, err := k.newDrainer()
	w.add(first)
	if err != nil {
		return nil, w.Output() + errorText(err), 1, true, true
	}
	w.drain = d
	w.add(d.step(st, now))
	if out, code, ended := w.drainEnded(); ended {
		return nil, out, code, true, true
	}
	return w, w.Output(), -1, false, true
}

// drainEnded is the drain's whole output and exit code once it has ended
// (or printed limits.MaxOutput).
func (w *Watch) drainEnded() (string, int, bool) {
	switch {
	case w.full:
		return w.Output(), 1, true
	case !w.drain.ended:
		return "", 0, false
	}
	if err := w.drain.err(); err != nil {
		return w.Output() + errorText(err), 1, true
	}
	return w.Output(), 0, true
}

// Verb is the command's verb as kubectl names it: "rollout status",
// "wait", "get", "events" or "drain".
func (w *Watch) Verb() string {
	if w.kind == "rollout" {
		return "rollout status"
	}
	return w.kind
}

// NextAct is when a command that acts on its own clock (a drain) acts
// again; false for none, and for every other command.
func (w *Watch) NextAct() (api.Time, bool) {
	if w.drain == nil || w.full {
		return 0, false
	}
	return w.drain.next()
}

// ActAt has a drain act at now (NextAct): the evictions due, the looks
// at the pods evicted, writing to st. It returns the output so far, and
// whether the command has ended and with which exit code.
func (w *Watch) ActAt(st *store.Store, now api.Time) (output string, ended bool, code int) {
	if w.drain == nil {
		return w.CheckAt(st, now)
	}
	w.lastObserved = now
	w.add(w.drain.step(st, now))
	if out, code, ended := w.drainEnded(); ended {
		return out, true, code
	}
	return w.Output(), false, 0
}

// WouldAct reports whether ActAt at now would change anything (Quiet
// asks): false for a drain whose evictions due would be refused again
// and whose pods evicted are all still there.
func (w *Watch) WouldAct(st *store.Store, now api.Time) bool {
	return w.drain != nil && !w.full && w.drain.wouldAct(st, now)
}
