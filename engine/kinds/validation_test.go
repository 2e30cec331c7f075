package kinds

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// web returns a valid Deployment as a learner would write it, before defaulting.
func web() *api.Deployment {
	return &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web"},
		Spec: api.DeploymentSpec{
			Replicas: api.Int32(3),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}},
			},
		},
	}
}

func createError(obj api.Object) string {
	Default(obj)
	err := ValidateCreate(obj)
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestValidateCreateDeployment(t *testing.T) {
	intstr := func(v api.IntOrString) *api.IntOrString { return &v }
	tests := []struct {
		name   string
		change func(d *api.Deployment)
		want   string
	}{
		{"valid", func(d *api.Deployment) {}, ""},
		{"negative replicas", func(d *api.Deployment) { d.Spec.Replicas = api.Int32(-1) },
			`The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{"selector does not match", func(d *api.Deployment) { d.Spec.Template.Labels = map[string]string{"app": "x"} },
			"The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"x\"}: `selector` does not match template `labels`"},
		{"missing selector", func(d *api.Deployment) { d.Spec.Selector = nil },
			"The Deployment \"web\" is invalid: \n" +
				"* spec.selector: Required value\n" +
				"* spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"},
		{"empty selector", func(d *api.Deployment) { d.Spec.Selector = &api.LabelSelector{} },
			`The Deployment "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment`},
		{"no containers", func(d *api.Deployment) { d.Spec.Template.Spec.Containers = nil },
			`The Deployment "web" is invalid: spec.template.spec.containers: Required value`},
		{"container without name and image", func(d *api.Deployment) { d.Spec.Template.Spec.Containers = []api.Container{{}} },
			"The Deployment \"web\" is invalid: \n" +
				"* spec.template.spec.containers[0].name: Required value\n" +
				"* spec.template.spec.containers[0].image: Required value"},
		{"duplicate container names", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, api.Container{Name: "web", Image: "x:1"})
		}, `The Deployment "web" is invalid: spec.template.spec.containers[1].name: Duplicate value: "web"`},
		{"maxSurge and maxUnavailable both 0", func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: intstr(api.FromInt(0)), MaxUnavailable: intstr(api.FromInt(0))}
		}, "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"},
		{"maxSurge 0% and maxUnavailable 0", func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: intstr(api.FromString("0%")), MaxUnavailable: intstr(api.FromInt(0))}
		}, "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"},
		{"maxUnavailable over 100%", func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxUnavailable: intstr(api.FromString("101%"))}
		}, `The Deployment "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%`},
		{"maxSurge not a percentage", func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: intstr(api.FromString("lots"))}
		}, `The Deployment "web" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: "lots": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{"negative maxSurge", func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: intstr(api.FromInt(-1))}
		}, `The Deployment "web" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0`},
		{"recreate with rollingUpdate", func(d *api.Deployment) {
			d.Spec.Strategy = api.DeploymentStrategy{Type: "Recreate", RollingUpdate: &api.RollingUpdateDeployment{}}
		}, "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"},
		{"unknown strategy", func(d *api.Deployment) { d.Spec.Strategy.Type = "BlueGreen" },
			`The Deployment "web" is invalid: spec.strategy: Unsupported value: {"Type":"BlueGreen","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"`},
		{"progress deadline not after minReadySeconds", func(d *api.Deployment) {
			d.Spec.MinReadySeconds = 30
			d.Spec.ProgressDeadlineSeconds = api.Int32(30)
		}, `The Deployment "web" is invalid: spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds`},
		{"invalid quantity", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].Resources.Requests = map[string]api.Quantity{"cpu": "lots"}
		}, `The Deployment "web" is invalid: spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`},
		{"negative quantity", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].Resources.Limits = map[string]api.Quantity{"memory": "-64Mi"}
		}, `The Deployment "web" is invalid: spec.template.spec.containers[0].resources.limits[memory]: Invalid value: "-64Mi": must be greater than or equal to 0`},
		{"request over limit", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].Resources = api.ResourceRequirements{
				Requests: map[string]api.Quantity{"cpu": "2"}, Limits: map[string]api.Quantity{"cpu": "1"}}
		}, `The Deployment "web" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`},
		{"unknown resource", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].Resources.Requests = map[string]api.Quantity{"cpus": "1"}
		}, `The Deployment "web" is invalid: spec.template.spec.containers[0].resources.requests[cpus]: Invalid value: "cpus": must be a standard resource for containers`},
		{"restartPolicy Never in a template", func(d *api.Deployment) { d.Spec.Template.Spec.RestartPolicy = "Never" },
			`The Deployment "web" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`},
		{"bad pull policy", func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].ImagePullPolicy = "Sometimes" },
			`The Deployment "web" is invalid: spec.template.spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`},
		{"invalid name", func(d *api.Deployment) { d.Name = "Web" },
			`The Deployment "Web" is invalid: metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"missing name", func(d *api.Deployment) { d.Name = "" },
			`The Deployment "" is invalid: metadata.name: Required value: name or generateName is required`},
		{"bad label value", func(d *api.Deployment) { d.Labels = map[string]string{"tier": "front end"} },
			`The Deployment "web" is invalid: metadata.labels: Invalid value: "front end": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		{"bad container name", func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Name = "Web_1" },
			`The Deployment "web" is invalid: spec.template.spec.containers[0].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{"bad selector operator", func(d *api.Deployment) {
			d.Spec.Selector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "Is", Values: []string{"web"}}}}
		}, "The Deployment \"web\" is invalid: \n" +
			"* spec.selector.matchExpressions[0].operator: Invalid value: \"Is\": not a valid selector operator\n" +
			"* spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"Is\",\"values\":[\"web\"]}]}: invalid label selector"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := web()
			tt.change(d)
			if got := createError(d); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestDeploymentSelectorIsImmutable(t *testing.T) {
	old := web()
	Default(old)
	d := web()
	d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web2"}}
	d.Spec.Template.Labels = map[string]string{"app": "web2"}
	Default(d)
	err := ValidateUpdate(old, d)
	want := `The Deployment "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	// Scaling is an update too, and allowed; an empty list equals a missing one.
	d = web()
	d.Spec.Replicas = api.Int32(10)
	d.Spec.Selector.MatchExpressions = []api.LabelSelectorRequirement{}
	Default(d)
	if err := ValidateUpdate(old, d); err != nil {
		t.Errorf("scale: %v", err)
	}
}

func TestReplicaSetSelectorIsImmutable(t *testing.T) {
	rs := func(app string) *api.ReplicaSet {
		r := &api.ReplicaSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}, ObjectMeta: api.ObjectMeta{Name: "web-abc"}}
		r.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": app}}
		r.Spec.Template.Labels = map[string]string{"app": app}
		r.Spec.Template.Spec.Containers = []api.Container{{Name: "web", Image: "web:1"}}
		Default(r)
		return r
	}
	err := ValidateUpdate(rs("a"), rs("b"))
	want := `The ReplicaSet "web-abc" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"b"}}: field is immutable`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

func pod() *api.Pod {
	return &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: "web-7d9c-x2kq9", Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}},
	}
}

func TestPodUpdates(t *testing.T) {
	old := pod()
	Default(old)
	forbidden := "The Pod \"web-7d9c-x2kq9\" is invalid: spec: Forbidden: pod updates may not change fields other than " +
		"`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` " +
		"(only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"
	tests := []struct {
		name   string
		change func(p *api.Pod)
		want   string
	}{
		{"new image", func(p *api.Pod) { p.Spec.Containers[0].Image = "shop/web:2.0" }, ""},
		{"bind to a node", func(p *api.Pod) { p.Spec.NodeName = "worker-1" }, ""},
		{"relabel", func(p *api.Pod) { p.Labels = map[string]string{"app": "debug"} }, ""},
		{"add a toleration", func(p *api.Pod) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: "gpu", Operator: "Exists"})
		}, ""},
		{"change resources", func(p *api.Pod) {
			p.Spec.Containers[0].Resources.Requests = map[string]api.Quantity{"cpu": "1"}
		}, forbidden},
		{"move to another node", func(p *api.Pod) { p.Spec.NodeName = "worker-2" }, forbidden},
	}
	bound := pod()
	bound.Spec.NodeName = "worker-1"
	Default(bound)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from := old
			if tt.name == "move to another node" {
				from = bound
			}
			p := from.DeepCopy()
			tt.change(p)
			Default(p)
			got := ""
			if err := ValidateUpdate(from, p); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestValidateCreateOtherKinds(t *testing.T) {
	p := pod()
	p.Spec.RestartPolicy = "Sometimes"
	if got, want := createError(p), `The Pod "web-7d9c-x2kq9" is invalid: spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`; got != want {
		t.Errorf("pod: got\n%s\nwant\n%s", got, want)
	}
	n := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: "worker-1", Namespace: "default"}}
	n.Spec.Taints = []api.Taint{{Key: "dedicated", Effect: "NoWay"}}
	if got, want := createError(n), `The Node "worker-1" is invalid: spec.taints[0].effect: Unsupported value: "NoWay": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`; got != want {
		t.Errorf("node: got\n%s\nwant\n%s", got, want)
	}
	if n.Namespace != "" {
		t.Errorf("Default kept namespace %q on a cluster-scoped Node", n.Namespace)
	}
	u := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Service"}}
	if got, want := createError(u), `The Service "" is invalid: metadata.name: Required value: name or generateName is required`; got != want {
		t.Errorf("service: got\n%s\nwant\n%s", got, want)
	}
	if createError(&api.Event{}) != "" {
		t.Errorf("events are not validated")
	}
}

func TestDefaultDeployment(t *testing.T) {
	d := web()
	d.Spec.Replicas = nil
	d.Spec.Template.Spec.Containers = []api.Container{
		{Name: "a", Image: "nginx"}, {Name: "b", Image: "nginx:latest"}, {Name: "c", Image: "nginx:1.25"},
		{Name: "d", Image: "nginx@sha256:abcd"}, {Name: "e", Image: "registry:5000/nginx"}, {Name: "f", Image: "nginx", ImagePullPolicy: "Never"},
	}
	Default(d)
	s := d.Spec
	if d.Namespace != "default" || *s.Replicas != 1 || s.Strategy.Type != "RollingUpdate" ||
		s.Strategy.RollingUpdate.MaxSurge.String() != "25%" || s.Strategy.RollingUpdate.MaxUnavailable.String() != "25%" ||
		*s.RevisionHistoryLimit != 10 || *s.ProgressDeadlineSeconds != 600 {
		t.Errorf("deployment defaults: %+v", s)
	}
	ps := s.Template.Spec
	if ps.RestartPolicy != "Always" || *ps.TerminationGracePeriodSeconds != 30 || ps.SchedulerName != "default-scheduler" {
		t.Errorf("pod spec defaults: %+v", ps)
	}
	var policies []string
	for _, c := range ps.Containers {
		policies = append(policies, c.ImagePullPolicy)
	}
	want := []string{"Always", "Always", "IfNotPresent", "IfNotPresent", "Always", "Never"}
	if !reflect.DeepEqual(policies, want) {
		t.Errorf("imagePullPolicy = %v, want %v", policies, want)
	}
	if len(ps.Tolerations) != 0 {
		t.Errorf("templates get no default tolerations: %+v", ps.Tolerations)
	}
	before := d.DeepCopy()
	Default(d)
	if !reflect.DeepEqual(before, d) {
		t.Errorf("Default is not idempotent")
	}
	if err := ValidateCreate(d); err != nil {
		t.Errorf("defaulted deployment is invalid: %v", err)
	}
}

func TestDefaultPodTolerations(t *testing.T) {
	p := pod()
	p.Spec.Tolerations = []api.Toleration{{Key: validation.TaintNodeUnreachable, Operator: "Exists", Effect: "NoExecute"}}
	Default(p)
	if len(p.Spec.Tolerations) != 2 {
		t.Fatalf("tolerations: %+v", p.Spec.Tolerations)
	}
	if tol := p.Spec.Tolerations[1]; tol.Key != validation.TaintNodeNotReady || *tol.TolerationSeconds != 300 {
		t.Errorf("added toleration: %+v", tol)
	}
	if p.Spec.Tolerations[0].TolerationSeconds != nil {
		t.Errorf("the pod's own toleration was changed")
	}
}

func TestErrorForms(t *testing.T) {
	d := web()
	d.Spec.Replicas = api.Int32(-2)
	d.Spec.Template.Spec.Containers = nil
	Default(d)
	err := ValidateCreate(d)
	var verr *validation.Error
	if !errors.As(err, &verr) {
		t.Fatalf("ValidateCreate returned %T, want *Error", err)
	}
	if verr.Kind != "Deployment" || verr.Name != "web" || len(verr.Causes) != 2 || verr.Reason() != "Invalid" {
		t.Errorf("error fields: %+v", verr)
	}
	want := `Deployment.apps "web" is invalid: [spec.replicas: Invalid value: -2: must be greater than or equal to 0, spec.template.spec.containers: Required value]`
	if got := verr.Message(); got != want {
		t.Errorf("Message() = %s\nwant %s", got, want)
	}
	one := validation.NewError("Pod", "web-x", validation.ErrorList{validation.Required(validation.Path("spec").Child("containers").Index(0).Child("image"), "")})
	if got, want := one.Message(), `Pod "web-x" is invalid: spec.containers[0].image: Required value`; got != want {
		t.Errorf("Message() = %s, want %s", got, want)
	}
	if validation.NewError("Pod", "x", nil) != nil {
		t.Errorf("NewError with no causes is not nil")
	}
}

func ExampleValidateCreate() {
	d := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web"},
	}
	d.Spec.Replicas = api.Int32(-1)
	d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Spec.Template.Labels = map[string]string{"app": "web"}
	d.Spec.Template.Spec.Containers = []api.Container{{Name: "web", Image: "shop/web:1.0"}}
	Default(d)
	fmt.Println(ValidateCreate(d))
	// Output:
	// The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
}
