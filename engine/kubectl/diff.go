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

// StdinError is the refusal of one object of the manifests on stdin, the
// Index-th (0 the first): the API server's, or its decoder's. It reads as
// Err does.
type StdinError struct {
	Index int
	Err   error
}

func (e *StdinError) Error() string { return e.Err.Error() }
func (e *StdinError) Unwrap() error { return e.Err }

// ExecStdin is Exec of a command given manifests on stdin (-f -).
func ExecStdin(st *store.Store, now api.Time, line string, stdin []Stdin) Result {
	return execWith(st, now, line, limits.MaxOutput, stdin, true, nil)
}

// diff is kubectl diff -f -, as v1.34's (pkg/cmd/diff): for each object of
// the manifests, the live object (none if it does not exist) and the
// object as the API server would store it after kubectl apply (a dry run
// of apply's three-way merge, or of the create: defaults filled,
// generation bumped when the spec changes, the last-applied annotation
// written), each as YAML in a file named GROUP.VERSION.KIND.NAMESPACE.NAME
// of a directory, LIVE and MERGED, compared by `diff -u -N`: its output is
// kubectl's, exit code 1 when there are differences, 0 when none, and an
// error stops it before it prints any, with exit code 2. With --prune,
// the objects apply --prune would delete have a LIVE file and no MERGED
// one.
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
	prune := k.in.Bool("prune", false)
	allow, err := pruneAllowlist(k.in.List("prune-allowlist"))
	if err != nil {
		return "", err
	}
	if !k.piped {
		return "", errors.New("error: kubectl diff -f - needs manifests on stdin: in a lesson, write them in a diff: step (diff: |, then the YAML)")
	}
	// merged is "" and gone true for an object --prune would delete.
	type pair struct {
		live, merged string
		gone         bool
	}
	out := map[string]pair{}
	var warnings strings.Builder
	visitedNS, visitedUID := map[string]bool{}, map[string]bool{}
	for i, s := range k.stdin {
		if s.Refused != "" {
			return warnings.String(), &StdinError{Index: i, Err: errors.New(s.Refused)}
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
		if kd.Namespaced {
			visitedNS[m.Namespace] = true
		}
		if live != nil {
			visitedUID[live.Meta().UID] = true
		}
		_, _, merged, err := apply(k.st.DryRun(), obj, s.Config)
		if err != nil {
			return warnings.String(), &StdinError{Index: i, Err: err}
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
		out[fileName(obj)] = p
	}
	if prune {
		if len(allow) == 0 {
			// kubectl's namespace is always given (its kubeconfig's, if
			// not -n): klog's warning, the time simulated, pid 1.
			allow = defaultPrune
			fmt.Fprintf(&warnings, "W%s       1 prune.go:71] Deprecated: kubectl apply will no longer prune non-namespaced resources by default when used with the --namespace flag in a future release. To preserve the current behaviour, list the resources you want to target explicitly in the --prune-allowlist flag.\n",
				k.now.Wall().Format("0102 15:04:05.000000"))
		}
		for _, kind := range allow {
			kd, _ := api.KindOf(kind)
			for _, o := range k.st.List(kind) {
				m := o.Meta()
				if kd.Namespaced && !visitedNS[m.Namespace] || visitedUID[m.UID] || !labels.Matches(m.Labels) {
					continue
				}
				if _, applied := m.Annotations[LastAppliedAnnotation]; applied {
					out[fileName(o)] = pair{live: YAML(toJSON(o)), gone: true}
				}
			}
		}
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
		mergedStamp := stamp
		if p.gone {
			mergedStamp = "1970-01-01 00:00:00.000000000 +0000" // diff -N: an absent file, empty, of time 0
		}
		unified(&b, p.live, p.merged, liveDir+"/"+n, mergedDir+"/"+n, stamp, mergedStamp)
	}
	k.errCode = 0
	if b.Len() > warnings.Len() {
		k.code = 1
	}
	return b.String(), nil
}

// fileName is the name of obj's file in LIVE and MERGED:
// GROUP.VERSION.KIND.NAMESPACE.NAME (no GROUP. for the core group).
func fileName(obj api.Object) string {
	gv := obj.GetTypeMeta().APIVersion
	if !strings.Contains(gv, "/") {
		gv = "v1"
	}
	m := obj.Meta()
	return strings.ReplaceAll(gv, "/", ".") + "." + obj.GetTypeMeta().Kind + "." + m.Namespace + "." + m.Name
}

// defaultPrune are the kinds kubectl's --prune looks for objects to
// delete among, unless --prune-allowlist names others
// (pkg/util/prune), of those simulated here.
var defaultPrune = []string{"ConfigMap", "Endpoints", "PersistentVolumeClaim", "Pod", "Secret", "Service", "Job", "CronJob",
	"DaemonSet", "Deployment", "ReplicaSet", "StatefulSet", "Namespace", "PersistentVolume"}

// pruneAllowlist reads --prune-allowlist: GROUP/VERSION/KIND each ("core"
// for the core group).
func pruneAllowlist(gvks []string) ([]string, error) {
	var kinds []string
	for _, s := range gvks {
		gvk := strings.Split(s, "/")
		if len(gvk) != 3 {
			return nil, fmt.Errorf("error: invalid GroupVersionKind format: %v, please follow <group/version/kind>", s)
		}
		if gvk[0] == "core" {
			gvk[0] = ""
		}
		kd, ok := api.KindOf(gvk[2])
		if !ok || kd.Name != gvk[2] || kd.Group != gvk[0] || kd.Version != gvk[1] {
			gv := gvk[1]
			if gvk[0] != "" {
				gv = gvk[0] + "/" + gvk[1]
			}
			return nil, fmt.Errorf("error: no matches for kind %q in version %q", gvk[2], gv)
		}
		kinds = append(kinds, kd.Name)
	}
	return kinds, nil
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
