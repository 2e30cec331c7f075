package kubectl

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
)

// The scale subresource (get and patch --subresource=scale): an
// autoscaling/v1 Scale made from a workload, its spec.replicas and its
// status's replicas and selector, as the API server serves
// deployments/scale, replicasets/scale and statefulsets/scale.

// Scale is autoscaling/v1's Scale.
type Scale struct {
	api.TypeMeta   `json:",inline" yaml:",inline"`
	api.ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec           ScaleSpec   `json:"spec" yaml:"spec"`
	Status         ScaleStatus `json:"status" yaml:"status"`
}

// ScaleSpec is the replicas wanted.
type ScaleSpec struct {
	Replicas int32 `json:"replicas,omitempty" yaml:"replicas,omitempty"`
}

// ScaleStatus is the replicas there are and the selector that counts them.
type ScaleStatus struct {
	Replicas int32  `json:"replicas" yaml:"replicas"`
	Selector string `json:"selector,omitempty" yaml:"selector,omitempty"`
}

// Meta returns the Scale's metadata.
func (s *Scale) Meta() *api.ObjectMeta { return &s.ObjectMeta }

// GetTypeMeta returns the Scale's kind and apiVersion.
func (s *Scale) GetTypeMeta() *api.TypeMeta { return &s.TypeMeta }

// DeepCopyObject copies the Scale.
func (s *Scale) DeepCopyObject() api.Object {
	c := *s
	c.ObjectMeta = s.ObjectMeta.DeepCopy()
	return &c
}

var scaleKind = api.Kind{Name: "Scale", Group: "autoscaling", Version: "v1", Resource: "scale", Namespaced: true}

// scaleOf is the Scale of a workload, or the API server's NotFound for a
// kind without one.
func scaleOf(o api.Object) (*Scale, error) {
	r := kinds.Replicas(o)
	if r == nil {
		return nil, statusError("NotFound", "the server could not find the requested resource")
	}
	m := o.Meta()
	s := &Scale{TypeMeta: api.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"},
		ObjectMeta: api.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion,
			CreationTimestamp: m.CreationTimestamp},
		Spec: ScaleSpec{Replicas: api.Deref(*r, 1)}}
	switch w := o.(type) {
	case *api.Deployment:
		s.Status.Replicas = w.Status.Replicas
	case *api.ReplicaSet:
		s.Status.Replicas = w.Status.Replicas
	case *api.StatefulSet:
		s.Status.Replicas = w.Status.Replicas
	}
	if sel := workloadSelector(o); sel != nil {
		s.Status.Selector = kinds.FormatSelector(sel)
	}
	return s, nil
}

// getScale is get --subresource=scale.
func (k *cmd) getScale(p *printer, objs []found, errs []error, single bool) (string, error) {
	var scales []found
	for _, f := range objs {
		s, err := scaleOf(f.obj)
		if err != nil {
			return "", err
		}
		scales = append(scales, found{scaleKind, s})
	}
	if !p.table() {
		out, err := p.print(scales, single)
		if err != nil {
			return out, err
		}
		return out, errorsText(errs)
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 8, 3, ' ', 0)
	if len(scales) > 0 && !k.in.Bool("no-headers", false) {
		fmt.Fprintln(w, "NAME\tDESIRED\tAVAILABLE\tAGE")
	}
	for _, f := range scales {
		s := f.obj.(*Scale)
		fmt.Fprintf(w, "%s\t%d\t%d\t%s\n", s.Name, s.Spec.Replicas, s.Status.Replicas, age(k.now, s.CreationTimestamp))
	}
	w.Flush()
	return b.String(), errorsText(errs)
}

// patchScale is patch --subresource=scale: the patch applies to the
// workload's Scale, and the Scale's spec.replicas is written back.
func (k *cmd) patchScale(f found, typ string, p any) (api.Object, bool, error) {
	s, err := scaleOf(f.obj)
	if err != nil {
		return nil, false, err
	}
	next, err := patchDoc(toJSON(s), typ, p)
	if err != nil {
		return nil, false, err
	}
	raw, _ := json.Marshal(next)
	var got Scale
	if err := json.Unmarshal(raw, &got); err != nil {
		return nil, false, statusError("BadRequest", "the patch does not fit a Scale: %v", err)
	}
	if got.Name != s.Name {
		return nil, false, statusError("BadRequest", "the name of the object (%s) does not match the name on the URL (%s)", got.Name, s.Name)
	}
	if got.Spec.Replicas < 0 {
		return nil, false, statusError("Invalid", "Scale.autoscaling %q is invalid: spec.replicas: Invalid value: %d: must be greater than or equal to 0", s.Name, got.Spec.Replicas)
	}
	if err := checkReplicas(got.Spec.Replicas); err != nil {
		return nil, false, err
	}
	if got.Spec.Replicas == s.Spec.Replicas {
		return s, false, nil
	}
	o := f.obj.DeepCopyObject()
	*kinds.Replicas(o) = api.Int32(got.Spec.Replicas)
	o.Meta().ResourceVersion = ""
	out, err := k.st.Update(o)
	if err != nil {
		return nil, false, err
	}
	s, err = scaleOf(out)
	return s, true, err
}
