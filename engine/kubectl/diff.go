package kubectl

import (
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/limits"
	"reconcile/engine/selector"
	"reconcile/engine/store"
)

// Stdin is one object of the manifests a command reads from stdin
// (kubectl diff -f -): the object as decoded, the manifest as written
// (manifest.Manifest.Config), or the API server's refusal to decode it.
type Stdin struct {
	Object  api.Object
	Config  map[string]any
	Refused string
}

// ExecStdin is Exec of a command given manifests on stdin (-f -).
func ExecStdin(st *store.Store, now api.Time, line string, stdin []Stdin) Result {
	return execWith(st, now, line, limits.MaxOutput, stdin, true)
}

// diff is kubectl diff -f -, as v1.34's (pkg/cmd/diff): for each object of
// the manifests, the live object (none if it does not exist) and the
// object as the API server would store it after kubectl apply (a dry run
// of apply's three-way merge, or of the create: defaults filled,
// generation bumped when the spec changes, the last-applied annotation
// written), each as YAML in a file named GROUP.VERSION.KIND.NAMESPACE.NAME
// of a directory, LIVE and MERGED, compared by `diff -u -N`: its output is
// kubectl's, exit code 1 when there are differences, 0 when none, and an
// error stops it before it prints any, with exit code 2.
//
// The directories are /tmp/LIVE-N and /tmp/MERGED-N, as os.MkdirTemp
// names them, N a number derived from the simulated time (FNV-1a of the
// prefix and the time) where kubectl has a random one; the files' times
// in the --- and +++ lines are the simulated time, as diff prints a
// file's modification time.
func (k *cmd) diff() (string, error) {
	k.errCode = 2
	if len(k.in.Args) > 0 {
		return "", fmt.Errorf("error: Unexpected args: [%s]\nSee 'kubectl diff -h' for help and examples", strings.Join(k.in.Args, " "))
	}
	files := k.in.List("filename")
	if len(files) == 0 {
		return "", errors.New("error: must specify one of -f and -k")
	}
	if k.in.Bool("force-conflicts", false) {
		return "", errors.New("error: --force-conflicts only works with --server-side")
	}
	for _, f := range files {
		if f != "-" {
			return "", fmt.Errorf("error: the path %q cannot be read: reading manifests from files is not simulated: kubectl diff reads them from stdin (-f -), in a lesson a diff: step", f)
		}
	}
	labels, err := selector.ParseLabels(k.in.String("selector", ""))
	if err != nil {
		return "", fmt.Errorf("error: %v", err)
	}
	if !k.piped {
		return "", errors.New("error: kubectl diff -f - needs manifests on stdin: in a lesson, write them in a diff: step (diff: |, then the YAML)")
	}
	type pair struct{ live, merged string }
	out := map[string]pair{}
	var warnings strings.Builder
	for _, s := range k.stdin {
		if s.Refused != "" {
			return warnings.String(), errors.New(s.Refused)
		}
		obj := s.Object.DeepCopyObject()
		m := obj.Meta()
		if !labels.Matches(m.Labels) {
			continue
		}
		kind := obj.GetTypeMeta().Kind
		kd, _ := api.KindOf(kind)
		if kd.Namespaced {
			// The manifests are decoded for the namespace default: one
			// without a namespace is in default here.
			if k.in.Has("namespace") && m.Namespace != "" && m.Namespace != k.ns {
				return warnings.String(), fmt.Errorf("error: the namespace from the provided object %q does not match the namespace %q. You must pass '--namespace=%s' to perform this operation.", m.Namespace, k.ns, m.Namespace)
			}
			if m.Namespace == "" {
				m.Namespace = k.ns
			}
		}
		live := k.st.Get(kind, m.Namespace, m.Name)
		_, _, merged, err := apply(k.st.DryRun(), obj, s.Config)
		if err != nil {
			return warnings.String(), err
		}
		merged = merged.DeepCopyObject()
		if live == nil {
			// A dry-run create is never written: it has no resourceVersion.
			merged.Meta().ResourceVersion = ""
		} else {
			// A dry-run update keeps the live one.
			merged.Meta().ResourceVersion = live.Meta().ResourceVersion
			warnings.WriteString(deleting(live))
		}
		var from, to any
		if live != nil {
			from = toJSON(live)
		}
		to = toJSON(merged)
		if kind == "Secret" {
			maskSecrets(from, to)
		}
		p := pair{merged: YAML(to)}
		if from != nil {
			p.live = YAML(from)
		}
		gv := obj.GetTypeMeta().APIVersion
		if !strings.Contains(gv, "/") {
			gv = "v1"
		}
		out[strings.ReplaceAll(gv, "/", ".")+"."+kind+"."+m.Namespace+"."+m.Name] = p
	}
	names := make([]string, 0, len(out))
	for n := range out {
		names = append(names, n)
	}
	slices.Sort(names)
	liveDir, mergedDir := tempDir("LIVE", k.now), tempDir("MERGED", k.now)
	stamp := k.now.Wall().Format("2006-01-02 15:04:05.000000000 -0700")
	var b strings.Builder
	b.WriteString(warnings.String())
	for _, n := range names {
		p := out[n]
		if p.live == p.merged {
			continue
		}
		fmt.Fprintf(&b, "diff -u -N %s/%s %s/%s\n", liveDir, n, mergedDir, n)
		unified(&b, p.live, p.merged, liveDir+"/"+n, mergedDir+"/"+n, stamp, stamp)
	}
	k.errCode = 0
	if b.Len() > warnings.Len() {
		k.code = 1
	}
	return b.String(), nil
}

// tempDir is the directory os.MkdirTemp("", prefix+"-") would make, its
// random number derived from the simulated time.
func tempDir(prefix string, now api.Time) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s-%d", prefix, now)
	return fmt.Sprintf("/tmp/%s-%d", prefix, h.Sum32())
}

// maskSecrets masks the values of a Secret's data as kubectl diff does:
// "***" each, "*** (before)" and "*** (after)" for a key whose value
// changes, so that a change shows and no value does.
func maskSecrets(from, to any) {
	f, _ := dataOf(from)
	t, _ := dataOf(to)
	for key, v := range f {
		if tv, ok := t[key]; ok {
			if tv != v {
				f[key], t[key] = "*** (before)", "*** (after)"
				continue
			}
			t[key] = "***"
		}
		f[key] = "***"
	}
	for key := range t {
		if _, ok := f[key]; !ok {
			t[key] = "***"
		}
	}
}

func dataOf(obj any) (map[string]any, bool) {
	o, ok := obj.(map[string]any)
	if !ok {
		return nil, false
	}
	d, ok := o["data"].(map[string]any)
	return d, ok
}
