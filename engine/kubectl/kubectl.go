package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/limits"
	"reconcile/engine/store"
)

// Run executes one command line (without the leading "kubectl") at
// simulated time now and returns its output and exit code.
func Run(st *store.Store, now api.Time, line string) (string, int) {
	if len(line) > limits.MaxLine {
		return fmt.Sprintf("error: command line is %d bytes; the limit is %d (MaxLine)\n", len(line), limits.MaxLine), 1
	}
	args, err := splitArgs(strings.TrimPrefix(strings.TrimSpace(line), "kubectl "))
	if err != nil {
		return "error: " + err.Error() + "\n", 1
	}
	if len(args) == 0 {
		return help(), 0
	}
	k := &cmd{st: st, now: now, ns: "default"}
	args, err = k.flags(args)
	if err != nil {
		return err.Error() + "\n", 1
	}
	if len(args) == 0 {
		return help(), 0
	}
	var out string
	switch args[0] {
	case "help", "--help", "-h":
		return help(), 0
	case "get":
		out, err = k.get(args[1:])
	case "scale":
		out, err = k.scale(args[1:])
	case "set":
		out, err = k.setImage(args[1:])
	case "delete":
		out, err = k.delete(args[1:])
	case "rollout":
		out, err = k.rollout(args[1:])
	case "cordon", "uncordon":
		out, err = k.cordon(args[0], args[1:])
	case "describe":
		out, err = k.describe(args[1:])
	case "label", "annotate":
		out, err = k.label(args[0], args[1:])
	case "patch":
		out, err = k.patch(args[1:], k.payload)
	case "drain":
		out, err = k.drain(args[1:])
	case "create":
		out, err = k.create(args[1:])
	case "apply":
		return "error: kubectl apply needs manifests: use the Desired state editor (apply -f -)\n", 1
	default:
		return fmt.Sprintf("error: unknown command %q for \"kubectl\"\n\nDid you mean one of: %s?\n", args[0], strings.Join(slices.Concat(Verbs[1:], []string{"help"}), ", ")), 1
	}
	if err != nil {
		return out + errorText(err), 1
	}
	return out, 0
}

func help() string {
	return `kubectl controls the simulated cluster.

Commands:
  get (pods|deployments|replicasets|nodes|events) [NAME]
  describe (deployment|pod|node) NAME
  scale deployment/NAME --replicas=N
  set image deployment/NAME CONTAINER=IMAGE
  delete (pod|deployment) NAME
  rollout (status|undo|history|pause|resume|restart) deployment/NAME
  cordon NODE | uncordon NODE | drain NODE
  create deployment NAME --image=IMAGE [--replicas=N]
  patch deployment/NAME -p '{"spec":{"replicas":3}}'
  label|annotate KIND/NAME key=value
`
}

type cmd struct {
	st       *store.Store
	now      api.Time
	ns       string
	replicas *int32
	revision int
	output   string
	watch    bool
	payload  string // -p for patch
	image    string // --image for create
	selector string // -l for get
}

func (k *cmd) flags(args []string) ([]string, error) {
	var rest []string
	var missing, unknown string
	k.watch = true
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() string {
			if j := strings.Index(a, "="); j >= 0 {
				return a[j+1:]
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			missing = strings.TrimLeft(a, "-")
			return ""
		}
		switch {
		case a == "-n" || strings.HasPrefix(a, "--namespace"):
			k.ns = val()
		case strings.HasPrefix(a, "--replicas"):
			if n, err := strconv.Atoi(val()); err == nil {
				r := int32(n)
				k.replicas = &r
			} else {
				r := int32(-1 << 30)
				k.replicas = &r
			}
		case strings.HasPrefix(a, "--to-revision"):
			k.revision, _ = strconv.Atoi(val())
		case a == "-o" || strings.HasPrefix(a, "--output"):
			k.output = val()
		case a == "-p" || strings.HasPrefix(a, "--patch"):
			k.payload = val()
		case strings.HasPrefix(a, "--image"):
			k.image = val()
		case strings.HasPrefix(a, "--ignore-daemonsets") || strings.HasPrefix(a, "--delete-emptydir-data") || strings.HasPrefix(a, "--force"):
		case strings.HasPrefix(a, "--watch"):
			k.watch = val() != "false"
		case strings.HasPrefix(a, "--timeout"):
			val()
		case a == "-l" || strings.HasPrefix(a, "--selector"):
			k.selector = val()
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if unknown == "" {
				unknown = a
			}
		default:
			rest = append(rest, a)
		}
	}
	if unknown != "" {
		return nil, fmt.Errorf("error: unknown flag: %s\nSee 'kubectl %s --help' for usage.", strings.SplitN(unknown, "=", 2)[0], strings.Join(rest[:min(len(rest), 1)], ""))
	}
	if missing != "" {
		return nil, fmt.Errorf("error: flag needs an argument: %q in %s", missing, "-"+missing)
	}
	return rest, nil
}

// target parses "deployment/web" or "deployment web".
func target(args []string) (kind, name string, rest []string, err error) {
	if len(args) == 0 {
		return "", "", nil, errors.New("error: you must specify the type of resource to get")
	}
	if i := strings.Index(args[0], "/"); i >= 0 {
		kind, name, rest = args[0][:i], args[0][i+1:], args[1:]
	} else {
		kind = args[0]
		if len(args) > 1 {
			name, rest = args[1], args[2:]
		}
	}
	k, ok := api.KindNamed(kind)
	if !ok {
		return "", "", nil, fmt.Errorf("error: the server doesn't have a resource type %q", kind)
	}
	return k.Name, name, rest, nil
}

func errorText(err error) string {
	msg := err.Error()
	var se *store.StatusError
	switch {
	case strings.HasPrefix(msg, "error:") || strings.HasPrefix(msg, "The ") || strings.HasPrefix(msg, "Error from server"):
	case errors.As(err, &se):
		msg = fmt.Sprintf("Error from server (%s): %s", se.Reason, msg)
	default:
		msg = "error: " + msg
	}
	return msg + "\n"
}

func (k *cmd) namespace(kind string) string {
	if kind == "Node" {
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

func (k *cmd) get(args []string) (string, error) {
	kind, name, _, err := target(args)
	if err != nil {
		return "", err
	}
	var objs []api.Object
	if name != "" {
		o, err := k.obj(kind, name)
		if err != nil {
			return "", err
		}
		objs = []api.Object{o}
	} else {
		sel, err := parseSelector(k.selector)
		if err != nil {
			return "", err
		}
		for _, o := range k.st.List(kind) {
			if (o.Meta().Namespace == "" || o.Meta().Namespace == k.ns) && (sel == nil || sel.Matches(o.Meta().Labels)) {
				objs = append(objs, o)
			}
		}
		if len(objs) == 0 {
			return fmt.Sprintf("No resources found in %s namespace.\n", k.ns), nil
		}
	}
	var b strings.Builder
	switch k.output {
	case "", "wide":
	case "json", "yaml":
		return renderObjects(objs, k.output, name != "")
	case "name":
		for _, o := range objs {
			fmt.Fprintf(&b, "%s/%s\n", qualified(kind), o.Meta().Name)
		}
		return b.String(), nil
	default:
		return "", fmt.Errorf("error: unable to match a printer suitable for the output format %q, allowed formats are: json,name,wide,yaml", k.output)
	}
	wide := k.output == "wide"
	w := tabwriter.NewWriter(&b, 0, 8, 3, ' ', 0)
	switch kind {
	case "Pod":
		if wide {
			fmt.Fprintln(w, "NAME\tREADY\tSTATUS\tRESTARTS\tAGE\tIP\tNODE\tNOMINATED NODE\tREADINESS GATES")
			for _, o := range objs {
				p := o.(*api.Pod)
				ready, restarts := podReady(p)
				ip, node := p.Status.PodIP, p.Spec.NodeName
				if ip == "" {
					ip = "<none>"
				}
				if node == "" {
					node = "<none>"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t<none>\t<none>\n", p.Name, ready, PodStatus(p), restarts, age(k.now, p.CreationTimestamp), ip, node)
			}
			break
		}
		fmt.Fprintln(w, "NAME\tREADY\tSTATUS\tRESTARTS\tAGE")
		for _, o := range objs {
			p := o.(*api.Pod)
			ready, restarts := podReady(p)
			fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\n", p.Name, ready, PodStatus(p), restarts, age(k.now, p.CreationTimestamp))
		}
	case "Deployment":
		fmt.Fprintln(w, "NAME\tREADY\tUP-TO-DATE\tAVAILABLE\tAGE")
		for _, o := range objs {
			d := o.(*api.Deployment)
			fmt.Fprintf(w, "%s\t%d/%d\t%d\t%d\t%s\n", d.Name, d.Status.ReadyReplicas, api.Deref(d.Spec.Replicas, 1), d.Status.UpdatedReplicas, d.Status.AvailableReplicas, age(k.now, d.CreationTimestamp))
		}
	case "ReplicaSet":
		fmt.Fprintln(w, "NAME\tDESIRED\tCURRENT\tREADY\tAGE")
		for _, o := range objs {
			r := o.(*api.ReplicaSet)
			fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%s\n", r.Name, api.Deref(r.Spec.Replicas, 1), r.Status.Replicas, r.Status.ReadyReplicas, age(k.now, r.CreationTimestamp))
		}
	case "Node":
		fmt.Fprintln(w, "NAME\tSTATUS\tROLES\tAGE\tVERSION")
		for _, o := range objs {
			n := o.(*api.Node)
			fmt.Fprintf(w, "%s\t%s\t<none>\t%s\tv1.34.0\n", n.Name, NodeStatus(n), age(k.now, n.CreationTimestamp))
		}
	case "Job":
		fmt.Fprintln(w, "NAME\tSTATUS\tCOMPLETIONS\tDURATION\tAGE")
		for _, o := range objs {
			j := o.(*api.Job)
			status, dur := "Running", "<none>"
			for _, c := range j.Status.Conditions {
				if c.Type == "Complete" && c.Status == "True" {
					status = "Complete"
				}
				if c.Type == "Failed" && c.Status == "True" {
					status = "Failed"
				}
			}
			if j.Status.StartTime != nil {
				end := k.now
				if j.Status.CompletionTime != nil {
					end = *j.Status.CompletionTime
				}
				dur = api.HumanDuration(end - *j.Status.StartTime)
			}
			fmt.Fprintf(w, "%s\t%s\t%d/%d\t%s\t%s\n", j.Name, status, j.Status.Succeeded, api.Deref(j.Spec.Completions, 1), dur, age(k.now, j.CreationTimestamp))
		}
	case "Event":
		fmt.Fprintln(w, "LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE")
		evs := make([]*api.Event, 0, len(objs))
		for _, o := range objs {
			evs = append(evs, o.(*api.Event))
		}
		sort.SliceStable(evs, func(i, j int) bool { return evs[i].LastTimestamp < evs[j].LastTimestamp })
		for _, e := range evs {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s/%s\t%s\n", age(k.now, e.LastTimestamp), e.Type, e.Reason, api.LowerKind(e.InvolvedObject.Kind), e.InvolvedObject.Name, e.Message)
		}
	default:
		fmt.Fprintln(w, "NAME\tAGE")
		for _, o := range objs {
			fmt.Fprintf(w, "%s\t%s\n", o.Meta().Name, age(k.now, o.Meta().CreationTimestamp))
		}
		if _, ok := objs[0].(*api.Unstructured); ok {
			fmt.Fprintf(w, "(%s objects are stored here but not simulated)\n", kind)
		}
	}
	w.Flush()
	return b.String(), nil
}

// PodStatus is the STATUS column of kubectl get pods.
func PodStatus(p *api.Pod) string {
	s := p.Status.Phase
	if p.Status.Reason != "" {
		s = p.Status.Reason
	}
	for i := len(p.Status.ContainerStatuses) - 1; i >= 0; i-- {
		cs := p.Status.ContainerStatuses[i]
		if cs.State.Waiting != nil && cs.State.Waiting.Reason != "" {
			s = cs.State.Waiting.Reason
		} else if cs.State.Terminated != nil && cs.State.Terminated.Reason != "" {
			s = cs.State.Terminated.Reason
		}
	}
	if p.DeletionTimestamp != nil {
		s = "Terminating"
	}
	return s
}

// NodeStatus is the STATUS column of kubectl get nodes.
func NodeStatus(n *api.Node) string {
	s := "Unknown"
	for _, c := range n.Status.Conditions {
		if c.Type == "Ready" {
			switch c.Status {
			case "True":
				s = "Ready"
			case "False":
				s = "NotReady"
			default:
				s = "NotReady"
			}
		}
	}
	if n.Spec.Unschedulable {
		s += ",SchedulingDisabled"
	}
	return s
}

func (k *cmd) deployment(args []string) (*api.Deployment, []string, error) {
	kind, name, rest, err := target(args)
	if err != nil {
		return nil, nil, err
	}
	if kind != "Deployment" {
		return nil, nil, fmt.Errorf("error: %s is not supported here; use deployment/NAME", api.LowerKind(kind))
	}
	if name == "" {
		return nil, nil, errors.New("error: resource name may not be empty")
	}
	o, err := k.obj(kind, name)
	if err != nil {
		return nil, nil, err
	}
	return o.(*api.Deployment).DeepCopy(), rest, nil
}

func (k *cmd) scale(args []string) (string, error) {
	if k.replicas == nil {
		return "", errors.New("error: required flag(s) \"replicas\" not set")
	}
	if *k.replicas < 0 {
		return "", errors.New("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0")
	}
	if err := checkReplicas(*k.replicas); err != nil {
		return "", err
	}
	d, _, err := k.deployment(args)
	if err != nil {
		return "", err
	}
	d.Spec.Replicas = api.Int32(*k.replicas)
	d.ResourceVersion = ""
	if _, err := k.st.Update(d); err != nil {
		return "", err
	}
	return fmt.Sprintf("deployment.apps/%s scaled\n", d.Name), nil
}

func (k *cmd) setImage(args []string) (string, error) {
	if len(args) < 3 || args[0] != "image" {
		return "", errors.New("error: usage: set image deployment/NAME CONTAINER=IMAGE")
	}
	d, rest, err := k.deployment(args[1:])
	if err != nil {
		return "", err
	}
	changed := false
	for _, kv := range rest {
		c, img, ok := strings.Cut(kv, "=")
		if !ok || img == "" {
			return "", fmt.Errorf("error: invalid image %q: want CONTAINER=IMAGE", kv)
		}
		found := false
		for i := range d.Spec.Template.Spec.Containers {
			if ct := &d.Spec.Template.Spec.Containers[i]; ct.Name == c || c == "*" {
				found = true
				if ct.Image != img {
					ct.Image = img
					changed = true
				}
			}
		}
		if !found {
			return "", fmt.Errorf("error: unable to find container named %q", c)
		}
	}
	if !changed {
		return "", nil
	}
	d.ResourceVersion = ""
	if _, err := k.st.Update(d); err != nil {
		return "", err
	}
	return fmt.Sprintf("deployment.apps/%s image updated\n", d.Name), nil
}

func (k *cmd) delete(args []string) (string, error) {
	kind, name, rest, err := target(args)
	if err != nil {
		return "", err
	}
	names := append([]string{name}, rest...)
	if name == "" {
		return "", errors.New("error: resource(s) were provided, but no name was specified")
	}
	var b strings.Builder
	for _, n := range names {
		if _, err := k.st.Delete(kind, k.namespace(kind), n, false); err != nil {
			return b.String(), err
		}
		fmt.Fprintf(&b, "%s %q deleted\n", qualified(kind), n)
	}
	return b.String(), nil
}

func (k *cmd) cordon(verb string, args []string) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("error: usage: %s NODE", verb)
	}
	o, err := k.obj("Node", args[0])
	if err != nil {
		return "", err
	}
	n := o.(*api.Node).DeepCopy()
	want := verb == "cordon"
	if n.Spec.Unschedulable == want {
		return fmt.Sprintf("node/%s already %sed\n", n.Name, verb), nil
	}
	n.Spec.Unschedulable = want
	n.ResourceVersion = ""
	if _, err := k.st.Update(n); err != nil {
		return "", err
	}
	return fmt.Sprintf("node/%s %sed\n", n.Name, verb), nil
}

func (k *cmd) label(verb string, args []string) (string, error) {
	kind, name, rest, err := target(args)
	if err != nil {
		return "", err
	}
	o, err := k.obj(kind, name)
	if err != nil {
		return "", err
	}
	n := o.DeepCopyObject()
	m := n.Meta()
	for _, kv := range rest {
		key, val, ok := strings.Cut(kv, "=")
		target := &m.Labels
		if verb == "annotate" {
			target = &m.Annotations
		}
		if *target == nil {
			*target = map[string]string{}
		}
		if !ok && strings.HasSuffix(kv, "-") {
			delete(*target, strings.TrimSuffix(kv, "-"))
			continue
		}
		(*target)[key] = val
	}
	m.ResourceVersion = ""
	if _, err := k.st.Update(n); err != nil {
		return "", err
	}
	past := "labeled"
	if verb == "annotate" {
		past = "annotated"
	}
	return fmt.Sprintf("%s/%s %s\n", api.LowerKind(kind), name, past), nil
}

// RolloutStatus is one evaluation of kubectl rollout status: the line it
// prints, whether the rollout is done, and the error that ends it.
func RolloutStatus(d *api.Deployment) (line string, done bool, err error) {
	if d.Generation > d.Status.ObservedGeneration {
		return "Waiting for deployment spec update to be observed...\n", false, nil
	}
	for _, c := range d.Status.Conditions {
		if c.Type == "Progressing" && c.Reason == "ProgressDeadlineExceeded" {
			return "", false, fmt.Errorf("error: deployment %q exceeded its progress deadline", d.Name)
		}
	}
	want := api.Deref(d.Spec.Replicas, 1)
	st := d.Status
	switch {
	case st.UpdatedReplicas < want:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d out of %d new replicas have been updated...\n", d.Name, st.UpdatedReplicas, want), false, nil
	case st.Replicas > st.UpdatedReplicas:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d old replicas are pending termination...\n", d.Name, st.Replicas-st.UpdatedReplicas), false, nil
	case st.AvailableReplicas < st.UpdatedReplicas:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d of %d updated replicas are available...\n", d.Name, st.AvailableReplicas, st.UpdatedReplicas), false, nil
	}
	return fmt.Sprintf("deployment %q successfully rolled out\n", d.Name), true, nil
}

func (k *cmd) rollout(args []string) (string, error) {
	if len(args) < 2 {
		return "", errors.New("error: usage: rollout (status|undo|history|pause|resume|restart) deployment/NAME")
	}
	sub := args[0]
	d, _, err := k.deployment(args[1:])
	if err != nil {
		return "", err
	}
	switch sub {
	case "status":
		line, _, err := RolloutStatus(d)
		return line, err
	case "pause", "resume":
		want := sub == "pause"
		if d.Spec.Paused == want {
			return "", fmt.Errorf("error: deployments.apps %q is already %sd", d.Name, sub)
		}
		d.Spec.Paused = want
		d.ResourceVersion = ""
		if _, err := k.st.Update(d); err != nil {
			return "", err
		}
		return fmt.Sprintf("deployment.apps/%s %sd\n", d.Name, sub), nil
	case "restart":
		if d.Spec.Paused {
			return "", fmt.Errorf("error: deployments.apps %q can't restart paused deployment (run rollout resume first)", d.Name)
		}
		if d.Spec.Template.Annotations == nil {
			d.Spec.Template.Annotations = map[string]string{}
		}
		d.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] = k.now.Wall().Format("2006-01-02T15:04:05Z07:00")
		d.ResourceVersion = ""
		if _, err := k.st.Update(d); err != nil {
			return "", err
		}
		return fmt.Sprintf("deployment.apps/%s restarted\n", d.Name), nil
	case "history":
		return k.history(d)
	case "undo":
		return k.undo(d)
	}
	return "", fmt.Errorf("error: unknown rollout command %q", sub)
}

func (k *cmd) owned(d *api.Deployment) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, o := range k.st.List("ReplicaSet") {
		rs := o.(*api.ReplicaSet)
		if ref := rs.ControllerOf(); ref != nil && ref.UID == d.UID {
			out = append(out, rs)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return rev(out[i]) < rev(out[j]) })
	return out
}

func rev(rs *api.ReplicaSet) int {
	n, _ := strconv.Atoi(rs.Annotations[controller.RevisionAnnotation])
	return n
}

func (k *cmd) history(d *api.Deployment) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "deployment.apps/%s \nREVISION  CHANGE-CAUSE\n", d.Name)
	for _, rs := range k.owned(d) {
		cause := rs.Annotations["kubernetes.io/change-cause"]
		if cause == "" {
			cause = "<none>"
		}
		fmt.Fprintf(&b, "%-9d %s\n", rev(rs), cause)
	}
	return b.String() + "\n", nil
}

func (k *cmd) undo(d *api.Deployment) (string, error) {
	if d.Spec.Paused {
		return "", errors.New("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again")
	}
	rss := k.owned(d)
	if len(rss) == 0 {
		return "", fmt.Errorf("error: no rollout history found for deployment %q", d.Name)
	}
	var target *api.ReplicaSet
	if k.revision > 0 {
		for _, rs := range rss {
			if rev(rs) == k.revision {
				target = rs
			}
		}
		if target == nil {
			return "", fmt.Errorf("error: unable to find specified revision %d in history", k.revision)
		}
	} else {
		if len(rss) < 2 {
			return "", fmt.Errorf("error: no rollout history found for deployment %q", d.Name)
		}
		target = rss[len(rss)-2]
	}
	t := target.Spec.Template.DeepCopy()
	delete(t.Labels, controller.PodTemplateHashLabel)
	if controller.EqualIgnoreHash(&target.Spec.Template, &d.Spec.Template) {
		return fmt.Sprintf("deployment.apps/%s skipped rollback (current template already matches revision %d)\n", d.Name, rev(target)), nil
	}
	d.Spec.Template = t
	d.ResourceVersion = ""
	if _, err := k.st.Update(d); err != nil {
		return "", err
	}
	return fmt.Sprintf("deployment.apps/%s rolled back\n", d.Name), nil
}

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

func podReady(p *api.Pod) (string, int32) {
	ready, restarts := 0, int32(0)
	for _, cs := range p.Status.ContainerStatuses {
		if cs.Ready {
			ready++
		}
		restarts += cs.RestartCount
	}
	return fmt.Sprintf("%d/%d", ready, len(p.Spec.Containers)), restarts
}

// parseSelector reads "app=web,tier!=db" (equality-based selectors).
func parseSelector(s string) (*api.LabelSelector, error) {
	if s == "" {
		return nil, nil
	}
	sel := &api.LabelSelector{MatchLabels: map[string]string{}}
	for _, part := range strings.Split(s, ",") {
		if k, v, ok := strings.Cut(part, "!="); ok {
			sel.MatchExpressions = append(sel.MatchExpressions, api.LabelSelectorRequirement{Key: strings.TrimSpace(k), Operator: "NotIn", Values: []string{strings.TrimSpace(v)}})
			continue
		}
		k, v, ok := strings.Cut(strings.Replace(part, "==", "=", 1), "=")
		if !ok || strings.TrimSpace(k) == "" {
			if strings.TrimSpace(part) != "" && !strings.ContainsAny(part, "=!") {
				sel.MatchExpressions = append(sel.MatchExpressions, api.LabelSelectorRequirement{Key: strings.TrimSpace(part), Operator: "Exists"})
				continue
			}
			return nil, fmt.Errorf("error: unable to parse requirement: %q", part)
		}
		sel.MatchLabels[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return sel, nil
}

// renderObjects prints objects as -o json or -o yaml does: one object, or
// a List of them.
func renderObjects(objs []api.Object, format string, single bool) (string, error) {
	var v any = objs[0]
	if !single {
		v = map[string]any{"apiVersion": "v1", "kind": "List", "items": objs, "metadata": map[string]string{"resourceVersion": ""}}
	}
	b, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		return "", err
	}
	if format == "json" {
		return string(b) + "\n", nil
	}
	var generic any
	json.Unmarshal(b, &generic)
	return YAML(generic), nil
}

// checkReplicas refuses a workload larger than the playground simulates.
func checkReplicas(n int32) error {
	if n > limits.MaxReplicas {
		return fmt.Errorf("error: %d replicas is more than this playground simulates: the limit is %d per workload (MaxReplicas)", n, limits.MaxReplicas)
	}
	return nil
}
