package sim

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/fault"
	"reconcile/engine/queue"
)

// checkFault checks what a fault names that only the run knows: that a
// controller is one of the run's registry, that a node exists.
func (s *Sim) checkFault(f Fault) error {
	if err := fault.CheckController(s.cfg.specs(), f.Fault); err != nil {
		return err
	}
	if f.Verb == fault.NodeDown || f.Verb == fault.NodeUp {
		if _, ok := s.w.kubelets[f.Target]; !ok {
			return fmt.Errorf("%s: no node named %q", f.Verb, f.Target)
		}
	}
	return nil
}

// fault applies a fault and notes it. A fault the run cannot apply (a node
// it does not have) is noted as refused and changes nothing.
func (s *Sim) fault(w *world, f Fault) {
	if err := s.checkFault(f); err != nil {
		w.note(Note{Fault: f, Refused: true, Words: err.Error()})
		return
	}
	w.note(Note{Fault: f})
	switch f.Verb {
	case fault.NodeDown:
		node := f.Target
		w.nodeUp.Set(node, false)
		w.beatStop(node)
		i := w.kubelets[node]
		w.halt(w.proc(i))
		w.proc(i).stopped = true
	case fault.NodeUp:
		node := f.Target
		if w.NodeUp(node) {
			return
		}
		w.nodeUp.Set(node, true)
		w.start(w.kubelets[node], queue.NodeStarted)
		w.beatStart(node)
	case fault.DeletePod:
		w.deletePod(f)
	case fault.CPU:
		w.setCPU(f)
	case fault.DropWatch, fault.DuplicateWatch, fault.DelayWatch, fault.Crash, fault.Stop, fault.Start, fault.Sync:
		for _, i := range w.procIndex(f.Target) {
			w.detach(i) // a fault aimed at one controller: a watch of its own
			c := w.proc(i)
			switch f.Verb {
			case fault.DropWatch:
				c.drop += f.Count
			case fault.DuplicateWatch:
				c.dup += f.Count
			case fault.DelayWatch:
				c.delay = f.Delay
			case fault.Crash:
				c.crashNext = true
			case fault.Stop:
				w.halt(c)
				c.stopped = true
				if c.host != "" {
					w.beatStop(c.host)
				}
			case fault.Start:
				if !c.running && (c.host == "" || w.NodeUp(c.host)) {
					w.start(i, queue.Started)
					if c.host != "" {
						w.beatStart(c.host)
					}
				}
			case fault.Sync:
				w.sync(i)
			}
		}
	case fault.PushImage:
		w.registry.Push(f.Target, f.Digest)
	case fault.FailProbe, fault.PassProbe:
		w.registry.SetProbe(f.Target, f.Probe, f.Verb == fault.PassProbe)
		w.probeChanged(f)
	case fault.WebhookDown:
		w.store.SetWebhookDown(f.Target, true)
	case fault.WebhookUp:
		w.store.SetWebhookDown(f.Target, false)
	}
	w.drain()
}

// deletePod deletes the pod a delete-pod fault names ("web-x",
// "shop/web-x") or, given a label selector ("app=web"), the first active
// pod (by name) it matches.
func (w *world) deletePod(f Fault) {
	target := f.Target
	ns, name := "default", target
	if i := strings.Index(name, "/"); i >= 0 {
		ns, name = name[:i], name[i+1:]
	}
	if strings.Contains(name, "=") {
		sel := &api.LabelSelector{MatchLabels: map[string]string{}}
		for _, kv := range strings.Split(name, ",") {
			k, v, _ := strings.Cut(kv, "=")
			sel.MatchLabels[k] = v
		}
		name = ""
		for _, o := range w.store.List("Pod") {
			if o.Meta().Namespace == ns && o.Meta().DeletionTimestamp == nil && sel.Matches(o.Meta().Labels) {
				name = o.Meta().Name
				break
			}
		}
		if name == "" {
			w.note(Note{Fault: f, Words: "no active pod matches " + target})
			return
		}
	}
	if _, err := w.store.Delete("Pod", ns, name, false); err != nil {
		w.note(Note{Fault: f, Words: err.Error()})
	}
}
