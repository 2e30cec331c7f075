package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/challenge"
	"reconcile/engine/check"
	"reconcile/engine/controller"
	"reconcile/engine/limits"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// Exit codes.
const (
	exitOK       = 0
	exitFailed   = 1 // an expect failed, a record does not prove a solution
	exitBadInput = 2 // a file, flag or argument is wrong
)

const usage = `usage:
  reconcile run FILE [--until 10m | --passes N] [--seed N] [-o text|json]
                     [--passes none|all|last N] [--max-passes N] [--max-memory 2GiB]
  reconcile check FILE... [--max-passes N] [--max-memory 2GiB] [--replay]
  reconcile verify RECORD [--scenario FILE]
  reconcile share FILE [--site URL]
`

// run is the whole command: it reads args (without the program name),
// writes to stdout and stderr, and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitBadInput
	}
	switch args[0] {
	case "run":
		return runCommand(args[1:], stdout, stderr)
	case "check":
		return checkCommand(args[1:], stdout, stderr)
	case "verify":
		return verifyCommand(args[1:], stdout, stderr)
	case "share":
		return shareCommand(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "reconcile: unknown command %q\n%s", args[0], usage)
	return exitBadInput
}

// parseInterspersed parses flags that may come before or after the
// positional arguments ("run web.yaml -o json").
func parseInterspersed(flags *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := flags.Parse(args); err != nil {
			return nil, err
		}
		if flags.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, flags.Arg(0))
		args = flags.Args()[1:]
	}
}

func runCommand(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("run", flag.ContinueOnError)
	flags.SetOutput(stderr)
	until := flags.String("until", "", "run up to this simulated time, e.g. 10m (default: until the world is quiet)")
	passes := flags.String("passes", "", "N: run this many passes; none, all or \"last N\": which passes to print")
	seed := flags.Int64("seed", 0, "override the scenario's seed")
	output := flags.String("o", "text", "output format: text or json")
	b := addBounds(flags)
	files, err := parseInterspersed(flags, args)
	if err != nil {
		return exitBadInput
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reconcile run: "+format+"\n", a...)
		return exitBadInput
	}
	if len(files) != 1 {
		return bad("want exactly one FILE, got %d\n%s", len(files), usage)
	}
	if *output != "text" && *output != "json" {
		return bad("-o %s: want text or json", *output)
	}
	set := map[string]bool{}
	flags.Visit(func(f *flag.Flag) { set[f.Name] = true })
	count, show, err := parsePasses(*passes)
	if err != nil {
		return bad("%v", err)
	}
	if set["until"] && count > 0 {
		return bad("give --until or --passes, not both")
	}
	maxPasses, over, err := b.parse()
	if err != nil {
		return bad("%v", err)
	}
	horizon := limits.MaxTime
	var runUntil api.Time
	if set["until"] {
		d, err := api.ParseDuration(*until)
		if err != nil || d <= 0 || d > limits.MaxTime {
			return bad("--until %s: want a simulated time from 1s to %s, e.g. 10m", *until, check.Duration(limits.MaxTime))
		}
		runUntil, horizon = d, d
	}
	sc, ok := load(files[0], stderr)
	if !ok {
		return exitBadInput
	}
	cfg := sc.Config()
	if set["seed"] {
		cfg.Seed = *seed
	}
	if runUntil > 0 {
		cfg.Until = runUntil
	}
	s, err := sim.New(cfg)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	// Without a horizon the run stops when the world is quiet; --passes N
	// runs N passes (to the horizon, if fewer happen); either way the
	// bounds hold.
	bounds := sim.Bounds{Until: horizon, Quiet: runUntil == 0 && count == 0, MaxPasses: maxPasses, Over: over}
	if count > 0 && count < maxPasses {
		bounds.MaxPasses = count
	}
	s.DropCheckpoints() // played once, never sought
	stop := s.Run(bounds)
	switch {
	case stop.Reason == sim.StopPasses && bounds.MaxPasses == count:
		stop.Text = fmt.Sprintf("ran the %d passes asked for, to t=%s", count, stop.AtText)
	case stop.Reason == sim.StopPasses:
		stop.Text += fmt.Sprintf(" (%d passes): raise it with --max-passes, or give a horizon with --until", maxPasses)
	case stop.Reason == sim.StopOver:
		stop.Text += ": raise it with --max-memory, or give a horizon with --until"
	}
	if stop.Reason == sim.StopPasses && bounds.MaxPasses != count || stop.Reason == sim.StopOver {
		fmt.Fprintf(stderr, "reconcile run: %s\n", stop.Text)
	}
	if *output == "json" {
		return writeJSON(stdout, stderr, sc, cfg.Seed, s, stop, show)
	}
	writeText(stdout, s, stop, show)
	return exitOK
}

// load reads and loads a scenario file, printing what is wrong (and any
// warnings) to stderr.
func load(file string, stderr io.Writer) (*scenario.Scenario, bool) {
	f, err := os.Open(file)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		fmt.Fprintf(stderr, "%s: %v\n", file, err)
		return nil, false
	}
	defer f.Close()
	// Read one byte past the limit so that Load can name the limit.
	data, err := io.ReadAll(io.LimitReader(f, limits.MaxFileSize+1))
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", file, err)
		return nil, false
	}
	sc, err := scenario.Load(file, data)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, false
	}
	for _, w := range sc.Warnings {
		fmt.Fprintln(stderr, w)
	}
	for _, n := range sc.Notes {
		fmt.Fprintln(stderr, n)
	}
	return sc, true
}

// runJSON is the -o json document (a contract: fields may be added, not renamed). Errors lists the passes that
// ended in an error or a crash, as "#N controller key: outcome", whichever passes are shown. Stop says how the
// run ended; PassCount is how many passes ran, Passes those --passes shows (all by default).
type runJSON struct {
	Scenario  string       `json:"scenario"`
	Seed      int64        `json:"seed"`
	Until     string       `json:"until"`
	Digest    string       `json:"digest"`
	Stop      sim.Stop     `json:"stop"`
	PassCount int          `json:"passCount"`
	Passes    []sim.Pass   `json:"passes"`
	Objects   []api.Object `json:"objects"`
	Events    []*api.Event `json:"events"`
	Outputs   []sim.Output `json:"outputs"`
	// Outside lists what pods did outside the cluster (a Job's migration):
	// nothing in objects records it, and no rollback undoes it.
	Outside []sim.SideEffect `json:"outside"`
	Errors  []string         `json:"errors"`
	// Traffic is the lesson's request stream in windows of 30s, when it
	// has one: requests answered and failed, by digest, pod and error.
	Traffic []sim.TrafficWindow `json:"traffic,omitempty"`
}

// writeJSON writes the runJSON document field by field and the passes one
// by one, so that a long run is not built in memory a second time as JSON.
func writeJSON(stdout, stderr io.Writer, sc *scenario.Scenario, seed int64, s *sim.Sim, stop sim.Stop, show passShow) int {
	doc := runJSON{Scenario: sc.ID, Seed: seed, Until: check.Duration(s.Now()), Digest: s.Digest(), Stop: stop, PassCount: s.PassCount(),
		Objects: s.Objects(), Events: s.Events(), Outputs: []sim.Output{}, Outside: append([]sim.SideEffect{}, s.Outside()...), Errors: []string{}}
	for _, p := range s.Passes() {
		if strings.HasPrefix(p.Outcome, "error") || strings.HasPrefix(p.Outcome, "crashed") {
			doc.Errors = append(doc.Errors, fmt.Sprintf("#%d %s %s: %s", p.N, p.Controller, p.Key, p.Outcome))
		}
	}
	for _, o := range s.Outputs() {
		if o.AtText == "" {
			o.AtText = api.FormatDuration(o.At)
		}
		doc.Outputs = append(doc.Outputs, o)
	}
	for _, t := range s.Traffic() {
		doc.Traffic = append(doc.Traffic, s.TrafficWindows(t.Service, 30*api.Second)...)
	}
	if doc.Objects == nil {
		doc.Objects = []api.Object{}
	}
	if doc.Events == nil {
		doc.Events = []*api.Event{}
	}
	bw := bufio.NewWriterSize(stdout, 64<<10)
	fail := func(err error) int {
		fmt.Fprintf(stderr, "reconcile run: %v\n", err)
		return exitFailed
	}
	marshal := func(v any, indent string) ([]byte, error) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent(indent, "  ")
		err := enc.Encode(v)
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
	}
	field := func(name string, v any, last bool) error {
		b, err := marshal(v, "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "  %q: %s", name, b)
		if !last {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
		return nil
	}
	bw.WriteString("{\n")
	for _, f := range []struct {
		name string
		v    any
	}{{"scenario", doc.Scenario}, {"seed", doc.Seed}, {"until", doc.Until}, {"digest", doc.Digest}, {"stop", doc.Stop}, {"passCount", doc.PassCount}} {
		if err := field(f.name, f.v, false); err != nil {
			return fail(err)
		}
	}
	shown := show.of(s.Passes())
	if len(shown) == 0 {
		bw.WriteString("  \"passes\": [],\n")
	} else {
		bw.WriteString("  \"passes\": [\n")
		for i, p := range shown {
			if p.AtText == "" {
				p.AtText = api.FormatDuration(p.At)
			}
			if p.Actions == nil {
				p.Actions = []controller.Action{}
			}
			b, err := marshal(p, "    ")
			if err != nil {
				return fail(err)
			}
			bw.WriteString("    ")
			bw.Write(b)
			if i < len(shown)-1 {
				bw.WriteString(",")
			}
			bw.WriteString("\n")
		}
		bw.WriteString("  ],\n")
	}
	rest := []struct {
		name string
		v    any
	}{{"objects", doc.Objects}, {"events", doc.Events}, {"outputs", doc.Outputs}, {"outside", doc.Outside}, {"errors", doc.Errors}}
	if len(doc.Traffic) > 0 {
		rest = append(rest, struct {
			name string
			v    any
		}{"traffic", doc.Traffic})
	}
	for i, f := range rest {
		if err := field(f.name, f.v, i == len(rest)-1); err != nil {
			return fail(err)
		}
	}
	bw.WriteString("}\n")
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	return exitOK
}

func checkCommand(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("check", flag.ContinueOnError)
	flags.SetOutput(stderr)
	replay := flags.Bool("replay", false, "play each file twice and compare the digests")
	b := addBounds(flags)
	files, err := parseInterspersed(flags, args)
	if err != nil {
		return exitBadInput
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "reconcile check: want at least one FILE\n%s", usage)
		return exitBadInput
	}
	maxPasses, over, err := b.parse()
	if err != nil {
		fmt.Fprintf(stderr, "reconcile check: %v\n", err)
		return exitBadInput
	}
	code := exitOK
	for _, file := range files {
		sc, ok := load(file, stderr)
		if !ok {
			code = exitBadInput
			continue
		}
		res, err := check.RunWith(sc, check.Options{MaxPasses: maxPasses, Over: over, Replay: *replay})
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = exitBadInput
			continue
		}
		switch res.Stop.Reason {
		case sim.StopPasses:
			res.Stop.Text += ": raise it with --max-passes"
		case sim.StopOver:
			res.Stop.Text += ": raise it with --max-memory"
		}
		var proof *challenge.Proof
		if sc.Challenge != nil {
			if proof, err = challenge.Prove(sc); err != nil {
				fmt.Fprintln(stderr, err)
				code = exitBadInput
				continue
			}
		}
		if proof != nil && !proof.OK() {
			fmt.Fprintf(stdout, "FAIL  %s  (%d of %s failed, %d of %s failed)\n", file, len(res.Failures), plural(res.Expects, "expect"),
				len(proof.Failures), plural(proof.Claims, "challenge claim"))
			for _, f := range res.Failures {
				fmt.Fprintln(stdout, f.Error())
			}
			for _, f := range proof.Failures {
				fmt.Fprintln(stdout, f.Error())
			}
			if code == exitOK {
				code = exitFailed
			}
			continue
		}
		if res.OK() && proof != nil {
			fmt.Fprintf(stdout, "ok  %s  (%s, digest %s; challenge: %s)\n", file, plural(res.Expects, "expect"), short(res.Digest), proofText(proof))
			continue
		}
		if res.OK() && res.Expects == 0 {
			// Played until quiet: say where it stopped.
			fmt.Fprintf(stdout, "ok  %s  (no expects, digest %s; stopped after %s: %s)\n", file, short(res.Digest), passes(res.Stop.Passes), res.Stop.Text)
			continue
		}
		if res.OK() {
			fmt.Fprintf(stdout, "ok  %s  (%s, digest %s)\n", file, plural(res.Expects, "expect"), short(res.Digest))
			continue
		}
		fmt.Fprintf(stdout, "FAIL  %s  (%d of %s failed)\n", file, len(res.Failures), plural(res.Expects, "expect"))
		for _, f := range res.Failures {
			fmt.Fprintln(stdout, f.Error())
		}
		if code == exitOK {
			code = exitFailed
		}
	}
	return code
}

// proofText says what a challenge's proof found: "the solution holds the
// goal from t=2m2.4s, doing nothing does not, 2 shortcuts caught", and
// ", the budget's try goes over it at t=1m12.3s" when it has one.
func proofText(p *challenge.Proof) string {
	text := fmt.Sprintf("the solution holds the goal from t=%s, doing nothing does not, %s caught",
		check.Duration(p.Solution.Status.Since), plural(p.Shortcuts, "shortcut"))
	if p.OverBudget != nil {
		text += fmt.Sprintf(", the budget's try goes over it at t=%s", check.Duration(p.OverBudget.Status.At))
	}
	return text
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// short abbreviates a digest ("sha256:6940a2d5c82f...") to 12 hex digits.
func short(digest string) string {
	algo, hex, ok := strings.Cut(digest, ":")
	if !ok {
		algo, hex = "", digest
	} else {
		algo += ":"
	}
	if len(hex) > 12 {
		hex = hex[:12]
	}
	return algo + hex
}
