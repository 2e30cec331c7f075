package kubectl_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/store"
)

var update = flag.Bool("update", false, "rewrite the flag table of docs/kubectl.md from what kubectl prints")

const docPath = "../../docs/kubectl.md"

// tableWorld is the world every line of the table runs against: the
// Deployment web of world(), its ReplicaSet and two pods on worker-1, a
// pod no controller owns (debug) and a second node.
func tableWorld(t testing.TB) *store.Store {
	st := world(t)
	d := st.Get("Deployment", "default", "web")
	rs := &api.ReplicaSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: api.ObjectMeta{Name: "web-7d4b9c", Namespace: "default", Labels: map[string]string{"app": "web", "pod-template-hash": "7d4b9c"},
			Annotations:     map[string]string{"deployment.kubernetes.io/revision": "2"},
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: d.Meta().UID, Controller: true}}},
		Spec: api.ReplicaSetSpec{Replicas: api.Int32(2), Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web", "pod-template-hash": "7d4b9c"}},
			Template: d.(*api.Deployment).Spec.Template}}
	rs.Spec.Template.Labels = rs.Spec.Selector.MatchLabels
	out, err := st.Create(rs)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"web-7d4b9c-abcde", "web-7d4b9c-fghij", "debug"} {
		p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web", "pod-template-hash": "7d4b9c"}},
			Spec:       api.PodSpec{NodeName: "worker-1", Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}},
			Status:     api.PodStatus{Phase: "Running", PodIP: "10.244.1.7"}}
		if name == "debug" {
			p.Labels = map[string]string{"app": "debug"}
		} else {
			p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: out.Meta().UID, Controller: true}}
		}
		if _, err := st.Create(p); err != nil {
			t.Fatal(err)
		}
	}
	old := rs.DeepCopy()
	old.Name, old.Labels["pod-template-hash"], old.Annotations["deployment.kubernetes.io/revision"] = "web-5f6b8c", "5f6b8c", "1"
	old.Spec.Replicas = api.Int32(0)
	old.Spec.Template.Spec.Containers = []api.Container{{Name: "web", Image: "shop/web:0.9"}}
	old.ResourceVersion, old.UID = "", ""
	if _, err := st.Create(old); err != nil {
		t.Fatal(err)
	}
	paused := d.DeepCopyObject().(*api.Deployment)
	paused.Name, paused.ResourceVersion, paused.UID, paused.Spec.Paused = "batch", "", "", true
	paused.Labels = map[string]string{"app": "batch"}
	paused.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "batch"}}
	paused.Spec.Template.Labels = map[string]string{"app": "batch"}
	if _, err := st.Create(paused); err != nil {
		t.Fatal(err)
	}
	st.Create(&api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: "worker-2", Labels: map[string]string{"pool": "batch"}}})
	web := d.DeepCopyObject().(*api.Deployment)
	web.Annotations = map[string]string{"deployment.kubernetes.io/revision": "2"}
	web.ResourceVersion = ""
	if _, err := st.Update(web); err != nil {
		t.Fatal(err)
	}
	return st
}

// bases are the commands' arguments in the table's examples.
var bases = map[string]string{
	"get": "get pods", "describe": "describe pod debug", "delete": "delete pod debug", "scale": "scale deployment/web --replicas=2",
	"set image": "set image deployment/web web=shop/web:2.0", "patch": `patch deployment/web -p '{"spec":{"replicas":2}}'`,
	"label": "label pod debug env=prod", "annotate": "annotate pod debug note=hi", "cordon": "cordon worker-2", "uncordon": "uncordon worker-1",
	"drain": "drain worker-2", "rollout status": "rollout status deployment/web", "rollout history": "rollout history deployment/web",
	"rollout undo": "rollout undo deployment/web", "rollout pause": "rollout pause deployment/web", "rollout resume": "rollout resume deployment/batch",
	"rollout restart": "rollout restart deployment/web", "create deployment": "create deployment api --image=shop/api:1.0",
	"create poddisruptionbudget": "create poddisruptionbudget web-pdb --selector=app=web --min-available=1",
	"taint":                      "taint nodes worker-2 dedicated=db:NoSchedule", "set resources": "set resources deployment/web --limits=cpu=200m",
	"expose": "expose deployment web --port=80", "autoscale": "autoscale deployment/web --max=5",
	"wait": "wait --for=condition=Available deployment/web", "events": "events", "diff": "diff -f -", "api-resources": "api-resources",
	"top pod": "top pod", "top node": "top node",
}

// examples are the lines that show a flag better than its default use.
var examples = map[string]string{
	"top pod --field-selector": "top pod --field-selector=spec.nodeName=worker-1",
	"top pod -l":               "top pod -l app=web",
	"top pod --sort-by":        "top pod --sort-by=cpu",
	"top node -l":              "top node -l tier!=db",
	"top node --sort-by":       "top node --sort-by=memory",
	"create poddisruptionbudget --max-unavailable": "create poddisruptionbudget web-pdb --selector=app=web --max-unavailable=1",
	"create poddisruptionbudget --min-available":   "create poddisruptionbudget web-pdb --selector=app=web --min-available=50%",
	"create poddisruptionbudget --selector":        "create poddisruptionbudget web-pdb --selector='app in (web)' --min-available=1",
	"get -l":                                       "get pods -l 'app in (web,api),!canary'",
	"get -o":                                       "get pods -o wide",
	"get --field-selector":                         "get pods --field-selector status.phase=Running,spec.nodeName=worker-1",
	"get -L":                                       "get pods -L app",
	"get --sort-by":                                "get pods --sort-by=.metadata.name -o name",
	"get --ignore-not-found":                       "get pod nope --ignore-not-found",
	"get --subresource":                            "get deployment web --subresource=status",
	"get -w":                                       "get pods -w",
	"get --watch-only":                             "get pods --watch-only",
	"get --output-watch-events":                    "get pods -w --output-watch-events",
	"get --allow-missing-template-keys":            "get pods -o jsonpath={.x} --allow-missing-template-keys=false",
	"get --chunk-size":                             "get pods --chunk-size=10",
	"describe -l":                                  "describe pods -l app=debug",
	"describe --show-events":                       "describe pod debug --show-events=false",
	"describe -A":                                  "describe pods -A -l app=debug",
	"delete --all":                                 "delete pods --all",
	"delete -l":                                    "delete pods -l app=web",
	"delete --field-selector":                      "delete pods --field-selector metadata.name=debug",
	"delete --cascade":                             "delete deployment web --cascade=orphan",
	"delete --force":                               "delete pod debug --force --grace-period=0",
	"delete --grace-period":                        "delete pod debug --grace-period=0",
	"delete --ignore-not-found":                    "delete pod nope --ignore-not-found",
	"delete -o":                                    "delete pod debug -o name",
	"delete --now":                                 "delete pod debug --now",
	"delete -A":                                    "delete pods -A -l app=debug",
	"scale --all":                                  "scale deployments --all --replicas=2",
	"scale -l":                                     "scale rs -l app=web --replicas=3",
	"scale --current-replicas":                     "scale deployment/web --replicas=2 --current-replicas=5",
	"scale -o":                                     "scale deployment/web --replicas=2 -o name",
	"scale --replicas":                             "scale deployment/web --replicas=4",
	"set image --all":                              "set image deployments --all web=shop/web:2.0",
	"set image -l":                                 "set image deployments -l app=web web=shop/web:2.0",
	"set image -o":                                 "set image deployment/web web=shop/web:2.0 -o name",
	"patch --type":                                 `patch deployment/web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":4}]'`,
	"patch -p":                                     `patch deployment/web -p '{"spec":{"replicas":4}}'`,
	"patch --subresource":                          `patch pod debug --subresource=status -p '{"status":{"phase":"Failed"}}'`,
	"patch -o":                                     `patch deployment/web -p '{"spec":{"replicas":4}}' -o jsonpath={.spec.replicas}`,
	"label --all":                                  "label pods --all env=prod",
	"label -l":                                     "label pods -l app=web env=prod",
	"label --overwrite":                            "label pod debug app=shell --overwrite",
	"label --list":                                 "label pod debug --list",
	"label --field-selector":                       "label pods --field-selector spec.nodeName=worker-1 env=prod",
	"label -A":                                     "label pods -A -l app=debug env=prod",
	"label -o":                                     "label pod debug env=prod -o name",
	"annotate --all":                               "annotate pods --all note=hi",
	"annotate -l":                                  "annotate pods -l app=web note=hi",
	"annotate --overwrite":                         "annotate pod debug note=bye --overwrite",
	"annotate --list":                              "annotate pod debug --list",
	"annotate --field-selector":                    "annotate pods --field-selector spec.nodeName=worker-1 note=hi",
	"annotate -A":                                  "annotate pods -A -l app=debug note=hi",
	"annotate -o":                                  "annotate pod debug note=hi -o name",
	"cordon -l":                                    "cordon -l pool=batch",
	"uncordon -l":                                  "uncordon -l pool=batch",
	"drain --force":                                "drain worker-1 --force",
	"drain -l":                                     "drain -l pool=batch",
	"drain --pod-selector":                         "drain worker-1 --pod-selector=app=web",
	"drain --grace-period":                         "drain worker-2 --grace-period=5",
	"rollout status -w":                            "rollout status deployment/web --watch=false",
	"rollout status --revision":                    "rollout status deployment/web --revision=2",
	"rollout status --timeout":                     "rollout status deployment/web --timeout=1m",
	"rollout status -l":                            "rollout status deployment -l app=web",
	"rollout history --revision":                   "rollout history deployment/web --revision=1",
	"rollout history -o":                           "rollout history deployment/web -o name",
	"rollout undo --to-revision":                   "rollout undo deployment/web --to-revision=1",
	"rollout pause -o":                             "rollout pause deployment/web -o name",
	"rollout resume -o":                            "rollout resume deployment/batch -o name",
	"rollout restart -o":                           "rollout restart deployment/web -o name",
	"create deployment --image":                    "create deployment api --image=shop/api:1.0 --image=shop/sidecar:1.0",
	"create deployment -r":                         "create deployment api --image=shop/api:1.0 -r 3",
	"create deployment --port":                     "create deployment api --image=shop/api:1.0 --port=8080",
	"create deployment -o":                         "create deployment api --image=shop/api:1.0 -o name",
	"rollout history -l":                           "rollout history deployment -l app=web",
	"rollout undo -o":                              "rollout undo deployment/web -o name",
	"rollout undo -l":                              "rollout undo deployment -l app=web",
	"rollout pause -l":                             "rollout pause deployment -l app=web",
	"rollout resume -l":                            "rollout resume deployment -l app=batch",
	"rollout restart -l":                           "rollout restart deployment -l app=web",
	"taint --all":                                  "taint nodes --all dedicated=db:NoSchedule",
	"taint -l":                                     "taint nodes -l pool=batch dedicated=db:NoSchedule",
	"taint --overwrite":                            "taint nodes worker-1 dedicated=db:NoSchedule --overwrite",
	"taint -o":                                     "taint nodes worker-2 dedicated=db:NoSchedule -o name",
	"set resources -c":                             "set resources deployment/web -c=web --limits=cpu=200m",
	"set resources --limits":                       "set resources deployment/web --limits=cpu=200m,memory=512Mi",
	"set resources --requests":                     "set resources deployment/web --requests=cpu=100m",
	"set resources --all":                          "set resources deployments --all --limits=cpu=200m",
	"set resources -l":                             "set resources deployments -l app=web --limits=cpu=200m",
	"set resources -o":                             "set resources deployment/web --limits=cpu=200m -o name",
	"diff -f":                                      "diff -f -",
	"diff -l":                                      "diff -f - -l app=web",
	"diff --prune":                                 "diff -f - --prune --prune-allowlist=core/v1/Pod",
	"diff --prune-allowlist":                       "diff -f - --prune --prune-allowlist=apps/v1/Deployment",
	"events --for":                                 "events --for deployment/web",
	"events --types":                               "events --types=Warning",
	"events -o":                                    "events -o name",
	"events --template":                            "events -o jsonpath={.kind}",
	"events -w":                                    "events -w --request-timeout=1s",
	"wait --all":                                   "wait --for=jsonpath={.metadata.name} deployments --all",
	"wait -A":                                      "wait --for=condition=Available deployments -l app=web -A",
	"wait --field-selector":                        "wait --for=condition=Ready pods --field-selector=metadata.name=debug",
	"wait --for":                                   "wait --for=jsonpath={.spec.replicas}=3 deployment/web",
	"wait -o":                                      "wait --for=jsonpath={.spec.replicas}=3 deployment/web -o name",
	"wait --template":                              "wait --for=jsonpath={.spec.replicas}=3 deployment/web --template={{.metadata.name}}",
	"wait -l":                                      "wait --for=condition=Available deployments -l app=web",
	"wait --timeout":                               "wait --for=delete pod debug --timeout=0",
	"expose --port":                                "expose deployment web --port=8080",
	"expose --target-port":                         "expose deployment web --port=80 --target-port=8080",
	"expose --type":                                "expose deployment web --port=80 --type=NodePort",
	"expose --name":                                "expose deployment web --port=80 --name=web-svc",
	"expose --protocol":                            "expose deployment web --port=53 --protocol=UDP",
	"expose --selector":                            "expose deployment web --port=80 --selector=app=web",
	"expose -l":                                    "expose deployment web --port=80 -l tier=front",
	"expose --cluster-ip":                          "expose deployment web --port=80 --cluster-ip=None",
	"expose --external-ip":                         "expose deployment web --port=80 --external-ip=192.0.2.10",
	"expose --session-affinity":                    "expose deployment web --port=80 --session-affinity=ClientIP",
	"expose -o":                                    "expose deployment web --port=80 -o name",
	"autoscale --max":                              "autoscale deployment/web --max=5",
	"autoscale --min":                              "autoscale deployment/web --min=2 --max=5",
	"autoscale --cpu-percent":                      "autoscale deployment/web --max=5 --cpu-percent=80",
	"autoscale --name":                             "autoscale deployment/web --max=5 --name=web-hpa",
	"autoscale -o":                                 "autoscale deployment/web --max=5 -o name",
	"global -n":                                    "get pods -n kube-system",
	"global --request-timeout":                     "get pods --request-timeout=30s",
	"api-resources --api-group":                    "api-resources --api-group=apps",
	"api-resources --categories":                   "api-resources --categories=all --sort-by=kind",
	"api-resources --namespaced":                   "api-resources --namespaced=false",
	"api-resources -o":                             "api-resources -o name",
	"api-resources --sort-by":                      "api-resources --sort-by=name",
}

// row is one line of the table: what runs, its exit code, and the first
// line it prints.
type row struct {
	cmd, flag, status, line, first string
	code                           int
}

func example(cmd string, f kubectl.Flag) string {
	name := "-" + f.Short
	if f.Short == "" {
		name = "--" + f.Name
	}
	if e, ok := examples[cmd+" "+name]; ok {
		return e
	}
	base := bases[cmd]
	if cmd == "global" {
		base = "get pods"
	}
	switch f.Kind {
	case kubectl.BoolFlag:
		return base + " --" + f.Name
	case kubectl.IntFlag:
		return base + " --" + f.Name + "=1"
	case kubectl.DurationFlag:
		return base + " --" + f.Name + "=1s"
	}
	return base + " --" + f.Name + "=x"
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	if l == "" {
		return "(nothing)"
	}
	return l
}

// tableMetrics is the table's metrics-server: each container of a
// running pod uses 100m and 64Mi, and every node answers.
type tableMetrics struct{}

func (tableMetrics) PodMetrics(p *api.Pod) ([]kubectl.ContainerUsage, bool) {
	if p.Status.Phase != "Running" {
		return nil, false
	}
	var out []kubectl.ContainerUsage
	for _, c := range p.Spec.Containers {
		out = append(out, kubectl.ContainerUsage{Name: c.Name, Usage: kubectl.Usage{CPU: 100, Memory: 64 << 20}})
	}
	return out, true
}

func (m tableMetrics) NodeMetrics(n *api.Node) (kubectl.Usage, bool) {
	return kubectl.Usage{CPU: 300, Memory: 192 << 20}, true
}

func rows(t testing.TB) []row {
	var out []row
	add := func(cmd string, f kubectl.Flag) {
		line := example(cmd, f)
		got, code := kubectl.Run(tableWorld(t), 90*api.Second, line)
		if strings.HasPrefix(cmd, "top ") {
			r := kubectl.ExecCluster(tableWorld(t), 90*api.Second, line, 1<<20, tableMetrics{})
			got, code = r.Output, r.Code
		}
		if cmd == "diff" {
			// kubectl diff -f - reads web scaled to 5 from stdin
			r := kubectl.ExecStdin(tableWorld(t), 90*api.Second, line, stdinOf(t, webScaled))
			got, code = r.Output, r.Code
		}
		status := "simulated"
		switch {
		case f.Refused != "":
			status = "refused"
		case f.Ignored != "":
			status = "no effect: " + f.Ignored
		}
		name := "--" + f.Name
		if f.Short != "" {
			name = "-" + f.Short + ", " + name
		}
		out = append(out, row{cmd: cmd, flag: name, status: status, line: line, first: firstLine(got), code: code})
	}
	for _, c := range kubectl.Commands() {
		for _, f := range c.Flags {
			add(c.Path, f)
		}
	}
	for _, f := range kubectl.GlobalFlags() {
		add("global", f)
	}
	for _, line := range []string{"frobnicate", "gte pods", "ro", "logs web", "rollout frob deployment/web", "create job x", "get pods --frob",
		"get pods -Z", "get pods --sort-by", "get pods -n", "get pods --no-headers=maybe", "get pods -o foo", "get widgets", "get all", "get pod,svc",
		"get pods -l 'app in (web'", "get pods --field-selector spec.foo=x", "get deploy web -o jsonpath='{.spec.replicas'",
		"get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName", "delete pods", "label pods debug web-x env=prod",
		"label pod debug app=x", "drain worker-1", "scale pod debug --replicas=2", "get pods -w | head -n 2"} {
		got, code := kubectl.Run(tableWorld(t), 90*api.Second, line)
		out = append(out, row{cmd: "lines", line: line, first: firstLine(got), code: code})
	}
	return out
}

func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return "`" + s + "`"
}

func table(rs []row) string {
	var b strings.Builder
	cmd := ""
	for _, r := range rs {
		if r.cmd != cmd {
			cmd = r.cmd
			switch cmd {
			case "global":
				b.WriteString("\n### Global flags (every command)\n\n| flag | here | example | exit | first line printed |\n|---|---|---|---|---|\n")
			case "lines":
				b.WriteString("\n### Lines kubectl refuses or answers specially\n\n| line | exit | first line printed |\n|---|---|---|\n")
			default:
				fmt.Fprintf(&b, "\n### kubectl %s\n\n| flag | here | example | exit | first line printed |\n|---|---|---|---|---|\n", cmd)
			}
		}
		if cmd == "lines" {
			fmt.Fprintf(&b, "| %s | %d | %s |\n", cell(r.line), r.code, cell(r.first))
			continue
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %d | %s |\n", r.flag, r.status, cell(r.line), r.code, cell(r.first))
	}
	return b.String()
}

const begin, end = "<!-- flag table: go test ./engine/kubectl -run TestDocTable -update -->\n", "<!-- end of flag table -->\n"

// TestDocTable runs every line of the flag table in docs/kubectl.md (one
// per flag of every command, and the lines kubectl refuses) and requires
// the exit code and first line the table gives. -update rewrites the
// table from what kubectl prints; review the diff.
func TestDocTable(t *testing.T) {
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no flag table between %q and %q", docPath, begin, end)
	}
	want := table(rows(t))
	if *update {
		if err := os.WriteFile(docPath, []byte(text[:i+len(begin)]+want+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got := text[i+len(begin) : j]
	if got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for k := range max(len(gl), len(wl)) {
			var g, w string
			if k < len(gl) {
				g = gl[k]
			}
			if k < len(wl) {
				w = wl[k]
			}
			if g != w {
				t.Errorf("%s: the flag table differs from what kubectl prints (run with -update and review):\n table:   %s\n kubectl: %s", docPath, g, w)
				break
			}
		}
	}
	for _, c := range kubectl.Commands() {
		for _, f := range c.Flags {
			if !strings.Contains(got, "| `--"+f.Name+"`") && !strings.Contains(got, ", --"+f.Name+"`") {
				t.Errorf("%s: kubectl %s --%s is not in the table", docPath, c.Path, f.Name)
			}
		}
	}
}
