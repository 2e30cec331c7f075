package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kubectl"
	"reconcile/engine/sim"
)

// writeText prints one line per pass (those --passes shows), how the run
// stopped, then what each kubectl step printed.
func writeText(out io.Writer, s *sim.Sim, stop sim.Stop, show passShow) {
	w := bufio.NewWriterSize(out, 64<<10)
	defer w.Flush()
	shown := show.of(s.Passes())
	if n := s.PassCount() - len(shown); n > 0 && len(shown) > 0 {
		fmt.Fprintf(w, "(%s before these not shown)\n", passes(n))
	}
	for _, p := range shown {
		fmt.Fprintln(w, passLine(p))
	}
	if lines := s.FormatTraffic(30 * api.Second); len(lines) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, strings.Join(lines, "\n"))
	}
	fmt.Fprintf(w, "stopped after %s: %s\n", passes(s.PassCount()), stop.Text)
	outputs := s.Outputs()
	if len(outputs) == 0 {
		return
	}
	fmt.Fprintln(w)
	for _, o := range outputs {
		fmt.Fprintln(w, outputHeader(o))
		if o.Output != "" {
			fmt.Fprint(w, o.Output)
			if !strings.HasSuffix(o.Output, "\n") {
				fmt.Fprintln(w)
			}
		}
	}
}

// passLine renders a pass in the loop's words:
//
//	#12 t=34s replicaset-controller default/web-7d9c  desired 5 · observed 3 · difference +2 → create 2 pods
func passLine(p sim.Pass) string {
	at := p.AtText
	if at == "" {
		at = api.FormatDuration(p.At)
	}
	return fmt.Sprintf("#%d t=%s %s %s  desired %s · observed %s · difference %s → %s",
		p.N, at, p.Controller, p.Key, p.Desired, p.Observed, p.Difference, actionSummary(p))
}

// actionSummary sums up a pass's actions: repeated verbs are counted
// ("create 2 pods"), a single action is shown whole, and a pass with no
// action shows its outcome.
func actionSummary(p sim.Pass) string {
	if len(p.Actions) == 0 {
		if p.Outcome == "" {
			return "no action"
		}
		return p.Outcome
	}
	type group struct {
		verb    string
		actions []string
	}
	var groups []*group
	for _, a := range controller.ActionWords(p.Actions) {
		verb, _, _ := strings.Cut(a, " ")
		if n := len(groups); n > 0 && groups[n-1].verb == verb {
			groups[n-1].actions = append(groups[n-1].actions, a)
			continue
		}
		groups = append(groups, &group{verb: verb, actions: []string{a}})
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		if len(g.actions) == 1 {
			parts[i] = g.actions[0]
			continue
		}
		parts[i] = fmt.Sprintf("%s %d %s", g.verb, len(g.actions), objectsNoun(p.Controller, g.actions))
	}
	s := strings.Join(parts, ", ")
	if p.Result == controller.Failed || p.Result == controller.Crashed {
		s += " (" + p.Outcome + ")"
	}
	return s
}

// objectsNoun names what a group of actions acted on, from the actions'
// own words ("create pod web-x", "delete pod/web-y"), or pods for the
// replicaset controller.
func objectsNoun(ctrl string, actions []string) string {
	kind := ""
	for _, a := range actions {
		fields := strings.Fields(a)
		k := ""
		switch {
		case len(fields) >= 3 && !strings.Contains(fields[1], "/"):
			k = fields[1]
		case len(fields) >= 2 && strings.Contains(fields[1], "/"):
			k, _, _ = strings.Cut(fields[1], "/")
		}
		if k == "" || (kind != "" && k != kind) {
			kind = ""
			break
		}
		kind = k
	}
	switch {
	case kind != "":
		return kind + "s"
	case ctrl == controller.ReplicaSetController:
		return "pods"
	}
	return "objects"
}

// outputHeader introduces a recorded output: "t=3m $ kubectl rollout status deployment/web".
func outputHeader(o sim.Output) string {
	at := o.AtText
	if at == "" {
		at = api.FormatDuration(o.At)
	}
	cmd := o.Command
	if verb, _, _ := strings.Cut(cmd, " "); !strings.HasPrefix(cmd, "kubectl") && isKubectlVerb(verb) {
		cmd = "kubectl " + cmd
	}
	h := fmt.Sprintf("t=%s $ %s", at, cmd)
	if o.ExitCode != 0 {
		h += fmt.Sprintf("   [exit %d]", o.ExitCode)
	}
	return h
}

func isKubectlVerb(w string) bool {
	for _, v := range kubectl.Verbs {
		if v == w {
			return true
		}
	}
	return false
}
