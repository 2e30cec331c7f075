package sim

import (
	"errors"
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kubectl"
	"reconcile/engine/limits"
	"reconcile/engine/manifest"
	"reconcile/engine/store"
	"reconcile/engine/validation"
	"reconcile/engine/yamlpos"
)

// apply gives the world an input.
func (s *Sim) apply(w *world, in Input) {
	switch in := in.(type) {
	case Fault:
		s.fault(w, in)
	case Kubectl:
		if w.startWatch(in.Line) || w.startDrain(in) {
			return
		}
		// What the run will not keep (past MaxRunOutput) is not rendered.
		r := kubectl.ExecCluster(w.store, w.now, in.Line, min(limits.MaxOutput, limits.MaxRunOutput-w.printed), metrics{w})
		var limit *kubectl.LimitError
		errors.As(r.Err, &limit)
		w.record(Output{At: w.now, AtText: w.now.String(), Command: in.Text(), Output: r.Output, ExitCode: r.Code, Limit: limit})
	case Diff:
		s.diff(w, in)
	case Apply, Commit:
		text := ""
		if a, ok := in.(Apply); ok {
			text = a.Manifests
		} else {
			text = in.(Commit).Manifests
		}
		ms, warns, err := decode(text, s.cfg.WarnUnknownFields)
		if err != nil {
			w.record(Output{At: w.now, AtText: w.now.String(), Command: in.Text(), Output: "error: " + err.Error() + "\n", ExitCode: 1})
			return
		}
		if _, ok := in.(Commit); ok {
			w.commitOutput(ms)
			return
		}
		w.applyManifests(in, ms, warns)
	case Interrupt:
		w.interruptWatch(in.Command)
	}
	// A command still watching sees what the input changed at once, as
	// kubectl's watch gets the event, not at the next pass.
	w.checkWatches()
}

// decode reads the manifests of an apply or commit input, strictly unless
// warn: then unknown fields are warnings, as kubectl prints them
// ("Warning: unknown field \"spec.replica\"").
func decode(text string, warn bool) ([]manifest.Manifest, []string, error) {
	v := manifest.RefuseEach
	if warn {
		v = manifest.Warn
	}
	ds, err := manifest.DecodeTextAs(text, yamlpos.File("input"), yamlpos.NewBudget(), v)
	if err != nil {
		return nil, nil, err
	}
	out := make([]manifest.Manifest, len(ds))
	var warns []string
	for i, d := range ds {
		out[i] = d.Manifest
		for _, w := range d.Warnings {
			if _, msg, ok := strings.Cut(w, ": Warning: "); ok {
				w = "Warning: " + msg
			}
			warns = append(warns, w+"\n")
		}
	}
	return out, warns, nil
}

// commit adds objects to the GitOps source (replacing those of the same
// kind, namespace and name) as one new revision, each with the text it was
// written as. The gitops controller applies it at its next sync.
func (w *world) commit(objs []Object) {
	next := append([]api.Object(nil), w.git.Objects...)
	cfgs := append([]map[string]any(nil), w.git.Configs...)
	for len(cfgs) < len(next) {
		cfgs = append(cfgs, nil)
	}
	for _, o := range objs {
		d := w.store.Default(o.Object)
		k := controller.GitKey(d)
		replaced := false
		for i, cur := range next {
			if controller.GitKey(cur) == k {
				next[i], cfgs[i], replaced = d, o.Config, true
			}
		}
		if !replaced {
			next, cfgs = append(next, d), append(cfgs, o.Config)
		}
	}
	w.git = controller.Git{Revision: w.git.Revision + 1, Objects: next, Configs: cfgs}
}

func (w *world) commitOutput(ms []manifest.Manifest) {
	objs := make([]Object, len(ms))
	for i, m := range ms {
		objs[i] = Object{Object: m.Object, Config: m.Config}
	}
	w.commit(objs)
	var b strings.Builder
	fmt.Fprintf(&b, "[main r%d] %d object(s) committed\n", w.git.Revision, len(objs))
	for _, o := range objs {
		fmt.Fprintf(&b, "  %s\n", api.RefOf(o.Object))
	}
	w.record(Output{At: w.now, AtText: w.now.String(), Command: "git commit && git push", Output: b.String()})
}

// diff is kubectl diff -f -: each object against what applying it would
// make of it (kubectl.ExecStdin). It changes nothing.
func (s *Sim) diff(w *world, in Diff) {
	ms, warns, err := decode(in.Manifests, s.cfg.WarnUnknownFields)
	if err != nil {
		// kubectl diff fails with exit code 2 (1 says "differences found")
		w.record(Output{At: w.now, AtText: w.now.String(), Command: in.Text(), Output: "error: " + err.Error() + "\n", ExitCode: 2})
		return
	}
	stdin := make([]kubectl.Stdin, len(ms))
	for i, m := range ms {
		stdin[i] = kubectl.Stdin{Object: m.Object, Config: m.Config, Refused: m.Refused}
	}
	r := kubectl.ExecStdin(w.store, w.now, "diff -f -", stdin)
	out := Output{At: w.now, AtText: w.now.String(), Command: in.Text(), Output: strings.Join(warns, "") + r.Output, ExitCode: r.Code}
	// The object refused, as an apply's refusals are recorded, for an
	// editor to point at.
	var refused *kubectl.StdinError
	if errors.As(r.Err, &refused) {
		out.Refused = []int{refused.Index}
		var ve *validation.Error
		if errors.As(refused.Err, &ve) {
			out.Invalid = []Invalid{{Object: refused.Index, Err: ve.Plain()}}
		}
	}
	w.record(out)
}

// applyManifests is kubectl apply -f -: each object is created or merged
// into the live one (kubectl.Apply); a refusal is reported for its object
// and the others go on, as kubectl reports per object.
func (w *world) applyManifests(in Input, ms []manifest.Manifest, warns []string) {
	var b strings.Builder
	b.WriteString(strings.Join(warns, ""))
	code := 0
	var invalid []Invalid
	var refused []int
	for i, m := range ms {
		if m.Refused != "" { // the API server refused to decode it
			b.WriteString(m.Refused + "\n")
			code = 1
			continue
		}
		o := m.Object
		exists := w.store.Get(o.GetTypeMeta().Kind, o.Meta().Namespace, o.Meta().Name) != nil
		result, warning, err := kubectl.Apply(w.store, o, m.Config)
		b.WriteString(warning)
		if err != nil {
			fmt.Fprintf(&b, "%s\n", kubectlError(err, o, exists))
			code = 1
			refused = append(refused, i)
			var ve *validation.Error
			if errors.As(err, &ve) {
				invalid = append(invalid, Invalid{Object: i, Err: ve.Plain()})
			}
			continue
		}
		k, _ := api.KindOf(o.GetTypeMeta().Kind)
		fmt.Fprintf(&b, "%s/%s %s\n", k.Qualified(), o.Meta().Name, result)
	}
	w.record(Output{At: w.now, AtText: w.now.String(), Command: in.Text(), Output: b.String(), ExitCode: code, Invalid: invalid, Refused: refused})
}

// applyObject applies one object of the desired state stored at t=0.
func applyObject(st *store.Store, o Object) (string, error) {
	result, _, err := kubectl.Apply(st, o.Object, o.Config)
	return result, err
}

// kubectlError renders an API error the way kubectl apply prints it.
func kubectlError(err error, o api.Object, exists bool) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "The ") || strings.HasPrefix(msg, "Error from server") || strings.HasPrefix(msg, "error: ") {
		return msg
	}
	reason := "InternalError"
	var se *store.StatusError
	if errors.As(err, &se) {
		reason = se.Reason
	}
	k, _ := api.KindOf(o.GetTypeMeta().Kind)
	if exists {
		return fmt.Sprintf("Error from server (%s): error when applying patch to %s %q: %s", reason, k.Qualified(), o.Meta().Name, msg)
	}
	return fmt.Sprintf("Error from server (%s): error when creating \"STDIN\": %s", reason, msg)
}
