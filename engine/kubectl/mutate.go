package kubectl

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
	"reconcile/engine/selector"
	"reconcile/engine/store"
)

// write stores o (a copy of a stored object, changed), recording the
// command line as the change cause when --record asks.
func (k *cmd) write(o api.Object) (api.Object, error) {
	if k.in.Bool("record", false) {
		m := o.Meta()
		if m.Annotations == nil {
			m.Annotations = map[string]string{}
		}
		m.Annotations["kubernetes.io/change-cause"] = k.changeCause()
	}
	o.Meta().ResourceVersion = ""
	return k.st.Update(o)
}

// changeCause is what --record writes: the command, its arguments, then
// every flag given as --name=value.
func (k *cmd) changeCause() string {
	parts := append([]string{"kubectl", k.in.Command}, k.in.Args...)
	return strings.Join(append(parts, k.in.given...), " ")
}

// done prints what a command did to an object, or the object in the -o
// format.
func (k *cmd) done(p *printer, kind api.Kind, o api.Object, what string) (string, error) {
	if p == nil || p.format == "" {
		return fmt.Sprintf("%s/%s %s\n", kind.Qualified(), o.Meta().Name, what), nil
	}
	return p.print([]found{{kind, o}}, true)
}

// label runs label and annotate: key=value sets, key- removes, on every
// object named or selected.
func (k *cmd) label() (string, error) {
	noun, past := "label", "labeled"
	if k.in.Command == "annotate" {
		noun, past = "annotation", "annotated"
	}
	var resources, pairs []string
	for _, a := range k.in.Args {
		pair := (strings.Contains(a, "=") && a[0] != '=') || (strings.HasSuffix(a, "-") && a != "-")
		switch {
		case pair:
			pairs = append(pairs, a)
		case len(pairs) > 0:
			return "", fmt.Errorf("error: all resources must be specified before %s changes: %s", noun, a)
		default:
			resources = append(resources, a)
		}
	}
	all := k.in.Bool("all", false)
	switch {
	case all && k.in.String("selector", "") != "":
		return "", errors.New("error: cannot set --all and --selector at the same time")
	case all && k.in.String("field-selector", "") != "":
		return "", errors.New("error: cannot set --all and --field-selector at the same time")
	case len(resources) < 1:
		return "", errors.New("error: one or more resources must be specified as <resource> <name> or <resource>/<name>")
	case len(pairs) < 1 && !k.in.Bool("list", false):
		return "", fmt.Errorf("error: at least one %s update is required", noun)
	}
	set, remove, err := parsePairs(pairs, noun)
	if err != nil {
		return "", err
	}
	p, objs, errs, err := k.changeTargets(resources)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range objs {
		n := f.obj.DeepCopyObject()
		m := n.Meta()
		target := &m.Labels
		if noun == "annotation" {
			target = &m.Annotations
		}
		if k.in.Bool("list", false) {
			for _, key := range sortedMapKeys(*target) {
				fmt.Fprintf(&b, "%s=%s\n", key, (*target)[key])
			}
			continue
		}
		if err := noOverwrite(*target, set, noun, k.in.Bool("overwrite", false)); err != nil {
			errs = append(errs, err)
			continue
		}
		if *target == nil {
			*target = map[string]string{}
		}
		for _, key := range remove {
			if _, ok := (*target)[key]; !ok && noun == "label" {
				fmt.Fprintf(&b, "label %q not found.\n", key)
			}
			delete(*target, key)
		}
		for key, v := range set {
			(*target)[key] = v
		}
		what := past
		if noun == "label" {
			before, after := len(f.obj.Meta().Labels), len(*target)
			switch {
			case labelsEqual(f.obj.Meta().Labels, *target):
				what = "not labeled"
			case !k.in.Bool("overwrite", false) && after < before:
				what = "unlabeled"
			}
		}
		out, err := k.write(n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s, err := k.done(p, f.kind, out, what)
		b.WriteString(s)
		if err != nil {
			errs = append(errs, err)
		}
	}
	return b.String(), errorsText(errs)
}

// changeTargets reads -o and finds the objects a change acts on.
func (k *cmd) changeTargets(resources []string) (*printer, []found, []error, error) {
	p, err := k.newPrinter(printFormats)
	if err != nil {
		return nil, nil, nil, err
	}
	objs, errs, err := k.resolve(resources, true)
	return p, objs, errs, err
}

func labelsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// parsePairs reads key=value and key- arguments, with kubectl's checks.
func parsePairs(pairs []string, noun string) (map[string]string, []string, error) {
	set := map[string]string{}
	var remove, invalid []string
	for _, a := range pairs {
		switch {
		case strings.Contains(a, "=") && a[0] != '=':
			key, v, _ := strings.Cut(a, "=")
			if noun == "label" {
				if strings.Count(a, "=") != 1 {
					return nil, nil, fmt.Errorf("error: invalid label spec: %s", a)
				}
				if msgs := selector.IsLabelValue(v); len(msgs) > 0 {
					return nil, nil, fmt.Errorf("error: invalid label value: %q: %s", a, strings.Join(msgs, ";"))
				}
			}
			set[key] = v
		case strings.HasSuffix(a, "-") && a != "-":
			remove = append(remove, a[:len(a)-1])
		default:
			invalid = append(invalid, a)
		}
	}
	if len(invalid) > 0 {
		if noun == "label" {
			return nil, nil, fmt.Errorf("error: unknown label spec: %s", invalid[0])
		}
		return nil, nil, fmt.Errorf("error: invalid annotation format: %s", strings.Join(invalid, ", "))
	}
	var both []string
	for _, r := range remove {
		if _, ok := set[r]; ok {
			both = append(both, r)
		}
	}
	if len(both) > 0 {
		if noun == "label" {
			return nil, nil, errors.New("error: can not both modify and remove a label in the same command")
		}
		return nil, nil, fmt.Errorf("error: can not both modify and remove the following annotation(s) in the same command: %s", strings.Join(both, ", "))
	}
	return set, remove, nil
}

// noOverwrite refuses to change a key that has another value unless
// --overwrite, with label's and annotate's words.
func noOverwrite(cur, set map[string]string, noun string, overwrite bool) error {
	if overwrite {
		return nil
	}
	var clashes []string
	for _, key := range sortedMapKeys(set) {
		if v, ok := cur[key]; ok && v != set[key] && key != "kubernetes.io/change-cause" {
			clashes = append(clashes, fmt.Sprintf("'%s' already has a value (%s)", key, v))
		}
	}
	switch {
	case len(clashes) == 0:
		return nil
	case noun == "label" && len(clashes) == 1:
		return fmt.Errorf("error: %s, and --overwrite is false", clashes[0])
	case noun == "label":
		for i := range clashes {
			clashes[i] += ", and --overwrite is false"
		}
		return fmt.Errorf("error: [%s]", strings.Join(clashes, ", "))
	}
	return fmt.Errorf("error: --overwrite is false but found the following declared annotation(s): %s", strings.Join(clashes, "; "))
}

func sortedMapKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// scale sets the replicas of Deployments, ReplicaSets and any stored kind
// with spec.replicas (StatefulSets, ...), as the scale subresource does.
func (k *cmd) scale() (string, error) {
	if !k.in.Has("replicas") {
		return "", errors.New("error: required flag(s) \"replicas\" not set")
	}
	n := k.in.Int("replicas", 0)
	if n < 0 {
		return "", errors.New("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0")
	}
	if k.in.Int("current-replicas", -1) < -1 {
		return "", errors.New("error: The --current-replicas must specify an integer of -1 or greater")
	}
	if err := checkReplicas(int32(min(n, 1<<30))); err != nil {
		return "", err
	}
	if len(k.in.Args) == 0 {
		return "", errNoResources
	}
	p, err := k.newPrinter(printFormats)
	if err != nil {
		return "", err
	}
	objs, errs, err := k.resolve(k.in.Args, true)
	if err != nil {
		return "", err
	}
	if len(objs) == 0 {
		if len(errs) > 0 {
			return "", fmt.Errorf("error: no objects passed to scale %v", strings.TrimPrefix(errorText(errs[0]), ""))
		}
		return "", errors.New("error: no objects passed to scale")
	}
	var b strings.Builder
	for _, f := range objs {
		o := f.obj.DeepCopyObject()
		var cur *int32
		replicas := kinds.Replicas(o)
		if replicas != nil {
			cur = *replicas
		} else if u, ok := o.(*api.Unstructured); ok {
			if r, ok := u.Spec["replicas"]; ok {
				v := int32(toInt(r))
				cur = &v
			}
		}
		if cur == nil && !isScalable(f.kind.Name) {
			return b.String(), statusError("NotFound", "the server could not find the requested resource")
		}
		if want := k.in.Int("current-replicas", -1); want != -1 && int(api.Deref(cur, 1)) != want {
			return b.String(), fmt.Errorf("error: Expected replicas to be %d, was %d", want, api.Deref(cur, 1))
		}
		if replicas != nil {
			*replicas = api.Int32(int32(n))
		} else if u, ok := o.(*api.Unstructured); ok {
			u.Spec["replicas"] = n
		}
		out, err := k.write(o)
		if err != nil {
			return b.String(), err
		}
		s, _ := k.done(p, f.kind, out, "scaled")
		b.WriteString(s)
	}
	return b.String(), errorsText(errs)
}

func isScalable(kind string) bool {
	switch kind {
	case "Deployment", "ReplicaSet", "StatefulSet", "ReplicationController":
		return true
	}
	return false
}

func toInt(v any) int {
	return scannedInt(fmt.Sprint(v))
}

var errNoResources = errors.New("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'")

// podTemplate returns the pod template of a workload, to change in place.
func podTemplate(o api.Object) *api.PodTemplateSpec { return kinds.PodTemplate(o) }

// setImage runs set image: CONTAINER=IMAGE, or *=IMAGE for every
// container, on workloads and pods.
func (k *cmd) setImage() (string, error) {
	var resources, pairs []string
	for _, a := range k.in.Args {
		if strings.Contains(a, "=") {
			pairs = append(pairs, a)
		} else if len(pairs) == 0 {
			resources = append(resources, a)
		} else {
			return "", fmt.Errorf("error: all resources must be specified before image changes: %s", a)
		}
	}
	switch {
	case len(resources) == 0:
		return "", errNoResources
	case len(pairs) == 0:
		return "", errors.New("error: at least one image update is required")
	}
	images := map[string]string{}
	for _, kv := range pairs {
		c, img, _ := strings.Cut(kv, "=")
		images[c] = img
	}
	if _, ok := images["*"]; ok && len(images) > 1 {
		return "", errors.New("error: all containers are already specified by *, but saw more than one container_name=container_image pairs")
	}
	p, objs, errs, err := k.changeTargets(resources)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range objs {
		o := f.obj.DeepCopyObject()
		containers, err := setContainers(f, o)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		changed, missing := false, ""
		for _, c := range sortedMapKeys(images) {
			hit := false
			for i := range containers {
				if containers[i].Name == c || c == "*" {
					hit = true
					changed = changed || containers[i].Image != images[c]
					containers[i].Image = images[c]
				}
			}
			if !hit && missing == "" {
				missing = c
			}
		}
		if missing != "" {
			errs = append(errs, fmt.Errorf("error: unable to find container named %q", missing))
			continue
		}
		if !changed {
			continue
		}
		if t := podTemplate(o); t != nil {
			if d, ok := o.(*api.Deployment); ok {
				if err := checkReplicas(api.Deref(d.Spec.Replicas, 1)); err != nil {
					return b.String(), err
				}
			}
		}
		out, err := k.write(o)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s, _ := k.done(p, f.kind, out, "image updated")
		b.WriteString(s)
	}
	return b.String(), errorsText(errs)
}

// cordon marks nodes (un)schedulable.
func (k *cmd) cordon() (string, error) {
	verb := k.in.Command
	if len(k.in.Args) == 0 && k.in.String("selector", "") == "" {
		return "", fmt.Errorf("error: USAGE: %s NODE [flags]\nSee 'kubectl %s -h' for help and examples", verb, verb)
	}
	nodes, err := k.nodes()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	want := verb == "cordon"
	for _, n := range nodes {
		if n.Spec.Unschedulable == want {
			fmt.Fprintf(&b, "node/%s already %sed\n", n.Name, verb)
			continue
		}
		n.Spec.Unschedulable = want
		if _, err := k.write(n); err != nil {
			return b.String(), err
		}
		fmt.Fprintf(&b, "node/%s %sed\n", n.Name, verb)
	}
	return b.String(), nil
}

// nodes returns copies of the nodes cordon, uncordon and drain act on: the
// one named, or those the selector chooses.
func (k *cmd) nodes() ([]*api.Node, error) {
	if len(k.in.Args) > 0 && k.in.String("selector", "") != "" {
		return nil, fmt.Errorf("error: error: cannot specify both a node name and a --selector option\nSee 'kubectl %s -h' for help and examples", k.in.Command)
	}
	if len(k.in.Args) > 1 {
		return nil, fmt.Errorf("error: USAGE: %s NODE [flags]\nSee 'kubectl %s -h' for help and examples", k.in.Command, k.in.Command)
	}
	kind, _ := api.KindOf("Node")
	var objs []api.Object
	if len(k.in.Args) == 1 {
		// The node may be written TYPE/NAME (drain nodes/worker-1), as
		// the resource builder kubectl uses reads it.
		name := k.in.Args[0]
		for _, t := range []string{"node/", "nodes/", "no/"} {
			name = strings.TrimPrefix(name, t)
		}
		o, err := k.obj("Node", name)
		if err != nil {
			return nil, err
		}
		objs = []api.Object{o}
	} else {
		var err error
		if objs, err = k.list(kind, k.selection()); err != nil {
			return nil, err
		}
	}
	out := make([]*api.Node, len(objs))
	for i, o := range objs {
		out[i] = o.(*api.Node).DeepCopy()
	}
	return out, nil
}

// createDeployment makes a Deployment from flags: create deployment NAME
// --image=IMG [--replicas=N] [--port=P].
func (k *cmd) createDeployment() (string, error) {
	images := k.in.List("image")
	if len(images) == 0 {
		return "", errors.New("error: required flag(s) \"image\" not set")
	}
	if len(k.in.Args) == 0 {
		return "", errors.New("error: exactly one NAME is required, got 0\nSee 'kubectl create deployment -h' for help and examples")
	}
	if len(k.in.Args) > 1 {
		return "", fmt.Errorf("error: exactly one NAME is required, got %d\nSee 'kubectl create deployment -h' for help and examples", len(k.in.Args))
	}
	name := k.in.Args[0]
	replicas := int32(k.in.Int("replicas", 1))
	if err := checkReplicas(replicas); err != nil {
		return "", err
	}
	p, err := k.newPrinter(printFormats)
	if err != nil {
		return "", err
	}
	labels := map[string]string{"app": name}
	var containers []api.Container
	for _, img := range images {
		cname := img
		if i := strings.LastIndex(cname, "/"); i >= 0 {
			cname = cname[i+1:]
		}
		if i := strings.IndexAny(cname, ":@"); i >= 0 {
			cname = cname[:i]
		}
		c := api.Container{Name: cname, Image: img}
		if port := k.in.Int("port", -1); port >= 0 {
			c.Ports = []api.ContainerPort{{ContainerPort: int32(port)}}
		}
		containers = append(containers, c)
	}
	d := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: k.ns, Labels: labels},
		Spec: api.DeploymentSpec{Replicas: api.Int32(replicas), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: api.PodSpec{Containers: containers}}},
	}
	out, err := k.st.Create(d)
	if err != nil {
		var se *store.StatusError
		if errors.As(err, &se) && se.Reason == "AlreadyExists" {
			return "", fmt.Errorf("error: failed to create deployment: %s", se.Message)
		}
		return "", err
	}
	kind, _ := api.KindOf("Deployment")
	return k.done(p, kind, out, "created")
}

// setContainers are the containers kubectl set changes in o, a copy of
// f's object: its pod template's, or a pod's own; kubectl's error for an
// object that has neither.
func setContainers(f found, o api.Object) ([]api.Container, error) {
	if t := podTemplate(o); t != nil {
		return t.Spec.Containers, nil
	}
	if pod, ok := o.(*api.Pod); ok {
		return pod.Spec.Containers, nil
	}
	return nil, fmt.Errorf("error: %s/%s the object is not a pod or does not have a pod template: %T", f.kind.Qualified(), f.obj.Meta().Name, o)
}
