package kubectl

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, ok := range []string{"get pods", "set image deployment/web web=shop/web:2.0", "rollout undo deployment/web",
		`patch deployment web -p '{"spec":{"replicas":3}}'`, "drain worker-1 --ignore-daemonsets", "scale deployment/web --replicas=5",
		"get pods -A -w --request-timeout=1m", "get pods -w | head -n 5", "get pod,svc -l 'app in (web,api),!canary' -o wide",
		"get pods -o jsonpath='{.items[0].metadata.name}'", "get pods --sort-by=.status.podIP", "delete pods -l app=web --cascade=orphan",
		"label pods --all env=prod --overwrite", "-n kube-system get pods", "rollout history deployment/web --revision=2",
		"delete pod web-1 --grace-period=0 --force", "patch deployment web --type=json -p '[]'", "describe rs"} {
		if err := Check(ok); err != nil {
			t.Errorf("Check(%q): %v", ok, err)
		}
	}
	for line, want := range map[string]string{
		"   ":              `empty command: want a kubectl command such as "get pods"`,
		"kubectl get pods": `write the command without "kubectl": "get pods"`,
		"logs web-1":       "unknown kubectl command \"logs\": want one of apply, create, expose, delete, scale, autoscale, set, patch, label, annotate, taint, cordon, uncordon, drain, rollout, wait, get, describe, events, top, api-resources, diff",
		"diff -f -":        "kubectl diff -f - needs manifests on stdin: in a lesson, write them in a diff: step (diff: |, then the YAML)",
		"diff -f - --prune --prune-allowlist=apps/v1": "invalid GroupVersionKind format: apps/v1, please follow <group/version/kind>",
		"diff -f web.yaml":                            "the path \"web.yaml\" cannot be read: reading manifests from files is not simulated: kubectl diff reads them from stdin (-f -), in a lesson a diff: step",
		"diff":                                        "must specify one of -f and -k",
		"gte pods":                                    "unknown kubectl command \"gte\" (did you mean get?): want one of apply, create, expose, delete, scale, autoscale, set, patch, label, annotate, taint, cordon, uncordon, drain, rollout, wait, get, describe, events, top, api-resources, diff",
		"rollout":                                     "kubectl rollout needs a subcommand: one of status, undo, pause, resume, history, restart",
		"set --image=x":                               "kubectl set needs a subcommand, e.g. set image deployment/web web=shop/web:2.0",
		"get pods -A --frob":                          "unknown flag: --frob",
		"get pods -w=maybe":                           `invalid argument "maybe" for "-w, --watch" flag: strconv.ParseBool: parsing "maybe": invalid syntax`,
		"get pods -Z":                                 "unknown shorthand flag: 'Z' in -Z",
		"get pods --sort-by":                          "flag needs an argument: --sort-by",
		"get pods -o foo":                             `unable to match a printer suitable for the output format "foo", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml`,
		"get pods -l 'app in (web'":                   `Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "app in (web", field selector "": unable to parse requirement: found '', expected: ',' or ')'`,
		"get deploy --field-selector a=b":             `Error from server (BadRequest): Unable to find "apps/v1, Resource=deployments" that match label selector "", field selector "a=b": "a" is not a known field selector: only "metadata.name", "metadata.namespace"`,
		"get widgets":                                 `the server doesn't have a resource type "widgets"`,
		"delete pods":                                 "resource(s) were provided, but no name was specified",
		"delete pod x --cascade=all":                  `invalid cascade value (all). Must be "background", "foreground", or "orphan"`,
		"label pods -l app=web --all x=y":             "cannot set --all and --selector at the same time",
		"scale deployment/web":                        `required flag(s) "replicas" not set`,
		"get pods -o jsonpath='{.items[0]'":           "error parsing jsonpath {.items[0], unclosed action",
		"patch deployment web --type=xml -p '{}'":     `--type must be one of [json merge strategic], not "xml"`,
		"get pods --context=prod":                     "--context is not simulated: this kubectl talks to the one simulated cluster, as its one user",
	} {
		if err := Check(line); err == nil || err.Error() != want {
			t.Errorf("Check(%q): got %v\nwant %s", line, err, want)
		}
	}
}

// TestUnknownCommand matches cobra's suggestions as kubectl prints them.
func TestUnknownCommand(t *testing.T) {
	for w, want := range map[string]string{
		"frobnicate": "error: unknown command \"frobnicate\" for \"kubectl\"",
		"gte":        "error: unknown command \"gte\" for \"kubectl\"\n\nDid you mean this?\n\tget",
		"des":        "error: unknown command \"des\" for \"kubectl\"\n\nDid you mean this?\n\tset\n\tget\n\tdescribe",
		"ro":         "error: unknown command \"ro\" for \"kubectl\"\n\nDid you mean this?\n\trun\n\trollout\n\ttop\n\tcp",
		"ps":         "error: unknown command \"ps\" for \"kubectl\"\n\nDid you mean this?\n\tget\n\tcp\n\twait",
		"rm":         "error: unknown command \"rm\" for \"kubectl\"\n\nDid you mean this?\n\trun\n\tdelete\n\tcp",
		"l":          "error: unknown command \"l\" for \"kubectl\"\n\nDid you mean this?\n\tlogs\n\tcp\n\tlabel",
		"hel":        "error: unknown command \"hel\" for \"kubectl\"\n\nDid you mean this?\n\tset\n\tget",
		"optons":     "error: unknown command \"optons\" for \"kubectl\"\n\nDid you mean this?\n\toptions",
	} {
		if got := unknownCommand(w).Error(); got != want {
			t.Errorf("%s:\n got %q\nwant %q", w, got, want)
		}
	}
}

// TestOneListOfVerbs: the verbs the console offers (Verbs), the commands the
// grammar reads (Commands) and the lines a lesson's steps and reconcile check
// take (Check) are one list: a verb one takes, all take.
func TestOneListOfVerbs(t *testing.T) {
	top := map[string]bool{}
	for _, c := range Commands() {
		verb, _, _ := strings.Cut(c.Path, " ")
		if verb != "help" {
			top[verb] = true
		}
	}
	for _, v := range Verbs {
		if !top[v] {
			t.Errorf("Verbs lists %q, which the grammar has no command for", v)
		}
		delete(top, v)
	}
	for v := range top {
		t.Errorf("the grammar has a command %q that Verbs does not list", v)
	}
	lines := map[string]string{
		"create": "create deployment web --image=nginx", "expose": "expose deployment web --port=80", "delete": "delete pod web",
		"scale": "scale deployment/web --replicas=2", "autoscale": "autoscale deployment/web --min=2 --max=5 --cpu-percent=80",
		"set": "set resources deployment/web -c=web --limits=cpu=200m,memory=512Mi", "patch": `patch deployment web -p '{"spec":{"replicas":2}}'`,
		"label": "label pod web a=b", "annotate": "annotate pod web a=b", "taint": "taint nodes worker-1 key1=value1:NoSchedule",
		"cordon": "cordon worker-1", "uncordon": "uncordon worker-1", "drain": "drain worker-1", "rollout": "rollout status deployment/web", "wait": "wait --for=condition=Available deployment/web", "events": "events --for deployment/web", "api-resources": "api-resources",
		"get": "get pods", "describe": "describe pods", "top": "top pods --containers --sort-by=cpu",
	}
	for _, v := range Verbs {
		if v == "apply" || v == "diff" {
			continue // a lesson applies (diffs) manifests in an apply: (diff:) step
		}
		line, ok := lines[v]
		if !ok {
			t.Errorf("no line of %q here: add one", v)
			continue
		}
		if err := Check(line); err != nil {
			t.Errorf("Check(%q): %v", line, err)
		}
	}
	for _, c := range Commands() {
		if strings.HasPrefix(c.Path, "set ") || strings.HasPrefix(c.Path, "rollout ") || strings.HasPrefix(c.Path, "create ") {
			if err := Check(c.Path + " --help"); err != nil {
				t.Errorf("Check(%q): %v", c.Path+" --help", err)
			}
		}
	}
}
