package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/limits"
	"reconcile/engine/store"
)

// Run executes one command line (without the leading "kubectl") at
// simulated time now and returns its output and exit code. Output is what
// kubectl prints to stdout and stderr, in the order it prints them.
func Run(st *store.Store, now api.Time, line string) (string, int) {
	r := Exec(st, now, line)
	return r.Output, r.Code
}

// Result is what a command did: what it printed, its exit code, and the
// error it ended with (nil when it succeeded), typed where a caller reads
// it (*LimitError).
type Result struct {
	Output string
	Code   int
	Err    error
}

// Exec is Run, its error kept.
func Exec(st *store.Store, now api.Time, line string) Result {
	return ExecWithin(st, now, line, limits.MaxOutput)
}

// ExecWithin is Exec for a caller that keeps at most room bytes of the
// output (a run that has printed near MaxRunOutput: limits.MaxOutput or
// less): a list printed as JSON or YAML stops being rendered, an object
// at a time, once it is past room, so that what will be cut or not kept
// is never rendered whole. The output is then a prefix of the whole,
// longer than room: cut at MaxOutput as the whole would be.
func ExecWithin(st *store.Store, now api.Time, line string, room int) Result {
	return execWith(st, now, line, room, nil, false, nil)
}

// ExecCluster is ExecWithin against a cluster that serves the metrics API
// m (kubectl top reads it); nil is a cluster without metrics-server.
func ExecCluster(st *store.Store, now api.Time, line string, room int, m Metrics) Result {
	return execWith(st, now, line, room, nil, false, m)
}

// execWith is ExecWithin of a command given stdin (piped): the manifests
// kubectl diff -f - reads.
func execWith(st *store.Store, now api.Time, line string, room int, stdin []Stdin, piped bool, m Metrics) Result {
	if len(line) > limits.MaxLine {
		return Result{fmt.Sprintf("error: command line is %d bytes; the limit is %d (MaxLine)\n", len(line), limits.MaxLine), 1, nil}
	}
	line, head, err := cutHead(line)
	if err != nil {
		return Result{errorText(err), 1, err}
	}
	in, err := Parse(line)
	if err != nil {
		if w := strings.Fields(line); len(w) > 0 && w[0] == "diff" {
			// kubectl diff's flag errors: exit code 2 (1 says "differences
			// found"), and its own pointer to the help.
			msg := strings.Replace(errorText(err), "See 'kubectl diff --help' for usage.", "See 'kubectl diff -h' for help and examples", 1)
			return Result{msg, 2, err}
		}
		return Result{errorText(err), 1, err}
	}
	if in.Command == "" || in.Command == "help" {
		return Result{help(), 0, nil}
	}
	if in.Help != nil {
		return Result{commandHelp(in.Help), 0, nil}
	}
	k := &cmd{st: st, now: now, in: in, ns: in.String("namespace", "default"), room: max(room, 1), stdin: stdin, piped: piped, metrics: m}
	out, err := k.run()
	out = strings.Join(in.Warnings, "") + out
	code := k.code
	if err != nil {
		out, code = out+errorText(err), max(k.errCode, 1)
	}
	if head >= 0 {
		out, code = firstLines(out, head), 0
	}
	if cut, ok := limits.CutOutput(out); ok {
		out, code = cut, 1
	}
	return Result{out, code, err}
}

// cmd is one command being run.
type cmd struct {
	st  *store.Store
	now api.Time
	in  *Invocation
	ns  string
	// room is how much of the output is kept (ExecWithin); 0: all.
	room int
	// stdin is what the command reads from stdin, if piped (-f -).
	stdin []Stdin
	piped bool
	// metrics is the metrics API kubectl top reads (nil: not served).
	metrics Metrics
	// code is the exit code of a command that succeeds (0 unless set:
	// kubectl diff's 1 when it finds differences); errCode that of one
	// that fails (1 unless set).
	code, errCode int
}

func (k *cmd) run() (string, error) {
	switch k.in.Command {
	case "get":
		return k.get()
	case "describe":
		return k.describe()
	case "delete":
		return k.delete()
	case "scale":
		return k.scale()
	case "set image":
		return k.setImage()
	case "set resources":
		return k.setResources()
	case "taint":
		return k.taint()
	case "expose":
		return k.expose()
	case "autoscale":
		return k.autoscale()
	case "patch":
		return k.patch()
	case "label", "annotate":
		return k.label()
	case "cordon", "uncordon":
		return k.cordon()
	case "drain":
		return k.drain()
	case "create deployment":
		return k.createDeployment()
	case "create namespace":
		return k.createNamespace()
	case "create poddisruptionbudget":
		return k.createPDB()
	case "wait":
		return k.wait()
	case "events":
		return k.events()
	case "top pod":
		return k.topPod()
	case "top node":
		return k.topNode()
	case "api-resources":
		return k.apiResources()
	case "diff":
		return k.diff()
	case "apply":
		return "", errors.New("error: kubectl apply needs manifests: use the Desired state editor (apply -f -)")
	}
	if strings.HasPrefix(k.in.Command, "rollout ") {
		return k.rollout(strings.TrimPrefix(k.in.Command, "rollout "))
	}
	return "", fmt.Errorf("error: kubectl %s is not simulated here", k.in.Command)
}

func help() string {
	return `kubectl controls the simulated cluster.

Commands:
  get TYPE[,TYPE...] [NAME...] [-l SELECTOR] [--field-selector F] [-o wide|name|yaml|json|jsonpath=...|custom-columns=...|go-template=...] [-w]
  describe TYPE [NAME...] [-l SELECTOR]
  scale TYPE/NAME --replicas=N
  autoscale TYPE/NAME --max=N [--min=N] [--cpu-percent=P]
  set image deployment/NAME CONTAINER=IMAGE
  set resources TYPE/NAME [-c CONTAINER] --limits=cpu=200m,memory=512Mi [--requests=...]
  expose TYPE/NAME [--port=P] [--target-port=P] [--type=ClusterIP|NodePort|LoadBalancer] [--name=NAME]
  taint NODE key=value:Effect | key[:Effect]- [--overwrite]
  delete TYPE NAME... | -l SELECTOR | --all  [--cascade=background|foreground|orphan] [--grace-period=N --force]
  rollout (status|undo|history|pause|resume|restart) deployment/NAME
  api-resources [--api-group=GROUP] [--namespaced=true|false] [--sort-by=name|kind] [-o name]
  diff -f - [-l SELECTOR] [--prune]   (the manifests on stdin: in a lesson, a diff: step)
  events [--for TYPE/NAME] [--types=Normal,Warning] [-A] [-w]
  top pod [NAME | -l SELECTOR] [-A] [--containers] [--sort-by=cpu|memory] [--sum] | top node [NAME] [--show-capacity]
  wait TYPE/NAME... | TYPE -l SELECTOR | TYPE --all  --for=condition=TYPE[=STATUS]|jsonpath={PATH}[=VALUE]|delete|create [--timeout=30s]
  cordon NODE | uncordon NODE | drain NODE [--ignore-daemonsets] [--force]
  create deployment NAME --image=IMAGE [--replicas=N]
  create namespace NAME
  create poddisruptionbudget NAME --selector=SELECTOR --min-available=N|--max-unavailable=N
  patch TYPE/NAME -p '{"spec":{"replicas":3}}' [--type=merge|json|strategic]
  label|annotate TYPE/NAME... key=value key- [--overwrite] [-l SELECTOR | --all]

Use "kubectl COMMAND --help" for the flags a command takes.
`
}

// commandHelp is a command's usage, as kubectl COMMAND --help gives it:
// its flags with their defaults (then the global ones, which every command
// takes), each flag this kubectl refuses with why, each it takes without
// effect with why.
func commandHelp(c *Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage:\n  kubectl %s [options]\n\nOptions:\n", c.Path)
	write := func(fs []Flag) {
		for _, f := range fs {
			name := "    --" + f.Name
			if f.Short != "" {
				name = "-" + f.Short + ", --" + f.Name
			}
			if f.Default != "" {
				name += "=" + f.Default
			}
			switch {
			case f.Refused != "":
				name += "  (refused here: " + f.Refused + ")"
			case f.Ignored != "":
				name += "  (taken, no effect here: " + f.Ignored + ")"
			}
			fmt.Fprintf(&b, "  %s\n", name)
		}
	}
	write(c.Flags)
	b.WriteString("\nGlobal options:\n")
	write(GlobalFlags())
	return b.String()
}

// StatusError is an error from the simulated API server, printed as
// kubectl prints one: "Error from server (Reason): message".
func statusError(reason, format string, args ...any) error {
	return &store.StatusError{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// errorText renders an error as kubectl prints it, ending in a newline.
func errorText(err error) string {
	msg := err.Error()
	var se *store.StatusError
	switch {
	case strings.HasPrefix(msg, "error:") || strings.HasPrefix(msg, "The ") || strings.HasPrefix(msg, "Error from server") ||
		strings.HasPrefix(msg, "You must specify") || strings.HasPrefix(msg, "warning:"):
	case errors.As(err, &se):
		msg = fmt.Sprintf("Error from server (%s): %s", se.Reason, msg)
	default:
		msg = "error: " + msg
	}
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	return msg
}

// errorsText renders several errors, one after another.
func errorsText(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(errorText(e))
	}
	return errors.New(strings.TrimSuffix(b.String(), "\n"))
}

func (k *cmd) namespace(kind string) string {
	if kd, _ := api.KindOf(kind); !kd.Namespaced {
		return ""
	}
	return k.ns
}

func (k *cmd) obj(kind, name string) (api.Object, error) {
	o := k.st.Get(kind, k.namespace(kind), name)
	if o == nil {
		return nil, store.NotFound(kind, name)
	}
	return o, nil
}

func age(now, t api.Time) string { return api.HumanDuration(now - t) }

// qualified is the kind as kubectl names it in messages: "deployment.apps".
func qualified(kind string) string {
	k, _ := api.KindOf(kind)
	return k.Qualified()
}

// splitArgs splits a command line into words as a shell would for the
// cases kubectl lines use: spaces separate, single and double quotes group.
func splitArgs(line string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

// cutHead splits off a trailing "| head -n N" (or "| head -N", "| head"),
// the one pipe this kubectl takes: it bounds what a watching command
// prints. head is -1 when there is none.
func cutHead(line string) (string, int, error) {
	quote := rune(0)
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '|':
			f := strings.Fields(line[i+1:])
			n := -1
			switch {
			case len(f) == 1 && f[0] == "head":
				n = 10
			case len(f) == 2 && f[0] == "head" && strings.HasPrefix(f[1], "-"):
				if v, ok := leadingInt(f[1][1:]); ok {
					n = v
				}
			case len(f) == 3 && f[0] == "head" && f[1] == "-n":
				if v, ok := leadingInt(f[2]); ok {
					n = v
				}
			}
			if n < 0 {
				return "", 0, errors.New("error: this console pipes only into head: | head -n N")
			}
			return strings.TrimSpace(line[:i]), n, nil
		}
	}
	return line, -1, nil
}

// firstLines keeps the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "")
}

// checkReplicas refuses a workload larger than the playground simulates.
func checkReplicas(n int32) error {
	if n > limits.MaxReplicas {
		return &LimitError{Replicas: n}
	}
	return nil
}

// LimitError is kubectl's refusal of a workload asking for more replicas
// than the playground simulates (MaxReplicas): nothing was changed.
type LimitError struct{ Replicas int32 }

func (e *LimitError) Error() string { return "error: " + e.Plain() }

// Plain is the refusal without kubectl's "error: ".
func (e *LimitError) Plain() string {
	return fmt.Sprintf("%d replicas is more than this playground simulates: the limit is %d per workload (MaxReplicas)", e.Replicas, limits.MaxReplicas)
}
