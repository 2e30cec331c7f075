package kubectl

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The grammar of kubectl's command line, as cobra and pflag read it: the
// commands, each with its flags, and the global flags every command takes.
// Run and Check both read a line through Parse, so a lesson is refused at
// load with the words kubectl would answer it with at run time.

// FlagKind is the type of a flag's value.
type FlagKind int

// Flag value types, as pflag names them in messages.
const (
	BoolFlag FlagKind = iota
	StringFlag
	IntFlag
	DurationFlag
	ListFlag // repeatable, and comma-separated values split
)

// Flag is one flag of a command.
type Flag struct {
	Name, Short string
	Kind        FlagKind
	// Default is the default kubectl shows in its help.
	Default string
	// Refused, when not empty, is why this kubectl does not take the flag
	// (real kubectl does); the flag is refused with it. Ignored flags are
	// taken and change nothing here (Ignored says why).
	Refused, Ignored string
}

// Command is a kubectl command this kubectl simulates: its path ("get",
// "rollout status") and its flags (the global flags aside).
type Command struct {
	Path  string
	Flags []Flag
}

// The grammar's table is data, read at its first use: one command a line
// ("*" for the global flags every command takes), then each of its flags
// on a line of its own, indented: its name (and /SHORT), its kind (b bool,
// s string, i int, d duration, l list), the default kubectl shows in its
// help ("_" for none), and then either "!" and why this kubectl refuses
// it, or "~" and why it takes it and changes nothing. A reason shared by
// many flags is named (!files, !dry-run, !cluster, !raw). Built in Go, the
// same table cost 54 KB of init code in app.wasm, run at every start.
const grammarTable = `*
	namespace/n s ''
	request-timeout s '0'
	as s '' !cluster
	as-group l [] !cluster
	as-uid s '' !cluster
	cache-dir s '$HOME/.kube/cache' ~nothing is cached
	certificate-authority s '' !cluster
	client-certificate s '' !cluster
	client-key s '' !cluster
	cluster s '' !cluster
	context s '' !cluster
	disable-compression b false ~nothing goes over a network
	insecure-skip-tls-verify b false !cluster
	kubeconfig s '' !cluster
	log-flush-frequency d 5s ~there is no log
	match-server-version b false ~client and server are one
	password s '' !cluster
	profile s 'none' ~there is no profiler
	profile-output s 'profile.pprof' ~there is no profiler
	server/s s '' !cluster
	tls-server-name s '' !cluster
	token s '' !cluster
	user s '' !cluster
	username s '' !cluster
	v/v i 0 ~there is no log
	vmodule s _ ~there is no log
	warnings-as-errors b false ~warnings are printed as kubectl prints them
get
	all-namespaces/A b false
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	chunk-size i 500 ~lists are not paged here
	field-selector s ''
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	ignore-not-found b false
	label-columns/L l []
	no-headers b false
	output-watch-events b false
	raw s '' !raw
	selector/l s ''
	server-print b true ~the table is printed here, as the server would
	show-kind b false
	show-labels b false
	sort-by s ''
	subresource s ''
	watch/w b false
	watch-only b false
describe
	all-namespaces/A b false
	chunk-size i 500 ~lists are not paged here
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	selector/l s ''
	show-events b true
delete
	all b false
	all-namespaces/A b false
	cascade s 'background'
	dry-run s 'none' !dry-run
	field-selector s ''
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	force b false
	grace-period i -1
	ignore-not-found b false
	interactive/i b false !there is no terminal to answer from
	now b false
	output/o s ''
	raw s '' !raw
	selector/l s ''
	timeout d 0s ~a deletion is stored at once
	wait b true ~a deletion is stored at once; what follows it shows in the run
scale
	all b false
	current-replicas s -1
	dry-run s 'none' !dry-run
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	record b false
	replicas i 0
	resource-version s '' !preconditions on resourceVersion are not simulated
	selector/l s ''
	timeout d 0s ~scale returns once the change is stored
set image
	all b false
	dry-run s 'none' !dry-run
	field-manager s 'kubectl-set' ~field managers are not simulated
	local b false !files
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	record b false
	selector/l s ''
patch
	dry-run s 'none' !dry-run
	field-manager s 'kubectl-patch' ~field managers are not simulated
	local b false !files
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	patch/p s ''
	patch-file s '' !files
	record b false
	subresource s ''
	type s 'strategic'
label
	all b false
	all-namespaces/A b false
	dry-run s 'none' !dry-run
	field-manager s 'kubectl-label' ~field managers are not simulated
	field-selector s ''
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	list b false
	local b false !files
	overwrite b false
	record b false
	resource-version s '' !preconditions on resourceVersion are not simulated
	selector/l s ''
annotate
	all b false
	all-namespaces/A b false
	dry-run s 'none' !dry-run
	field-manager s 'kubectl-annotate' ~field managers are not simulated
	field-selector s ''
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	list b false
	local b false !files
	overwrite b false
	record b false
	resource-version s '' !preconditions on resourceVersion are not simulated
	selector/l s ''
taint
	all b false
	dry-run s 'none' !dry-run
	field-manager s 'kubectl-taint' ~field managers are not simulated
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	overwrite b false
	selector/l s ''
	validate s 'strict' ~the API server validates every object here
set resources
	all b false
	containers/c s '*'
	dry-run s 'none' !dry-run
	field-manager s 'kubectl-set' ~field managers are not simulated
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	limits s ''
	local b false !files
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	requests s ''
	selector/l s ''
expose
	cluster-ip s ''
	dry-run s 'none' !dry-run
	external-ip s ''
	field-manager s 'kubectl-expose' ~field managers are not simulated
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	labels/l s ''
	load-balancer-ip s '' !no cloud provider is simulated
	name s ''
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	override-type s 'merge' !overrides are not simulated
	overrides s '' !overrides are not simulated
	port s ''
	protocol s ''
	save-config b false ~last-applied configuration is not kept
	selector s ''
	session-affinity s ''
	target-port s ''
	type s ''
autoscale
	cpu-percent i -1
	dry-run s 'none' !dry-run
	field-manager s 'kubectl-autoscale' ~field managers are not simulated
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	max i -1
	min i -1
	name s ''
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	save-config b false ~last-applied configuration is not kept
cordon
	dry-run s 'none' !dry-run
	selector/l s ''
uncordon
	dry-run s 'none' !dry-run
	selector/l s ''
drain
	chunk-size i 500 ~lists are not paged here
	delete-emptydir-data b false
	disable-eviction b false
	dry-run s 'none' !dry-run
	force b false
	grace-period i -1
	ignore-daemonsets b false
	pod-selector s ''
	selector/l s ''
	skip-wait-for-delete-timeout i 0
	timeout d 0s
rollout status
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	revision i 0
	selector/l s ''
	timeout d 0s
	watch/w b true
rollout history
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	revision i 0
	selector/l s ''
rollout undo
	dry-run s 'none' !dry-run
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	selector/l s ''
	to-revision i 0
rollout pause
	field-manager s 'kubectl-rollout' ~field managers are not simulated
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	selector/l s ''
rollout resume
	field-manager s 'kubectl-rollout' ~field managers are not simulated
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	selector/l s ''
rollout restart
	field-manager s 'kubectl-rollout' ~field managers are not simulated
	filename/f l [] !files
	kustomize/k s '' !files
	recursive/R b false !files
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	selector/l s ''
api-resources
	api-group s ''
	cached b false ~discovery is not cached: the resources are the simulated server's
	categories l []
	namespaced b true
	no-headers b false
	output/o s ''
	sort-by s ''
	verbs l [] !the verbs each resource takes are not modelled
diff
	concurrency i 1 ~objects are diffed one after another here
	field-manager s 'kubectl-client-side-apply' ~field managers are not simulated
	filename/f l []
	force-conflicts b false
	kustomize/k s '' !files
	prune b false
	prune-allowlist l []
	recursive/R b false !files
	selector/l s ''
	server-side b false !server-side apply is not simulated: kubectl diff runs kubectl apply's client-side merge
	show-managed-fields b false ~objects here carry no managed fields
events
	all-namespaces/A b false
	chunk-size i 500 ~lists are not paged here
	for s ''
	no-headers b false
	types l []
	watch/w b false
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
wait
	all b false
	all-namespaces/A b false
	field-selector s ''
	filename/f l [] !files
	recursive/R b true !files
	for s ''
	local b false !files
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	selector/l s ''
	timeout d 30s
create deployment
	dry-run s 'none' !dry-run
	field-manager s 'kubectl-create' ~field managers are not simulated
	image l []
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	port i -1
	replicas/r i 1
	save-config b false ~the object is created without the last-applied annotation; a later apply warns and writes it
	validate s 'strict' ~the API server validates every object here
create poddisruptionbudget
	dry-run s 'none' !dry-run
	field-manager s 'kubectl-create' ~field managers are not simulated
	max-unavailable s ''
	min-available s ''
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	save-config b false ~last-applied configuration is not kept
	selector s ''
	validate s 'strict' ~the API server validates every object here
create namespace
	dry-run s 'none' !dry-run
	field-manager s 'kubectl-create' ~field managers are not simulated
	output/o s ''
	allow-missing-template-keys b true
	show-managed-fields b false ~objects here carry no managed fields
	template s ''
	save-config b false ~last-applied configuration is not kept
	validate s 'strict' ~the API server validates every object here
top pod
	all-namespaces/A b false
	containers b false
	field-selector s ''
	no-headers b false
	selector/l s ''
	show-swap b false !swap is not simulated
	sort-by s ''
	sum b false
	use-protocol-buffers b true ~the metrics API is read in process here
top node
	no-headers b false
	selector/l s ''
	show-capacity b false
	show-swap b false !swap is not simulated
	sort-by s ''
	use-protocol-buffers b true ~the metrics API is read in process here
apply
help
`

// GlobalFlags returns the flags every command takes.
func GlobalFlags() []Flag { return grammar().global }

// Commands returns the commands this kubectl runs, with their flags as
// kubectl v1.34 has them.
func Commands() []Command { return grammar().commands }

// grammarRead is grammarTable read.
var grammarRead struct {
	sync.Once
	global   []Flag
	commands []Command
}

func grammar() *struct {
	sync.Once
	global   []Flag
	commands []Command
} {
	grammarRead.Do(readGrammar)
	return &grammarRead
}

// readGrammar reads grammarTable; a line it cannot read is a mistake in the
// table, which the package's tests find.
func readGrammar() {
	g := &grammarRead
	for _, line := range strings.Split(strings.TrimSuffix(grammarTable, "\n"), "\n") {
		if !strings.HasPrefix(line, "\t") {
			if line != "*" {
				g.commands = append(g.commands, Command{Path: line})
			}
			continue
		}
		f := readFlag(line[1:])
		if n := len(g.commands); n > 0 {
			g.commands[n-1].Flags = append(g.commands[n-1].Flags, f)
		} else {
			g.global = append(g.global, f)
		}
	}
}

func readFlag(line string) Flag {
	spec, why, _ := strings.Cut(line, " !")
	spec, ignored, _ := strings.Cut(spec, " ~")
	fields := strings.Fields(spec)
	if len(fields) != 3 {
		panic("kubectl: grammar table: " + line)
	}
	var f Flag
	f.Name, f.Short, _ = strings.Cut(fields[0], "/")
	f.Kind = FlagKind(strings.IndexByte("bsidl", fields[1][0]))
	if f.Default = fields[2]; f.Default == "_" {
		f.Default = ""
	}
	switch why {
	case "files":
		why = "reading manifests from files is not simulated: use the Desired state editor (apply -f -)"
	case "dry-run":
		why = "dry runs are not simulated"
	case "cluster":
		why = "this kubectl talks to the one simulated cluster, as its one user"
	case "raw":
		why = "raw API paths are not simulated"
	}
	f.Refused, f.Ignored = why, ignored
	return f
}

// kubectlCommands are every top-level command of real kubectl, in the
// order kubectl registers them: its "did you mean" lists them in it.
var kubectlCommands = []string{"create", "expose", "run", "set", "explain", "get", "edit", "delete", "rollout", "scale", "autoscale",
	"certificate", "cluster-info", "top", "cordon", "uncordon", "drain", "taint", "describe", "logs", "attach", "exec", "port-forward",
	"proxy", "cp", "auth", "debug", "events", "diff", "apply", "patch", "replace", "wait", "kustomize", "label", "annotate", "completion",
	"config", "plugin", "version", "api-versions", "api-resources", "options", "help"}

// suggestFor are the words kubectl suggests a command for, besides near
// spellings.
var suggestFor = map[string][]string{"get": {"list", "ps"}, "wait": {"list", "ps"}, "delete": {"rm"}}

// subcommands of the commands that have them, in kubectl's order.
var subcommands = map[string][]string{
	"rollout": {"history", "pause", "restart", "resume", "status", "undo"},
	"top":     {"node", "pod"},
	"set":     {"env", "image", "resources", "selector", "serviceaccount", "subject"},
	"create": {"clusterrole", "clusterrolebinding", "configmap", "cronjob", "deployment", "ingress", "job", "namespace",
		"poddisruptionbudget", "priorityclass", "quota", "role", "rolebinding", "secret", "service", "serviceaccount", "token"},
}

// createAliases are the other names kubectl takes for create's subcommands.
var createAliases = map[string]string{"deploy": "deployment", "cm": "configmap", "cj": "cronjob", "ns": "namespace", "pdb": "poddisruptionbudget",
	"pc": "priorityclass", "resourcequota": "quota", "sa": "serviceaccount", "svc": "service", "ing": "ingress"}

// topAliases are the other names kubectl takes for top's subcommands.
var topAliases = map[string]string{"pods": "pod", "po": "pod", "nodes": "node", "no": "node"}

// Invocation is a command line read by the grammar.
type Invocation struct {
	// Command is the command ("get", "rollout status"), or "" for none
	// (kubectl alone prints its help).
	Command string
	// Args are the positional arguments.
	Args []string
	// Help is the command whose usage --help (or -h) asked for; nothing
	// else of the line is read.
	Help *Command
	// flags holds each flag given, by name, with its values in order;
	// given lists the flags in the order given, as "--name=value".
	flags map[string][]string
	given []string
	// Warnings are what kubectl prints to stderr before it runs
	// (deprecated flags).
	Warnings []string
}

// Has reports whether the flag name was given.
func (in *Invocation) Has(name string) bool { _, ok := in.flags[name]; return ok }

// String returns the last value of a string flag, or def.
func (in *Invocation) String(name, def string) string {
	if v := in.flags[name]; len(v) > 0 {
		return v[len(v)-1]
	}
	return def
}

// Bool returns a boolean flag's value, or def.
func (in *Invocation) Bool(name string, def bool) bool {
	if v := in.flags[name]; len(v) > 0 {
		b, _ := strconv.ParseBool(v[len(v)-1])
		return b
	}
	return def
}

// Int returns an integer flag's value, or def.
func (in *Invocation) Int(name string, def int) int {
	if v := in.flags[name]; len(v) > 0 {
		n, _ := strconv.ParseInt(v[len(v)-1], 0, 64)
		return int(n)
	}
	return def
}

// List returns a list flag's values, comma-separated ones split.
func (in *Invocation) List(name string) []string {
	var out []string
	for _, v := range in.flags[name] {
		if v != "" {
			out = append(out, strings.Split(v, ",")...)
		}
	}
	return out
}

func commandNamed(path string) *Command {
	cmds := Commands()
	for i := range cmds {
		if cmds[i].Path == path {
			return &cmds[i]
		}
	}
	return nil
}

func lookup(flags []Flag, name string, short bool) *Flag {
	for _, set := range [][]Flag{flags, GlobalFlags()} {
		for i := range set {
			if (!short && set[i].Name == name) || (short && set[i].Short == name) {
				return &set[i]
			}
		}
	}
	return nil
}

// usageError is a flag error: kubectl adds where to read the usage.
func usageError(path, msg string) error {
	return fmt.Errorf("error: %s\nSee 'kubectl %s --help' for usage.", msg, path)
}

// Parse reads a command line (without "kubectl") as kubectl does: it finds
// the command, then reads its flags. Its errors are kubectl's text.
func Parse(line string) (*Invocation, error) {
	words, err := splitArgs(strings.TrimPrefix(strings.TrimSpace(line), "kubectl "))
	if err != nil {
		return nil, fmt.Errorf("error: %v", err)
	}
	path, cmd, err := findCommand(words)
	if err != nil || cmd == nil {
		return &Invocation{}, err
	}
	in := &Invocation{Command: cmd.Path, flags: map[string][]string{}}
	for _, w := range words {
		if w == "--" {
			break
		}
		if w == "--help" || w == "-h" {
			// kubectl COMMAND --help prints the command's usage, whatever
			// else the line says.
			in.Help = cmd
			return in, nil
		}
	}
	pathLeft := len(strings.Fields(path))
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			in.Args = append(in.Args, words[i+1:]...)
			i = len(words)
		case len(w) > 1 && w[0] == '-':
			n, err := in.flag(cmd, words, i)
			if err != nil {
				return nil, err
			}
			i = n
		case pathLeft > 0:
			pathLeft--
		default:
			in.Args = append(in.Args, w)
		}
	}
	return in, nil
}

// flag reads the flag at words[i] (and its value) and returns the index
// of the last word it used.
func (in *Invocation) flag(cmd *Command, words []string, i int) (int, error) {
	w := words[i]
	if strings.HasPrefix(w, "--") {
		name, value, hasValue := strings.Cut(w[2:], "=")
		f := lookup(cmd.Flags, name, false)
		if f == nil {
			return i, usageError(cmd.Path, "unknown flag: --"+name)
		}
		if !hasValue && f.Kind != BoolFlag {
			if i+1 >= len(words) {
				return i, usageError(cmd.Path, "flag needs an argument: --"+name)
			}
			i++
			value, hasValue = words[i], true
		}
		if !hasValue {
			value = "true"
		}
		return i, in.set(cmd, f, value, false)
	}
	// Shorthands: -w, -l app=web, -lapp=web, -l=app=web, -wA.
	for j := 1; j < len(w); j++ {
		c := w[j : j+1]
		f := lookup(cmd.Flags, c, true)
		if f == nil {
			return i, usageError(cmd.Path, fmt.Sprintf("unknown shorthand flag: '%s' in %s", c, w))
		}
		rest := w[j+1:]
		if f.Kind == BoolFlag {
			if strings.HasPrefix(rest, "=") {
				return i, in.set(cmd, f, rest[1:], true)
			}
			if err := in.set(cmd, f, "true", true); err != nil {
				return i, err
			}
			continue
		}
		value := strings.TrimPrefix(rest, "=")
		if rest == "" {
			if i+1 >= len(words) {
				return i, usageError(cmd.Path, fmt.Sprintf("flag needs an argument: '%s' in %s", c, w))
			}
			i++
			value = words[i]
		}
		return i, in.set(cmd, f, value, true)
	}
	return i, nil
}

func (in *Invocation) set(cmd *Command, f *Flag, value string, short bool) error {
	var err error
	switch f.Kind {
	case BoolFlag:
		_, err = strconv.ParseBool(value)
	case IntFlag:
		_, err = strconv.ParseInt(value, 0, 64)
	case DurationFlag:
		_, err = time.ParseDuration(value)
	}
	if err != nil {
		name := "--" + f.Name
		if f.Short != "" {
			name = "-" + f.Short + ", --" + f.Name
		}
		return usageError(cmd.Path, fmt.Sprintf("invalid argument %q for %q flag: %v", value, name, err))
	}
	if f.Refused != "" {
		return fmt.Errorf("error: --%s is not simulated: %s", f.Name, f.Refused)
	}
	if f.Name == "record" && !in.Has("record") {
		in.Warnings = append(in.Warnings, "Flag --record has been deprecated, --record will be removed in the future\n")
	}
	in.flags[f.Name] = append(in.flags[f.Name], value)
	in.given = append(in.given, "--"+f.Name+"="+value)
	return nil
}

// findCommand finds the command a line names: its first word that is not
// a flag, and for rollout, set and create the next one.
func findCommand(words []string) (string, *Command, error) {
	var path []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "--" {
			break
		}
		if len(w) > 1 && w[0] == '-' {
			if !strings.Contains(w, "=") {
				name, short := strings.TrimLeft(w, "-"), !strings.HasPrefix(w, "--")
				var flags []Flag
				if c := commandNamed(strings.Join(path, " ")); c != nil {
					flags = c.Flags
				}
				if f := lookup(flags, name, short); f != nil && f.Kind != BoolFlag && (!short || len(name) == 1) {
					i++
				}
			}
			continue
		}
		path = append(path, w)
		if len(path) == 1 {
			if _, ok := subcommands[w]; !ok {
				break
			}
			continue
		}
		break
	}
	if len(path) == 0 {
		return "", nil, nil
	}
	verb := path[0]
	if commandNamed(verb) == nil && subcommands[verb] == nil {
		if slices.Contains(kubectlCommands, verb) {
			return "", nil, fmt.Errorf("error: kubectl %s is not simulated here: the commands are %s", verb, strings.Join(Verbs, ", "))
		}
		return "", nil, unknownCommand(verb)
	}
	if subs := subcommands[verb]; subs != nil {
		if len(path) < 2 {
			if verb == "create" {
				return "", nil, fmt.Errorf("error: must specify one of -f and -k")
			}
			return "", nil, fmt.Errorf("error: kubectl %s needs a subcommand: one of %s", verb, strings.Join(subs, ", "))
		}
		sub := path[1]
		if verb == "create" && createAliases[sub] != "" {
			sub = createAliases[sub]
		}
		if verb == "top" && topAliases[sub] != "" {
			sub = topAliases[sub]
		}
		if !slices.Contains(subs, sub) {
			if verb == "create" {
				return "", nil, fmt.Errorf("error: Unexpected args: [%s]\nSee 'kubectl create -h' for help and examples", sub)
			}
			return "", nil, fmt.Errorf("error: unknown command %q\nSee 'kubectl %s -h' for help and examples", sub, verb)
		}
		full := verb + " " + sub
		c := commandNamed(full)
		if c == nil {
			return "", nil, fmt.Errorf("error: kubectl %s is not simulated here", full)
		}
		return verb + " " + path[1], c, nil
	}
	return verb, commandNamed(verb), nil
}

// unknownCommand is cobra's answer to a command kubectl does not have,
// with its suggestions: commands within two edits, or starting with it.
func unknownCommand(w string) error {
	msg := fmt.Sprintf("error: unknown command %q for \"kubectl\"", w)
	var near []string
	lw := strings.ToLower(w)
	for _, c := range kubectlCommands {
		if c == "help" {
			continue // cobra's own help is not offered
		}
		if levenshtein(lw, c) <= 2 || strings.HasPrefix(c, lw) {
			near = append(near, c)
		}
		if slices.Contains(suggestFor[c], lw) {
			near = append(near, c)
		}
	}
	if len(near) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(near, "\n\t")
	}
	return fmt.Errorf("%s", msg)
}

func levenshtein(a, b string) int {
	d := make([]int, len(b)+1)
	for j := range d {
		d[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := d[0]
		d[0] = i
		for j := 1; j <= len(b); j++ {
			cur := d[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[j] = min(d[j]+1, d[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return d[len(b)]
}
