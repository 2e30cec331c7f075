package kubectl

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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

// Refusals shared by many commands.
const (
	noFiles   = "reading manifests from files is not simulated: use the Desired state editor (apply -f -)"
	noDryRun  = "dry runs are not simulated"
	noCluster = "this kubectl talks to the one simulated cluster, as its one user"
	noRaw     = "raw API paths are not simulated"
	noEdit    = "this playground has no editor for kubectl: use the Desired state editor"
)

func boolF(name, short, def string) Flag {
	return Flag{Name: name, Short: short, Kind: BoolFlag, Default: def}
}
func strF(name, short, def string) Flag {
	return Flag{Name: name, Short: short, Kind: StringFlag, Default: def}
}
func refused(f Flag, why string) Flag { f.Refused = why; return f }
func ignored(f Flag, why string) Flag { f.Ignored = why; return f }
func intF(name, short, def string) Flag {
	return Flag{Name: name, Short: short, Kind: IntFlag, Default: def}
}
func durF(name, def string) Flag { return Flag{Name: name, Kind: DurationFlag, Default: def} }
func listF(name, short, def string) Flag {
	return Flag{Name: name, Short: short, Kind: ListFlag, Default: def}
}
func group(fs ...[]Flag) (out []Flag)     { return slices.Concat(fs...) }
func one(fs ...Flag) []Flag               { return fs }
func noEffect(name, def, why string) Flag { return ignored(strF(name, "", def), why) }

var (
	fSelector = strF("selector", "l", "''")
	fAllNS    = boolF("all-namespaces", "A", "false")
	fOutput   = strF("output", "o", "''")
	fFiles    = []Flag{refused(listF("filename", "f", "[]"), noFiles), refused(strF("kustomize", "k", "''"), noFiles),
		refused(boolF("recursive", "R", "false"), noFiles)}
	fPrint = []Flag{fOutput, boolF("allow-missing-template-keys", "", "true"),
		ignored(boolF("show-managed-fields", "", "false"), "objects here carry no managed fields"),
		strF("template", "", "''")}
	fDryRun  = refused(strF("dry-run", "", "'none'"), noDryRun)
	fRecord  = boolF("record", "", "false")
	fManager = func(m string) Flag { return noEffect("field-manager", "'"+m+"'", "field managers are not simulated") }
	fChunk   = ignored(intF("chunk-size", "", "500"), "lists are not paged here")
	fRV      = refused(strF("resource-version", "", "''"), "preconditions on resourceVersion are not simulated")
	fLocal   = refused(boolF("local", "", "false"), noFiles)
)

// GlobalFlags are the flags every command takes.
var GlobalFlags = []Flag{
	strF("namespace", "n", "''"),
	strF("request-timeout", "", "'0'"),
	refused(strF("as", "", "''"), noCluster), refused(listF("as-group", "", "[]"), noCluster), refused(strF("as-uid", "", "''"), noCluster),
	ignored(strF("cache-dir", "", "'$HOME/.kube/cache'"), "nothing is cached"),
	refused(strF("certificate-authority", "", "''"), noCluster), refused(strF("client-certificate", "", "''"), noCluster),
	refused(strF("client-key", "", "''"), noCluster), refused(strF("cluster", "", "''"), noCluster), refused(strF("context", "", "''"), noCluster),
	ignored(boolF("disable-compression", "", "false"), "nothing goes over a network"),
	refused(boolF("insecure-skip-tls-verify", "", "false"), noCluster), refused(strF("kubeconfig", "", "''"), noCluster),
	ignored(durF("log-flush-frequency", "5s"), "there is no log"), ignored(boolF("match-server-version", "", "false"), "client and server are one"),
	refused(strF("password", "", "''"), noCluster), ignored(strF("profile", "", "'none'"), "there is no profiler"),
	ignored(strF("profile-output", "", "'profile.pprof'"), "there is no profiler"), refused(strF("server", "s", "''"), noCluster),
	refused(strF("tls-server-name", "", "''"), noCluster), refused(strF("token", "", "''"), noCluster), refused(strF("user", "", "''"), noCluster),
	refused(strF("username", "", "''"), noCluster), ignored(intF("v", "v", "0"), "there is no log"), ignored(strF("vmodule", "", ""), "there is no log"),
	ignored(boolF("warnings-as-errors", "", "false"), "warnings are printed as kubectl prints them"),
}

// Commands are the commands this kubectl runs, with their flags as
// kubectl v1.34 has them.
var Commands = []Command{
	{"get", group(one(fAllNS), fPrint, one(fChunk, strF("field-selector", "", "''")), fFiles,
		one(boolF("ignore-not-found", "", "false"), listF("label-columns", "L", "[]"), boolF("no-headers", "", "false"),
			boolF("output-watch-events", "", "false"), refused(strF("raw", "", "''"), noRaw), fSelector,
			ignored(boolF("server-print", "", "true"), "the table is printed here, as the server would"),
			boolF("show-kind", "", "false"), boolF("show-labels", "", "false"), strF("sort-by", "", "''"),
			strF("subresource", "", "''"), boolF("watch", "w", "false"), boolF("watch-only", "", "false")))},
	{"describe", group(one(fAllNS, fChunk), fFiles, one(fSelector, boolF("show-events", "", "true")))},
	{"delete", group(one(boolF("all", "", "false"), fAllNS, strF("cascade", "", "'background'"), fDryRun, strF("field-selector", "", "''")), fFiles,
		one(boolF("force", "", "false"), intF("grace-period", "", "-1"), boolF("ignore-not-found", "", "false"),
			refused(boolF("interactive", "i", "false"), "there is no terminal to answer from"), boolF("now", "", "false"), fOutput,
			refused(strF("raw", "", "''"), noRaw), fSelector, ignored(durF("timeout", "0s"), "a deletion is stored at once"),
			ignored(boolF("wait", "", "true"), "a deletion is stored at once; what follows it shows in the run")))},
	{"scale", group(one(boolF("all", "", "false"), strF("current-replicas", "", "-1"), fDryRun), fFiles, fPrint,
		one(fRecord, intF("replicas", "", "0"), fRV, fSelector, ignored(durF("timeout", "0s"), "scale returns once the change is stored")))},
	{"set image", group(one(boolF("all", "", "false"), fDryRun, fManager("kubectl-set"), fLocal), fFiles, fPrint, one(fRecord, fSelector))},
	{"patch", group(one(fDryRun, fManager("kubectl-patch"), fLocal), fFiles, fPrint,
		one(strF("patch", "p", "''"), refused(strF("patch-file", "", "''"), noFiles), fRecord, strF("subresource", "", "''"), strF("type", "", "'strategic'")))},
	{"label", group(one(boolF("all", "", "false"), fAllNS, fDryRun, fManager("kubectl-label"), strF("field-selector", "", "''")), fFiles, fPrint,
		one(boolF("list", "", "false"), fLocal, boolF("overwrite", "", "false"), fRecord, fRV, fSelector))},
	{"annotate", group(one(boolF("all", "", "false"), fAllNS, fDryRun, fManager("kubectl-annotate"), strF("field-selector", "", "''")), fFiles, fPrint,
		one(boolF("list", "", "false"), fLocal, boolF("overwrite", "", "false"), fRecord, fRV, fSelector))},
	{"taint", group(one(boolF("all", "", "false"), fDryRun, fManager("kubectl-taint")), fPrint,
		one(boolF("overwrite", "", "false"), fSelector, ignored(strF("validate", "", "'strict'"), "the API server validates every object here")))},
	{"set resources", group(one(boolF("all", "", "false"), strF("containers", "c", "'*'"), fDryRun, fManager("kubectl-set")), fFiles,
		one(strF("limits", "", "''"), fLocal), fPrint, one(strF("requests", "", "''"), fSelector))},
	{"expose", group(one(strF("cluster-ip", "", "''"), fDryRun, strF("external-ip", "", "''"), fManager("kubectl-expose")), fFiles,
		one(strF("labels", "l", "''"), refused(strF("load-balancer-ip", "", "''"), "no cloud provider is simulated"), strF("name", "", "''")), fPrint,
		one(refused(strF("override-type", "", "'merge'"), "overrides are not simulated"), refused(strF("overrides", "", "''"), "overrides are not simulated"),
			strF("port", "", "''"), strF("protocol", "", "''"), ignored(boolF("save-config", "", "false"), "last-applied configuration is not kept"),
			strF("selector", "", "''"), strF("session-affinity", "", "''"), strF("target-port", "", "''"), strF("type", "", "''")))},
	{"autoscale", group(one(intF("cpu-percent", "", "-1"), fDryRun, fManager("kubectl-autoscale")), fFiles,
		one(intF("max", "", "-1"), intF("min", "", "-1"), strF("name", "", "''")), fPrint,
		one(ignored(boolF("save-config", "", "false"), "last-applied configuration is not kept")))},
	{"cordon", one(fDryRun, fSelector)},
	{"uncordon", one(fDryRun, fSelector)},
	{"drain", one(fChunk, boolF("delete-emptydir-data", "", "false"), boolF("disable-eviction", "", "false"), fDryRun, boolF("force", "", "false"),
		intF("grace-period", "", "-1"), boolF("ignore-daemonsets", "", "false"), strF("pod-selector", "", "''"), fSelector,
		ignored(intF("skip-wait-for-delete-timeout", "", "0"), "drain does not wait here"), ignored(durF("timeout", "0s"), "drain does not wait here"))},
	{"rollout status", group(fFiles, one(intF("revision", "", "0"), fSelector, durF("timeout", "0s"), boolF("watch", "w", "true")))},
	{"rollout history", group(fFiles, fPrint, one(intF("revision", "", "0"), fSelector))},
	{"rollout undo", group(one(fDryRun), fFiles, fPrint, one(fSelector, intF("to-revision", "", "0")))},
	{"rollout pause", group(one(fManager("kubectl-rollout")), fFiles, fPrint, one(fSelector))},
	{"rollout resume", group(one(fManager("kubectl-rollout")), fFiles, fPrint, one(fSelector))},
	{"rollout restart", group(one(fManager("kubectl-rollout")), fFiles, fPrint, one(fSelector))},
	{"create deployment", group(one(fDryRun, fManager("kubectl-create"), listF("image", "", "[]")), fPrint,
		one(intF("port", "", "-1"), intF("replicas", "r", "1"), ignored(boolF("save-config", "", "false"), "the object is created without the last-applied annotation; a later apply warns and writes it"),
			ignored(strF("validate", "", "'strict'"), "the API server validates every object here")))},
	{"create namespace", group(one(fDryRun, fManager("kubectl-create")), fPrint,
		one(ignored(boolF("save-config", "", "false"), "last-applied configuration is not kept"),
			ignored(strF("validate", "", "'strict'"), "the API server validates every object here")))},
	{"apply", nil},
	{"help", nil},
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
	"set":     {"env", "image", "resources", "selector", "serviceaccount", "subject"},
	"create": {"clusterrole", "clusterrolebinding", "configmap", "cronjob", "deployment", "ingress", "job", "namespace",
		"poddisruptionbudget", "priorityclass", "quota", "role", "rolebinding", "secret", "service", "serviceaccount", "token"},
}

// createAliases are the other names kubectl takes for create's subcommands.
var createAliases = map[string]string{"deploy": "deployment", "cm": "configmap", "cj": "cronjob", "ns": "namespace", "pdb": "poddisruptionbudget",
	"pc": "priorityclass", "resourcequota": "quota", "sa": "serviceaccount", "svc": "service", "ing": "ingress"}

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
	for i := range Commands {
		if Commands[i].Path == path {
			return &Commands[i]
		}
	}
	return nil
}

func lookup(flags []Flag, name string, short bool) *Flag {
	for _, set := range [][]Flag{flags, GlobalFlags} {
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
