package kubectl

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kinds"
)

// RolloutStatus is one evaluation of kubectl rollout status: the line it
// prints, whether the rollout is done, and the error that ends it.
func RolloutStatus(d *api.Deployment) (line string, done bool, err error) {
	return kinds.DeploymentRolloutStatus(d)
}

// checkRevision refuses rollout status --revision=N when the deployment
// runs another revision.
func checkRevision(d *api.Deployment, want int) error {
	if want <= 0 {
		return nil
	}
	if got, _ := strconv.Atoi(d.Annotations[controller.RevisionAnnotation]); got != want {
		return fmt.Errorf("error: desired revision (%d) is different from the running revision (%d)", want, got)
	}
	return nil
}

// rolloutTarget finds the one Deployment a rollout command names.
func (k *cmd) rolloutTarget() (*api.Deployment, error) {
	if len(k.in.Args) == 0 && k.in.String("selector", "") == "" {
		return nil, errors.New("error: required resource not specified")
	}
	objs, errs, err := k.resolve(k.in.Args, true)
	if err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return nil, errs[0]
	}
	if len(objs) == 0 {
		return nil, fmt.Errorf("error: no resources found in %s namespace", k.ns)
	}
	d, ok := objs[0].obj.(*api.Deployment)
	if !ok {
		return nil, fmt.Errorf("error: %s is not supported here: this kubectl rolls out deployments", objs[0].kind.Qualified())
	}
	return d.DeepCopy(), nil
}

func (k *cmd) rollout(sub string) (string, error) {
	if sub == "history" && k.in.Int("revision", 0) < 0 {
		return "", fmt.Errorf("error: revision must be a positive integer: %v", k.in.Int("revision", 0))
	}
	if out, err, ok := k.workloadRollout(sub); ok {
		return out, err
	}
	d, err := k.rolloutTarget()
	if err != nil {
		return "", err
	}
	p, err := k.newPrinter(printFormats)
	if err != nil && sub != "status" {
		return "", err
	}
	kind, _ := api.KindOf("Deployment")
	switch sub {
	case "status":
		if err := checkRevision(d, k.in.Int("revision", 0)); err != nil {
			return "", err
		}
		line, _, err := RolloutStatus(d)
		return line, err
	case "pause", "resume":
		want := sub == "pause"
		if d.Spec.Paused == want {
			if want {
				return "", fmt.Errorf("error: deployments.apps %q is already paused", d.Name)
			}
			return "", fmt.Errorf("error: deployments.apps %q is not paused", d.Name)
		}
		d.Spec.Paused = want
		out, err := k.write(d)
		if err != nil {
			return "", err
		}
		return k.done(p, kind, out, sub+"d")
	case "restart":
		if d.Spec.Paused {
			return "", fmt.Errorf("error: deployments.apps %q can't restart paused deployment (run rollout resume first)", d.Name)
		}
		if d.Spec.Template.Annotations == nil {
			d.Spec.Template.Annotations = map[string]string{}
		}
		d.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] = k.now.Wall().Format("2006-01-02T15:04:05Z07:00")
		out, err := k.write(d)
		if err != nil {
			return "", err
		}
		return k.done(p, kind, out, "restarted")
	case "history":
		return k.history(d)
	case "undo":
		return k.undo(d, p)
	}
	return "", fmt.Errorf("error: unknown command %q\nSee 'kubectl rollout -h' for help and examples", sub)
}

// owned returns a Deployment's ReplicaSets, by revision.
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
	rss := k.owned(d)
	if want := k.in.Int("revision", 0); want > 0 {
		for _, rs := range rss {
			if rev(rs) == want {
				t := rs.Spec.Template.DeepCopy()
				if cause := rs.Annotations["kubernetes.io/change-cause"]; cause != "" {
					if t.Annotations == nil {
						t.Annotations = map[string]string{}
					}
					t.Annotations["kubernetes.io/change-cause"] = cause
				}
				var b strings.Builder
				w := kinds.NewDescriber(&b, nil, 0, nil)
				kinds.DescribePodTemplate(w, &t)
				w.Flush()
				return fmt.Sprintf("deployment.apps/%s with revision #%d\n%s\n", d.Name, want, b.String()), nil
			}
		}
		return "", errors.New("error: unable to find the specified revision")
	}
	if len(rss) == 0 {
		return fmt.Sprintf("deployment.apps/%s \nNo rollout history found.\n", d.Name), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "deployment.apps/%s \n", d.Name)
	w := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(w, "REVISION\tCHANGE-CAUSE")
	for _, rs := range rss {
		cause := rs.Annotations["kubernetes.io/change-cause"]
		if cause == "" {
			cause = "<none>"
		}
		fmt.Fprintf(w, "%d\t%s\n", rev(rs), cause)
	}
	w.Flush()
	return b.String() + "\n", nil
}

func (k *cmd) undo(d *api.Deployment, p *printer) (string, error) {
	if d.Spec.Paused {
		return "", errors.New("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again")
	}
	rss := k.owned(d)
	if len(rss) == 0 {
		return "", fmt.Errorf("error: no rollout history found for deployment %q", d.Name)
	}
	var target *api.ReplicaSet
	if want := k.in.Int("to-revision", 0); want > 0 {
		for _, rs := range rss {
			if rev(rs) == want {
				target = rs
			}
		}
		if target == nil {
			return "", fmt.Errorf("error: unable to find specified revision %d in history", want)
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
	out, err := k.st.Update(d)
	if err != nil {
		return "", err
	}
	kind, _ := api.KindOf("Deployment")
	return k.done(p, kind, out, "rolled back")
}
