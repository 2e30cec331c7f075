package sim

import (
	"strconv"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
)

// watching is a kubectl command still watching (rollout status): it
// started at start, and its output is recorded when it ends. A command
// that acts on its own clock (drain) acts at due, an item of the agenda
// (itemAct); an item due at another moment is stale.
type watching struct {
	id    string
	start api.Time
	cmd   *kubectl.Watch
	due   api.Time
}

// startWatch begins line when it is a watching command that cannot answer
// at once. It reports false for any other line.
func (w *world) startWatch(line string) bool {
	cmd, ok := kubectl.WatchingAt(w.store, w.now, line)
	if !ok {
		return false
	}
	w.seq++
	wt := watching{id: strconv.FormatUint(w.seq, 10), start: w.now, cmd: cmd}
	w.watches = append(w.watches, wt)
	if cmd.Timeout > 0 {
		w.schedule(item{at: w.now + cmd.Timeout, kind: itemTimeout, key: wt.id})
	}
	w.checkWatches()
	return true
}

// startDrain begins kubectl drain when in is one: it cordons and makes
// its first evictions now, an input's writes as any command's; a drain
// that must go on (evictions refused, evicted pods not gone yet) goes on
// as a watching command that writes (actWatch). It reports false for any
// other command.
func (w *world) startDrain(in Kubectl) bool {
	cmd, out, code, ended, ok := kubectl.StartDrain(w.store, w.now, in.Line)
	if !ok {
		return false
	}
	if ended {
		w.record(Output{At: w.now, AtText: w.now.String(), Command: in.Text(), Output: out, ExitCode: code})
		return true
	}
	w.drain() // what it wrote, before anything looks
	w.seq++
	wt := watching{id: strconv.FormatUint(w.seq, 10), start: w.now, cmd: cmd}
	w.watches = append(w.watches, wt)
	w.scheduleAct(len(w.watches) - 1)
	w.checkWatches()
	return true
}

// scheduleAct puts the next moment the i-th watching command acts at on
// the agenda, unless it is there already.
func (w *world) scheduleAct(i int) {
	wt := &w.watches[i]
	at, ok := wt.cmd.NextAct()
	if !ok || (wt.due == at && wt.due != 0) {
		return
	}
	wt.due = at
	w.schedule(item{at: at, kind: itemAct, key: wt.id})
}

// watchDue is the command watching with id that acts at at, nil when the
// item is stale (the command has ended, or acts at another moment).
func (w *world) watchDue(id string, at api.Time) *watching {
	for i := range w.watches {
		if wt := &w.watches[i]; wt.id == id && wt.due == at {
			return wt
		}
	}
	return nil
}

// actWatch has the command watching with id act, as kubectl does at its
// own moments (a drain retries a refused eviction 5s later, and polls each
// evicted pod every second until it is gone): its writes are kubectl's,
// made now, seen by the controllers as an input's are.
func (w *world) actWatch(id string, at api.Time) {
	for i := range w.watches {
		wt := w.watches[i]
		if wt.id != id || wt.due != at {
			continue
		}
		before, writes := len(wt.cmd.Output()), w.writes
		out, ended, code := wt.cmd.ActAt(w.store, w.now)
		w.drain()
		if w.writes > writes {
			printed := ""
			if before <= len(out) {
				printed = out[before:]
			}
			a := Act{After: w.npass, At: w.now, AtText: w.now.String(), Command: wt.cmd.Command, Started: wt.start.String(), Output: printed}
			w.acts = append(w.acts, a)
			w.hash(a)
		}
		if ended {
			w.watches = append(w.watches[:i:i], w.watches[i+1:]...)
			w.endWatch(wt, out, code)
		} else {
			w.scheduleAct(i)
		}
		w.checkWatches()
		return
	}
}

// watchByList, set by tests, has the watching commands list every object
// they watch at each look (CheckAt), as they did before they read the
// feed, to check that both print the same.
var watchByList bool

// checkWatches has every watching command look at the store again: at
// what the store did since they last looked (watchFeed, and what is not
// drained yet), not at every object, so that a watch costs what changed,
// not the world's size.
func (w *world) checkWatches() {
	if len(w.watches) == 0 {
		clear(w.watchFeed) // what the last watch to end did not read
		w.watchFeed = w.watchFeed[:0]
		return
	}
	// The feed is taken: a watch that ends records its output, which
	// drains into a new one.
	feed := append(w.watchFeed, w.store.Pending()...)
	w.watchFeed = nil
	keep := w.watches[:0:0]
	for _, wt := range w.watches {
		var out string
		var ended bool
		var code int
		if watchByList {
			out, ended, code = wt.cmd.CheckAt(w.store, w.now)
		} else {
			out, ended, code = wt.cmd.CheckChanges(w.store, w.now, feed)
		}
		if ended {
			w.endWatch(wt, out, code)
			continue
		}
		keep = append(keep, wt)
	}
	w.watches = keep
	if w.watchFeed == nil {
		clear(feed) // keep no object alive
		w.watchFeed = feed[:0]
	}
}

func (w *world) endWatch(wt watching, out string, code int) {
	w.record(Output{At: wt.start, AtText: wt.start.String(), Command: wt.cmd.Command,
		Output: out, ExitCode: code, Ended: w.now.String()})
}

func (w *world) timeoutWatch(id string) {
	for i, wt := range w.watches {
		if wt.id == id {
			w.watches = append(w.watches[:i:i], w.watches[i+1:]...)
			out, code := wt.cmd.Expired()
			w.endWatch(wt, out, code)
			return
		}
	}
}

// pendingOutputs shows the watching commands as outputs still running
// (exit code -1).
func (w *world) pendingOutputs() []Output {
	var out []Output
	for _, wt := range w.watches {
		out = append(out, Output{At: wt.start, AtText: wt.start.String(), Command: wt.cmd.Command, Output: wt.cmd.Output(), ExitCode: -1})
	}
	return out
}

// interruptWatch ends the latest command still watching whose line is
// command, as Ctrl+C does: its output so far, "^C", exit code 130. It
// reports whether one was watching.
func (w *world) interruptWatch(command string) bool {
	for i := len(w.watches) - 1; i >= 0; i-- {
		wt := w.watches[i]
		if wt.cmd.Command == command {
			w.watches = append(w.watches[:i:i], w.watches[i+1:]...)
			w.endWatch(wt, wt.cmd.Output()+"^C\n", 130)
			return true
		}
	}
	return false
}

// Acts returns what kubectl commands still running wrote on their own
// clock (a drain's evictions tried again), in order. The slice is shared:
// do not change it.
func (s *Sim) Acts() []Act { return s.w.acts }

// Acting returns the verbs of the kubectl commands still running that
// act on their own clock ("drain": it writes again every few seconds), in
// the order they were given: the controllers may have converged while one
// still waits for what it asked.
func (s *Sim) Acting() []string {
	var out []string
	for _, wt := range s.w.watches {
		if _, ok := wt.cmd.NextAct(); ok {
			out = append(out, wt.cmd.Verb())
		}
	}
	return out
}

// Watching reports whether a kubectl command with line command ("kubectl
// get pods -w") is still watching.
func (s *Sim) Watching(command string) bool {
	for _, wt := range s.w.watches {
		if wt.cmd.Command == command {
			return true
		}
	}
	return false
}
