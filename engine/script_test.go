package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kubectl"
	"reconcile/engine/manifest"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
)

// TestScripts runs the behaviour specifications in testdata/*.txt. Each
// script builds a cluster, feeds it inputs and prints the state of the
// world. Regenerate the expected output with -rewrite and review the diff.
func TestScripts(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		h := &harness{}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string { return h.do(t, d) })
	})
}

type harness struct {
	runs  []*sim.Sim
	names []string
}

// start starts the run of cfg, or its level- and edge-triggered twins.
func (h *harness) start(cfg sim.Config, twins bool) error {
	h.runs, h.names = nil, nil
	if twins {
		l, e, err := sim.Twins(cfg, controller.ReplicaSetController)
		if err != nil {
			return err
		}
		h.runs, h.names = []*sim.Sim{l, e}, []string{"level", "edge"}
		return nil
	}
	s, err := sim.New(cfg)
	if err != nil {
		return err
	}
	h.runs, h.names = []*sim.Sim{s}, []string{"run"}
	return nil
}

func (h *harness) each(f func(name string, s *sim.Sim) string) string {
	var b strings.Builder
	for i, s := range h.runs {
		out := f(h.names[i], s)
		if len(h.runs) > 1 {
			for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
				fmt.Fprintf(&b, "%s: %s\n", h.names[i], l)
			}
		} else {
			b.WriteString(out)
		}
	}
	return b.String()
}

// takes says which arguments each command accepts: true for key=value,
// false for a bare flag. An argument not listed fails the test, so a typo
// cannot quietly become a golden file of the wrong behaviour.
var takes = map[string]map[string]bool{
	"start":   {"seed": true, "twins": false, "nodes": true, "cpu": true},
	"load":    {"twins": false, "seed": true, "file": true},
	"run":     {"until": true, "for": true, "passes": true},
	"outputs": {"ended": false},
	"passes":  {"controller": true, "last": true},
	"events":  {"reason": true},
	"moving":  {"max": true},
	"traffic": {"window": true},
	"diff":    {"prune": false, "selector": true, "prune-allowlist": true},
}

// checkArgs fails the test when d carries an argument its command does not
// take, a flag with a value, a key without one, or a key twice.
func checkArgs(t testing.TB, d *datadriven.TestData) {
	t.Helper()
	allowed := takes[d.Cmd]
	seen := map[string]bool{}
	for _, a := range d.CmdArgs {
		wantsValue, ok := allowed[a.Key]
		switch {
		case !ok:
			d.Fatalf(t, "%s: unknown argument %q (takes %s)", d.Cmd, a.String(), argList(allowed))
		case seen[a.Key]:
			d.Fatalf(t, "%s: argument %q given twice", d.Cmd, a.Key)
		case wantsValue && len(a.Vals) != 1:
			d.Fatalf(t, "%s: argument %q wants one value, as %s=VALUE", d.Cmd, a.String(), a.Key)
		case !wantsValue && len(a.Vals) != 0:
			d.Fatalf(t, "%s: argument %q is a flag and takes no value", d.Cmd, a.String())
		}
		seen[a.Key] = true
	}
}

func argList(allowed map[string]bool) string {
	if len(allowed) == 0 {
		return "no arguments"
	}
	var names []string
	for k, v := range allowed {
		if v {
			k += "=…"
		}
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// str is the value of the string argument key, or def when it is absent.
func str(t testing.TB, d *datadriven.TestData, key, def string) string {
	t.Helper()
	d.MaybeScanArgs(t, key, &def)
	return def
}

// integer is the value of the integer argument key, or def when it is absent;
// a value that is not a whole number fails the test.
func integer(t testing.TB, d *datadriven.TestData, key string, def int) int {
	t.Helper()
	d.MaybeScanArgs(t, key, &def)
	return def
}

// duration is the value of the duration argument key ("30s", "5m", "90"),
// or def when it is absent; a value ParseDuration refuses fails the test.
func duration(t testing.TB, d *datadriven.TestData, key string, def api.Duration) api.Duration {
	t.Helper()
	var s string
	if !d.MaybeScanArgs(t, key, &s) {
		return def
	}
	dur, err := api.ParseDuration(s)
	if err != nil {
		d.Fatalf(t, "%s: %s: %v", d.Cmd, key, err)
	}
	return dur
}

// deploymentFromLine reads "web replicas=5 image=shop/web:1.0 [surge=1 unavailable=0] [recreate]".
// A literal line in a Go test cannot be wrong at run time, so a mistake in
// one panics; scripts read their lines with parseDeploymentLine.
func deploymentFromLine(line string) *api.Deployment {
	d, err := parseDeploymentLine(line)
	if err != nil {
		panic(err)
	}
	return d
}

// parseDeploymentLine reads a line as deploymentFromLine does; a word it does
// not know, or a number that is not one, is an error.
func parseDeploymentLine(line string) (*api.Deployment, error) {
	f := strings.Fields(line)
	name := f[0]
	labels := map[string]string{"app": name}
	d := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: labels},
		Spec: api.DeploymentSpec{Replicas: api.Int32(1), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: name, Image: "shop/web:1.0",
					Resources: api.ResourceRequirements{Requests: map[string]api.Quantity{"cpu": "100m", "memory": "64Mi"}}}}}}},
	}
	for _, kv := range f[1:] {
		k, v, hasValue := strings.Cut(kv, "=")
		if k == "recreate" {
			if hasValue {
				return nil, fmt.Errorf("%q: recreate is a flag and takes no value", kv)
			}
			d.Spec.Strategy.Type = api.RecreateStrategy
			continue
		}
		if !hasValue || v == "" {
			return nil, fmt.Errorf("%q: want %s=VALUE", kv, k)
		}
		var n int
		if k == "replicas" || (k == "surge" || k == "unavailable") && !strings.HasSuffix(v, "%") {
			var err error
			if n, err = strconv.Atoi(v); err != nil || n < 0 {
				return nil, fmt.Errorf("%q: %s wants a whole number", kv, k)
			}
		}
		switch k {
		case "replicas":
			d.Spec.Replicas = api.Int32(int32(n))
		case "image":
			d.Spec.Template.Spec.Containers[0].Image = v
		case "cpu":
			d.Spec.Template.Spec.Containers[0].Resources.Requests["cpu"] = api.Quantity(v)
		case "surge", "unavailable":
			if d.Spec.Strategy.RollingUpdate == nil {
				d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{}
			}
			val := api.FromInt(int32(n))
			if strings.HasSuffix(v, "%") {
				val = api.FromString(v)
			}
			if k == "surge" {
				d.Spec.Strategy.RollingUpdate.MaxSurge = &val
			} else {
				d.Spec.Strategy.RollingUpdate.MaxUnavailable = &val
			}
		default:
			return nil, fmt.Errorf("%q: unknown field %q (takes replicas, image, cpu, surge, unavailable, recreate)", kv, k)
		}
	}
	return d, nil
}

func activePodName(s *sim.Sim, n int) string {
	i := 0
	for _, o := range s.Store().List("Pod") {
		if o.Meta().DeletionTimestamp != nil {
			continue
		}
		if i == n {
			return o.Meta().Name
		}
		i++
	}
	return "no-such-pod"
}

func (h *harness) do(t testing.TB, d *datadriven.TestData) string {
	t.Helper()
	checkArgs(t, d)
	switch d.Cmd {
	case "start":
		// start [seed=N] [twins] [nodes=N] [cpu=4] + one deployment per input line
		sc := &scenario.Scenario{File: d.Pos, ID: "script", Seed: 1}
		d.MaybeScanArgs(t, "seed", &sc.Seed)
		cpu := str(t, d, "cpu", "4")
		if d.HasArg("cpu") && !d.HasArg("nodes") {
			d.Fatalf(t, "start: cpu= sizes the nodes nodes= adds; give nodes=N too")
		}
		for i := 1; i <= integer(t, d, "nodes", 0); i++ {
			sc.Cluster.Nodes = append(sc.Cluster.Nodes, scenario.Node{Name: fmt.Sprintf("worker-%d", i), CPU: api.Quantity(cpu), Memory: "8Gi", Pods: 110})
		}
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			if line != "" {
				dep, err := parseDeploymentLine(line)
				if err != nil {
					d.Fatalf(t, "start: %v", err)
				}
				sc.Manifests = append(sc.Manifests, manifest.Manifest{Object: dep})
			}
		}
		h.runs, h.names = nil, nil
		cfg := sc.Config()
		cfg.Until = 24 * api.Hour
		if err := h.start(cfg, d.HasArg("twins")); err != nil {
			return err.Error()
		}
		return "ok"
	case "load":
		// load [twins] [seed=N] [file=NAME]: the input is a scenario file
		// (named NAME in messages); its warnings are printed before "ok".
		sc, err := scenario.Load(str(t, d, "file", d.Pos), []byte(d.Input))
		if err != nil {
			return err.Error() + "\n"
		}
		cfg := sc.Config()
		cfg.Until = 24 * api.Hour
		d.MaybeScanArgs(t, "seed", &cfg.Seed)
		if err := h.start(cfg, d.HasArg("twins")); err != nil {
			return err.Error() + "\n"
		}
		var warns strings.Builder
		for _, w := range sc.Warnings {
			warns.WriteString(w + "\n")
		}
		return warns.String() + "ok\n"
	case "outputs":
		// outputs: what the scenario's kubectl and apply steps printed;
		// outputs ended: with when each command that watched ended
		ended := d.HasArg("ended")
		return h.each(func(_ string, s *sim.Sim) string {
			var b strings.Builder
			for _, o := range s.Outputs() {
				fmt.Fprintf(&b, "t=%s $ %s\n%s(exit %d", o.AtText, o.Command, o.Output, o.ExitCode)
				if ended && o.Ended != "" {
					fmt.Fprintf(&b, ", ended t=%s", o.Ended)
				}
				b.WriteString(")\n")
			}
			return b.String()
		})
	case "apply", "diff", "git":
		if d.Cmd == "diff" && len(d.CmdArgs) > 0 {
			// diff with flags (diff prune selector=app=web): kubectl diff
			// -f - with them, the manifests decoded as a diff step's are
			return h.each(func(_ string, s *sim.Sim) string {
				line := "diff -f -"
				for _, a := range d.CmdArgs {
					line += " --" + a.Key
					if len(a.Vals) > 0 {
						line += "=" + a.Vals[0]
					}
				}
				ds, err := manifest.DecodeTextAs(d.Input, yamlpos.File("input"), yamlpos.NewBudget(), manifest.RefuseEach)
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				stdin := make([]kubectl.Stdin, len(ds))
				for i, m := range ds {
					stdin[i] = kubectl.Stdin{Object: m.Object, Config: m.Config, Refused: m.Refused}
				}
				r := kubectl.ExecStdin(s.Store(), s.Now(), line, stdin)
				return fmt.Sprintf("$ kubectl %s\n%s(exit %d)\n", line, r.Output, r.Code)
			})
		}
		return h.each(func(_ string, s *sim.Sim) string {
			var in sim.Input = sim.Apply{Manifests: d.Input}
			switch d.Cmd {
			case "git":
				in = sim.Commit{Manifests: d.Input}
			case "diff":
				in = sim.Diff{Manifests: d.Input}
			}
			out, err := s.Inject(in)
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			return fmt.Sprintf("%s(exit %d)\n", out.Output, out.ExitCode)
		})
	case "run":
		// run until=5m | run for=30s | run passes=N: exactly one of them
		if len(d.CmdArgs) != 1 {
			d.Fatalf(t, "run: want exactly one of until=, for=, passes=; got %d arguments", len(d.CmdArgs))
		}
		passes := integer(t, d, "passes", 0)
		forDur := duration(t, d, "for", 0)
		until := duration(t, d, "until", 0)
		return h.each(func(_ string, s *sim.Sim) string {
			switch {
			case d.HasArg("passes"):
				for i := 0; i < passes; i++ {
					if _, ok := s.Next(); !ok {
						break
					}
				}
			case d.HasArg("for"):
				s.RunUntil(s.Now()+forDur, 0)
			default:
				s.RunUntil(until, 0)
			}
			return fmt.Sprintf("t=%s passes=%d\n", s.Now(), s.PassCount())
		})
	case "passes":
		// passes [controller=X] [last=N]
		ctrl := str(t, d, "controller", "")
		last := integer(t, d, "last", 0)
		return h.each(func(_ string, s *sim.Sim) string {
			var lines []string
			for _, p := range s.Passes() {
				if ctrl != "" && p.Controller != ctrl {
					continue
				}
				lines = append(lines, sim.FormatPass(p))
			}
			if last > 0 && len(lines) > last {
				lines = lines[len(lines)-last:]
			}
			if len(lines) == 0 {
				return "no passes\n"
			}
			return strings.Join(lines, "\n") + "\n"
		})
	case "fault", "kubectl":
		// {pod:N} stands for the name of the Nth active pod (by name) of the
		// first run, so scripts survive changes to generated names.
		line := d.Input
		for i := 0; i < 10; i++ {
			ph := fmt.Sprintf("{pod:%d}", i)
			if strings.Contains(line, ph) {
				line = strings.ReplaceAll(line, ph, activePodName(h.runs[0], i))
			}
		}
		return h.each(func(_ string, s *sim.Sim) string {
			var in sim.Input = sim.Kubectl{Line: line}
			if d.Cmd == "fault" {
				f, err := sim.ParseFault(line)
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				in = f
			}
			out, err := s.Inject(in)
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			if d.Cmd == "kubectl" {
				return fmt.Sprintf("%s(exit %d)\n", out.Output, out.ExitCode)
			}
			return "ok\n"
		})
	case "get", "describe":
		line := d.Input
		for i := 0; i < 10; i++ {
			line = strings.ReplaceAll(line, fmt.Sprintf("{pod:%d}", i), activePodName(h.runs[0], i))
		}
		return h.each(func(_ string, s *sim.Sim) string {
			out, _ := kubectl.Run(s.Store(), s.Now(), d.Cmd+" "+line)
			return out
		})
	case "events":
		reason := str(t, d, "reason", "")
		return h.each(func(_ string, s *sim.Sim) string {
			var b strings.Builder
			for _, e := range s.Events() {
				if reason != "" && e.Reason != reason {
					continue
				}
				if e.Series != nil || e.EventTime != nil {
					// the events.k8s.io recorder's: the stored series
					fmt.Fprintf(&b, "%s %s %s/%s %q x%d (%s..%s) from %s action %s\n", e.Type, e.Reason, api.LowerKind(e.InvolvedObject.Kind), e.InvolvedObject.Name, e.Message, e.Repeats(), e.FirstSeen(), e.LastSeen(), e.ReportingController, e.Action)
					continue
				}
				fmt.Fprintf(&b, "%s %s %s/%s %q x%d (%s..%s) from %s\n", e.Type, e.Reason, api.LowerKind(e.InvolvedObject.Kind), e.InvolvedObject.Name, e.Message, e.Count, e.FirstTimestamp, e.LastTimestamp, e.Source.Component)
			}
			return b.String()
		})
	case "status":
		// status: deployment generation, observed generation, replicas, conditions
		return h.each(func(_ string, s *sim.Sim) string {
			var b strings.Builder
			for _, o := range s.Store().List("Deployment") {
				dep := o.(*api.Deployment)
				st := dep.Status
				fmt.Fprintf(&b, "deployment/%s generation=%d observedGeneration=%d replicas=%d updated=%d ready=%d available=%d\n",
					dep.Name, dep.Generation, st.ObservedGeneration, st.Replicas, st.UpdatedReplicas, st.ReadyReplicas, st.AvailableReplicas)
				for _, c := range st.Conditions {
					fmt.Fprintf(&b, "  %s=%s %s: %s\n", c.Type, c.Status, c.Reason, c.Message)
				}
			}
			return b.String()
		})
	case "pods":
		// pods: active pods by node and phase, and the total
		return h.each(func(_ string, s *sim.Sim) string {
			count := map[string]int{}
			total := 0
			for _, o := range s.Store().List("Pod") {
				p := o.(*api.Pod)
				st := kubectl.PodStatus(p)
				ready := "not-ready"
				for _, c := range p.Status.Conditions {
					if c.Type == "Ready" && c.Status == "True" {
						ready = "ready"
					}
				}
				node := p.Spec.NodeName
				if node == "" {
					node = "<unscheduled>"
				}
				count[node+" "+st+" "+ready]++
				if p.DeletionTimestamp == nil {
					total++
				}
			}
			var keys []string
			for k := range count {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var b strings.Builder
			for _, k := range keys {
				fmt.Fprintf(&b, "%s: %d\n", k, count[k])
			}
			fmt.Fprintf(&b, "active pods: %d\n", total)
			return b.String()
		})
	case "images":
		// images: the registry's digest beside the digests pods run
		return h.each(func(_ string, s *sim.Sim) string {
			var b strings.Builder
			for _, st := range s.Images() {
				var ds []string
				for d, n := range st.Running {
					ds = append(ds, fmt.Sprintf("%s×%d", d, n))
				}
				sort.Strings(ds)
				fmt.Fprintf(&b, "%s registry=%s running=%v\n", st.Ref, st.Registry, ds)
			}
			return b.String()
		})
	case "outside":
		// outside: what pods did outside the cluster
		return h.each(func(_ string, s *sim.Sim) string {
			var b strings.Builder
			for _, e := range s.Outside() {
				fmt.Fprintf(&b, "t=%s %s: %s\n", e.AtText, e.Pod, e.What)
			}
			if b.Len() == 0 {
				return "nothing\n"
			}
			return b.String()
		})
	case "converged":
		// converged: whether the world has converged, and if not, why
		return h.each(func(_ string, s *sim.Sim) string {
			if ok, why := s.Converged(); !ok {
				return "not converged: " + why + "\n"
			}
			return "converged\n"
		})
	case "moving":
		// moving [max=N]: what keeps the world from converging, grouped
		n := integer(t, d, "max", 0)
		return h.each(func(_ string, s *sim.Sim) string {
			lines := s.Moving(n)
			if len(lines) == 0 {
				return "converged\n"
			}
			return strings.Join(lines, "\n") + "\n"
		})
	case "traffic":
		// traffic [window=30s]: the request streams, in windows
		window := duration(t, d, "window", 30*api.Second)
		return h.each(func(_ string, s *sim.Sim) string {
			lines := s.FormatTraffic(window)
			if len(lines) == 0 {
				return "no traffic\n"
			}
			return strings.Join(lines, "\n") + "\n"
		})
	case "digest":
		return h.each(func(_ string, s *sim.Sim) string { return s.Digest() + "\n" })
	}
	d.Fatalf(t, "unknown command %q", d.Cmd)
	return ""
}
