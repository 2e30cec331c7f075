package kubectl

import (
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
	"reconcile/engine/store"
)

// taint, set resources, expose and autoscale: the commands that change a
// node's taints, a pod template's resources, or create the Service or the
// HorizontalPodAutoscaler of a workload, with kubectl's words.

// taintSpec is one taint argument: key[=value]:effect to add, key[:effect]-
// to remove.
type taintSpec struct {
	api.Taint
	remove bool
	text   string
}

func parseTaintSpecs(args []string) (add, remove []taintSpec, err error) {
	for _, a := range args {
		spec := taintSpec{text: a}
		s := a
		if strings.HasSuffix(s, "-") {
			spec.remove, s = true, strings.TrimSuffix(s, "-")
			spec.text = s
		}
		kv, effect, hasEffect := strings.Cut(s, ":")
		key, value, _ := strings.Cut(kv, "=")
		if key == "" || (!spec.remove && !hasEffect) || strings.Count(s, ":") > 1 {
			return nil, nil, fmt.Errorf("error: invalid taint spec: %s", a)
		}
		if hasEffect || !spec.remove {
			switch effect {
			case "NoSchedule", "PreferNoSchedule", "NoExecute":
			default:
				return nil, nil, fmt.Errorf("error: invalid taint effect: %s, unsupported taint effect", effect)
			}
		}
		spec.Key, spec.Effect = key, effect
		if !spec.remove {
			spec.Value = value
			add = append(add, spec)
		} else {
			remove = append(remove, spec)
		}
	}
	return add, remove, nil
}

// taint runs kubectl taint NODE KEY[=VALUE]:EFFECT ... | KEY[:EFFECT]-.
func (k *cmd) taint() (string, error) {
	var resources, specs []string
	for _, a := range k.in.Args {
		if strings.Contains(a, ":") || strings.Contains(a, "=") || strings.HasSuffix(a, "-") {
			specs = append(specs, a)
		} else {
			resources = append(resources, a)
		}
	}
	if len(resources) == 0 && !k.in.Bool("all", false) && k.in.String("selector", "") == "" {
		return "", errors.New("error: at least one resource name must be specified since 'all' parameter is not set")
	}
	add, remove, err := parseTaintSpecs(specs)
	if err != nil {
		return "", err
	}
	if len(add) == 0 && len(remove) == 0 {
		return "", errors.New("error: at least one taint update is required")
	}
	p, err := k.newPrinter(printFormats)
	if err != nil {
		return "", err
	}
	// kubectl taint node NAME, nodes NAME, node/NAME, or NAME... after a
	// first word naming the node kind.
	var names []string
	if len(resources) > 0 {
		first := resources[0]
		if kind, name, ok := strings.Cut(first, "/"); ok {
			if ks, err := kindsOf(kind); err != nil || ks[0].Name != "Node" {
				return "", fmt.Errorf("error: invalid resource type %s, only node types are supported", kind)
			}
			names = append([]string{name}, resources[1:]...)
		} else {
			if ks, err := kindsOf(first); err != nil || ks[0].Name != "Node" {
				return "", fmt.Errorf("error: invalid resource type %s, only node types are supported", first)
			}
			names = resources[1:]
		}
	}
	var nodes []*api.Node
	if len(names) == 0 {
		kind, _ := api.KindOf("Node")
		objs, err := k.list(kind, k.selection())
		if err != nil {
			return "", err
		}
		for _, o := range objs {
			nodes = append(nodes, o.(*api.Node).DeepCopy())
		}
	}
	for _, name := range names {
		o, err := k.obj("Node", name)
		if err != nil {
			return "", err
		}
		nodes = append(nodes, o.(*api.Node).DeepCopy())
	}
	kind, _ := api.KindOf("Node")
	var b strings.Builder
	for _, n := range nodes {
		taints, err := retaint(n, add, remove, k.in.Bool("overwrite", false))
		if err != nil {
			return b.String(), err
		}
		n.Spec.Taints = taints
		out, err := k.write(n)
		if err != nil {
			return b.String(), err
		}
		what := "tainted"
		switch {
		case len(remove) > 0 && len(add) > 0, len(add) > 0 && k.in.Bool("overwrite", false):
			what = "modified"
		case len(remove) > 0:
			what = "untainted"
		}
		s, _ := k.done(p, kind, out, what)
		b.WriteString(s)
	}
	return b.String(), nil
}

// retaint returns n's taints with remove taken off and add put on, as
// kubectl's reorganizeTaints does.
func retaint(n *api.Node, add, remove []taintSpec, overwrite bool) ([]api.Taint, error) {
	if !overwrite {
		var keys []string
		for _, a := range add {
			for _, t := range n.Spec.Taints {
				if t.Key == a.Key && t.Effect == a.Effect {
					keys = append(keys, a.Key)
				}
			}
		}
		if len(keys) > 0 {
			return nil, fmt.Errorf("error: node %s already has %s taint(s) with same effect(s) and --overwrite is false", n.Name, strings.Join(keys, ","))
		}
	}
	// The taints added come first, then those kept, as kubectl's
	// reorganizeTaints orders them.
	var out []api.Taint
	for _, a := range add {
		out = append(out, a.Taint)
	}
	for _, t := range n.Spec.Taints {
		keep := true
		for _, a := range add {
			keep = keep && !(t.Key == a.Key && t.Effect == a.Effect)
		}
		for _, r := range remove {
			keep = keep && !(t.Key == r.Key && (r.Effect == "" || t.Effect == r.Effect))
		}
		if keep {
			out = append(out, t)
		}
	}
	for _, r := range remove {
		found := false
		for _, t := range n.Spec.Taints {
			found = found || (t.Key == r.Key && (r.Effect == "" || t.Effect == r.Effect))
		}
		if !found {
			return nil, fmt.Errorf("error: taint %q not found", r.text)
		}
	}
	return out, nil
}

// setResources runs set resources: --limits and --requests on the
// containers -c names (all by default) of workloads and pods.
func (k *cmd) setResources() (string, error) {
	limits, requests := k.in.String("limits", ""), k.in.String("requests", "")
	if limits == "" && requests == "" {
		return "", errors.New("error: you must specify an update to requests or limits (in the form of --limits/--requests)")
	}
	if len(k.in.Args) == 0 && k.in.String("selector", "") == "" && !k.in.Bool("all", false) {
		return "", errNoResources
	}
	parse := func(s string) (map[string]api.Quantity, error) {
		out := map[string]api.Quantity{}
		if s == "" {
			return out, nil
		}
		for _, kv := range strings.Split(s, ",") {
			name, q, ok := strings.Cut(kv, "=")
			if !ok || name == "" {
				return nil, fmt.Errorf("error: Invalid argument syntax %s, expected <resource>=<value>", kv)
			}
			out[name] = api.Quantity(q)
		}
		return out, nil
	}
	lim, err := parse(limits)
	if err != nil {
		return "", err
	}
	req, err := parse(requests)
	if err != nil {
		return "", err
	}
	p, objs, errs, err := k.changeTargets(k.in.Args)
	if err != nil {
		return "", err
	}
	want := k.in.String("containers", "*")
	var b strings.Builder
	for _, f := range objs {
		o := f.obj.DeepCopyObject()
		containers, err := setContainers(f, o)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		hit := false
		for i := range containers {
			c := &containers[i]
			if want != "*" && c.Name != want {
				continue
			}
			hit = true
			set := func(m *map[string]api.Quantity, from map[string]api.Quantity) {
				if len(from) == 0 {
					return
				}
				n := map[string]api.Quantity{}
				for k, v := range *m {
					n[k] = v
				}
				for k, v := range from {
					n[k] = v
				}
				*m = n
			}
			set(&c.Resources.Limits, lim)
			set(&c.Resources.Requests, req)
		}
		if !hit {
			errs = append(errs, fmt.Errorf("error: unable to find container named %s", want))
			continue
		}
		out, err := k.write(o)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s, _ := k.done(p, f.kind, out, "resource requirements updated")
		b.WriteString(s)
	}
	return b.String(), errorsText(errs)
}

// exposeTarget reads the one object expose and autoscale act on.
func (k *cmd) exposeTarget(verb string) (found, error) {
	if len(k.in.Args) == 0 {
		return found{}, fmt.Errorf("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'")
	}
	// expose's --selector is the Service's, not one that chooses objects.
	in := *k.in
	in.flags = maps.Clone(k.in.flags)
	delete(in.flags, "selector")
	named := *k
	named.in = &in
	objs, errs, err := named.resolve(k.in.Args, false)
	if err != nil {
		return found{}, err
	}
	if len(errs) > 0 {
		return found{}, errs[0]
	}
	if len(objs) != 1 {
		return found{}, fmt.Errorf("error: kubectl %s takes one object here", verb)
	}
	return objs[0], nil
}

// expose runs expose: a Service whose selector is the workload's (a pod's
// labels), on --port or the ports its pod template declares.
func (k *cmd) expose() (string, error) {
	p, err := k.newPrinter(printFormats)
	if err != nil {
		return "", err
	}
	f, err := k.exposeTarget("expose")
	if err != nil {
		return "", err
	}
	var sel map[string]string
	var spec *api.PodSpec
	switch o := f.obj.(type) {
	case *api.Pod:
		sel, spec = o.Labels, &o.Spec
	case *api.Service:
		sel = o.Spec.Selector
	default:
		t := podTemplate(o)
		if t == nil {
			return "", fmt.Errorf("error: cannot expose a %s", f.kind.Name)
		}
		spec = &t.Spec
		if ls := workloadSelector(o); ls != nil {
			if len(ls.MatchExpressions) > 0 {
				return "", errors.New("error: couldn't retrieve selectors via --selector flag or introspection: the selector has matchExpressions, which a Service cannot hold")
			}
			sel = ls.MatchLabels
		}
	}
	if s := k.in.String("selector", ""); s != "" {
		m, _, err := parsePairs(strings.Split(s, ","), "label")
		if err != nil {
			return "", err
		}
		sel = m
	}
	if len(sel) == 0 {
		return "", errors.New("error: couldn't retrieve selectors via --selector flag or introspection")
	}
	protocol := k.in.String("protocol", "TCP")
	var ports []api.ServicePort
	if s := k.in.String("port", ""); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("error: invalid port %q", s)
		}
		ports = append(ports, api.ServicePort{Port: int32(n), Protocol: protocol})
	} else if spec != nil {
		for _, c := range spec.Containers {
			for _, cp := range c.Ports {
				pr := cp.Protocol
				if pr == "" {
					pr = "TCP"
				}
				ports = append(ports, api.ServicePort{Port: cp.ContainerPort, Protocol: pr})
			}
		}
		if len(ports) > 1 {
			for i := range ports {
				ports[i].Name = fmt.Sprintf("port-%d", i+1)
			}
		}
	}
	if len(ports) == 0 {
		return "", errors.New("error: couldn't find port via --port flag or introspection")
	}
	for i := range ports {
		ports[i].TargetPort = api.IntOrString{Int: ports[i].Port}
		if tp := k.in.String("target-port", ""); tp != "" {
			if n, err := strconv.Atoi(tp); err == nil {
				ports[i].TargetPort = api.IntOrString{Int: int32(n)}
			} else {
				ports[i].TargetPort = api.IntOrString{IsString: true, Str: tp}
			}
		}
	}
	name := k.in.String("name", f.obj.Meta().Name)
	labels := f.obj.Meta().Labels
	if s := k.in.String("labels", ""); s != "" {
		if labels, _, err = parsePairs(strings.Split(s, ","), "label"); err != nil {
			return "", err
		}
	}
	svc := &api.Service{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: f.obj.Meta().Namespace, Labels: copyMap(labels)},
		Spec: api.ServiceSpec{Type: k.in.String("type", ""), Selector: copyMap(sel), Ports: ports,
			SessionAffinity: k.in.String("session-affinity", ""), ClusterIP: k.in.String("cluster-ip", "")},
	}
	if ip := k.in.String("external-ip", ""); ip != "" {
		svc.Spec.ExternalIPs = []string{ip}
	}
	return k.createNew(p, svc, "exposed")
}

// autoscale runs autoscale: a HorizontalPodAutoscaler (autoscaling/v2) of
// the workload, --min to --max replicas at --cpu-percent of the pods' CPU
// request.
func (k *cmd) autoscale() (string, error) {
	p, err := k.newPrinter(printFormats)
	if err != nil {
		return "", err
	}
	max := k.in.Int("max", -1)
	if max < 1 {
		return "", fmt.Errorf("error: --max=MAXPODS is required and must be at least 1, max: %d", max)
	}
	minR := k.in.Int("min", -1)
	if minR > max {
		return "", fmt.Errorf("error: --max=MAXPODS must be larger or equal to --min=MINPODS, max: %d, min: %d", max, minR)
	}
	f, err := k.exposeTarget("autoscale")
	if err != nil {
		return "", err
	}
	if kinds.Replicas(f.obj) == nil {
		return "", fmt.Errorf("error: cannot autoscale a %s: not scalable", f.kind.Name)
	}
	hpa := &api.HorizontalPodAutoscaler{
		TypeMeta:   api.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: api.ObjectMeta{Name: k.in.String("name", f.obj.Meta().Name), Namespace: f.obj.Meta().Namespace},
		Spec: api.HPASpec{
			ScaleTargetRef: api.CrossVersionObjectReference{Kind: f.kind.Name, Name: f.obj.Meta().Name, APIVersion: f.kind.APIVersion()},
			MaxReplicas:    int32(max),
		},
	}
	if minR >= 1 {
		hpa.Spec.MinReplicas = api.Int32(int32(minR))
	}
	if cpu := k.in.Int("cpu-percent", -1); cpu >= 0 {
		hpa.Spec.Metrics = []api.MetricSpec{{Type: "Resource", Resource: &api.ResourceMetricSource{Name: "cpu",
			Target: api.MetricTarget{Type: "Utilization", AverageUtilization: api.Int32(int32(cpu))}}}}
	}
	return k.createNew(p, hpa, "autoscaled")
}

// createNew creates o and says what kubectl says of it.
func (k *cmd) createNew(p *printer, o api.Object, what string) (string, error) {
	out, err := k.st.Create(o)
	if err != nil {
		var se *store.StatusError
		if errors.As(err, &se) && se.Reason == "AlreadyExists" {
			return "", fmt.Errorf("Error from server (AlreadyExists): %s", se.Message)
		}
		return "", err
	}
	kind, _ := api.KindOf(o.GetTypeMeta().Kind)
	return k.done(p, kind, out, what)
}

func copyMap(m map[string]string) map[string]string { return maps.Clone(m) }

// workloadSelector is the label selector of a workload.
func workloadSelector(o api.Object) *api.LabelSelector {
	switch w := o.(type) {
	case *api.Deployment:
		return w.Spec.Selector
	case *api.ReplicaSet:
		return w.Spec.Selector
	case *api.StatefulSet:
		return w.Spec.Selector
	case *api.DaemonSet:
		return w.Spec.Selector
	}
	return nil
}
