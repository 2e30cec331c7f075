package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// patch applies a JSON merge patch (`kubectl patch KIND/NAME -p JSON`, the
// strategic merge kubectl defaults to behaves the same for the fields the
// lessons change: replicas, image by container list, labels, paused).
func (k *cmd) patch(args []string, payload string) (string, error) {
	kind, name, _, err := target(args)
	if err != nil {
		return "", err
	}
	if name == "" {
		return "", errors.New("error: resource name may not be empty")
	}
	if payload == "" {
		return "", errors.New("error: must specify -p to patch")
	}
	var p map[string]any
	if err := json.Unmarshal([]byte(payload), &p); err != nil {
		return "", fmt.Errorf("error: unable to parse %q: %v", payload, err)
	}
	o, err := k.obj(kind, name)
	if err != nil {
		return "", err
	}
	raw, _ := json.Marshal(o)
	var cur map[string]any
	json.Unmarshal(raw, &cur)
	merged := mergePatch(cur, p)
	b, _ := json.Marshal(merged)
	next := o.DeepCopyObject()
	// Decode into a fresh value of the same type.
	fresh := reflect.New(reflect.TypeOf(next).Elem()).Interface().(api.Object)
	if err := json.Unmarshal(b, fresh); err != nil {
		return "", fmt.Errorf("error: the patch does not fit a %s: %v", kind, err)
	}
	fresh.Meta().ResourceVersion = ""
	switch o := fresh.(type) {
	case *api.Deployment:
		if err := checkReplicas(api.Deref(o.Spec.Replicas, 1)); err != nil {
			return "", err
		}
	case *api.ReplicaSet:
		if err := checkReplicas(api.Deref(o.Spec.Replicas, 1)); err != nil {
			return "", err
		}
	}
	out, err := k.st.Update(fresh)
	if err != nil {
		return "", err
	}
	verb := "patched"
	if out.Meta().ResourceVersion == o.Meta().ResourceVersion {
		verb = "patched (no change)"
	}
	return fmt.Sprintf("%s/%s %s\n", qualified(kind), name, verb), nil
}

// mergePatch applies an RFC 7386 JSON merge patch: objects merge, null
// deletes, everything else replaces.
func mergePatch(cur, patch map[string]any) map[string]any {
	if cur == nil {
		cur = map[string]any{}
	}
	// Any order: each key is patched on its own.
	for k, v := range patch {
		switch pv := v.(type) {
		case nil:
			delete(cur, k)
		case map[string]any:
			cv, _ := cur[k].(map[string]any)
			cur[k] = mergePatch(cv, pv)
		default:
			cur[k] = v
		}
	}
	return cur
}

// drain cordons a node and evicts its pods, as kubectl drain does.
func (k *cmd) drain(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("error: USAGE: drain NODE [flags]")
	}
	o, err := k.obj("Node", args[0])
	if err != nil {
		return "", err
	}
	var b strings.Builder
	n := o.(*api.Node).DeepCopy()
	if !n.Spec.Unschedulable {
		n.Spec.Unschedulable = true
		n.ResourceVersion = ""
		if _, err := k.st.Update(n); err != nil {
			return "", err
		}
	}
	fmt.Fprintf(&b, "node/%s cordoned\n", n.Name)
	var victims []*api.Pod
	for _, po := range k.st.List("Pod") {
		p := po.(*api.Pod)
		if p.Spec.NodeName == n.Name && p.DeletionTimestamp == nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			victims = append(victims, p)
		}
	}
	for _, p := range victims {
		fmt.Fprintf(&b, "evicting pod %s/%s\n", p.Namespace, p.Name)
	}
	for _, p := range victims {
		if _, err := k.st.Delete("Pod", p.Namespace, p.Name, false); err != nil && !errors.Is(err, store.ErrNotFound) {
			return b.String(), err
		}
		fmt.Fprintf(&b, "pod/%s evicted\n", p.Name)
	}
	fmt.Fprintf(&b, "node/%s drained\n", n.Name)
	return b.String(), nil
}

// create makes a Deployment from flags: create deployment NAME --image=IMG [--replicas=N].
func (k *cmd) create(args []string) (string, error) {
	if len(args) < 2 || (args[0] != "deployment" && args[0] != "deploy") {
		return "", errors.New("error: this playground creates deployments from flags: create deployment NAME --image=IMAGE [--replicas=N]; use apply for manifests")
	}
	name := args[1]
	if k.image == "" {
		return "", errors.New("error: required flag(s) \"image\" not set")
	}
	replicas := int32(1)
	if k.replicas != nil {
		replicas = *k.replicas
	}
	if err := checkReplicas(replicas); err != nil {
		return "", err
	}
	labels := map[string]string{"app": name}
	cname := k.image
	if i := strings.LastIndex(cname, "/"); i >= 0 {
		cname = cname[i+1:]
	}
	if i := strings.IndexAny(cname, ":@"); i >= 0 {
		cname = cname[:i]
	}
	d := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: k.ns, Labels: labels},
		Spec: api.DeploymentSpec{Replicas: api.Int32(replicas), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: cname, Image: k.image}}}}},
	}
	if _, err := k.st.Create(d); err != nil {
		return "", err
	}
	return fmt.Sprintf("deployment.apps/%s created\n", name), nil
}
