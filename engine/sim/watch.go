package sim

import (
	"strconv"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
)

// watching is a kubectl command still watching (rollout status): it
// started at start, and its output is recorded when it ends.
type watching struct {
	id    string
	start api.Time
	cmd   *kubectl.Watch
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
