package scenario

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
	"reconcile/engine/limits"
	"reconcile/engine/manifest"
	"reconcile/engine/sim"
	"reconcile/engine/validation"
	"reconcile/engine/yamlpos"
)

var topFields = []string{"id", "title", "summary", "lead", "story", "predict", "seed", "validate", "cluster", "manifests", "steps", "response", "expect", "failure", "traffic", "challenge"}

// Load reads a scenario file (the format: docs/scenarios.md). file names it
// in every error.
//
// A file whose first document has apiVersion or kind, or has no id and no
// other scenario field, is a plain manifest file: a scenario with the
// default cluster, the manifests applied at t=0, no steps, its id taken from
// the file name, and Plain set.
//
// Load returns the whole scenario or an yamlpos.ErrorList, never a part: every
// problem it finds, each as file:line:column and what was expected.
// Manifests applied at t=0 are defaulted and validated as the API server
// would, so a negative replica count is a load error pointing at its line.
// Unknown fields in manifests are refused as kubectl's --validate=strict
// refuses them, or, in a scenario that says validate: warn, are warnings
// (Scenario.Warnings); in the scenario's own fields they are errors.
func Load(file string, data []byte) (*Scenario, error) {
	return load(file, data, false)
}

func load(file string, data []byte, trusted bool) (*Scenario, error) {
	if len(data) > limits.MaxFileSize {
		return nil, yamlpos.ErrorList{{Pos: yamlpos.Pos{File: file, Line: 1, Col: 1}, Msg: manifest.SizeMessage(len(data))}}
	}
	l := &loader{file: file, pm: yamlpos.Source{File: file, Line: 1, Col: 1}, b: yamlpos.NewBudget(),
		lines: strings.Split(string(data), "\n"), nodes: map[string]bool{}, trusted: trusted}
	docs, err := yamlpos.Parse(string(data), l.pm, l.b)
	if err != nil {
		return nil, err
	}
	var nonEmpty []*yaml.Node
	for _, d := range docs {
		if !yamlpos.IsNull(yamlpos.Content(d)) {
			nonEmpty = append(nonEmpty, d)
		}
	}
	if len(nonEmpty) == 0 {
		return nil, yamlpos.ErrorList{{Pos: l.pm.At(1, 1), Msg: "empty file: want a scenario (id, title, manifests, steps, expect, ...) or Kubernetes manifests"}}
	}
	if first := yamlpos.Content(nonEmpty[0]); isPlain(first) {
		l.loadPlain(docs)
	} else {
		if len(nonEmpty) > 1 {
			l.fail(yamlpos.Content(nonEmpty[1]), "a scenario file holds one YAML document; this is a second one (put Kubernetes objects in the manifests: block)")
		}
		l.loadScenario(first)
	}
	if err := l.errs.Err(); err != nil {
		return nil, err
	}
	return l.sc, nil
}

// isPlain reports whether a file's first document makes it a plain
// manifest file.
func isPlain(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return true
	}
	if yamlpos.Lookup(n, "apiVersion") != nil || yamlpos.Lookup(n, "kind") != nil {
		return true
	}
	for _, f := range topFields {
		if yamlpos.Lookup(n, f) != nil {
			return false
		}
	}
	return true
}

// loader holds what one Load has found so far.
type loader struct {
	file  string
	pm    yamlpos.Source
	b     *yamlpos.Budget
	lines []string
	errs  yamlpos.ErrorList
	warns []string
	notes []string
	sc    *Scenario
	// trusted skips the checks whose only outcome is an error (LoadTrusted).
	trusted bool
	// nodes are the cluster's node names, from cluster.nodes and Node manifests.
	nodes map[string]bool
	// kinds are the kinds the manifests declare, for expects.
	kinds []string
	// validate is the scenario's validate: setting.
	validate manifest.Validation
}

func (l *loader) fail(n *yaml.Node, format string, args ...any) {
	l.errs = append(l.errs, &yamlpos.Error{Pos: l.pm.Of(n), Msg: fmt.Sprintf(format, args...)})
}

func (l *loader) loadPlain(docs []*yaml.Node) {
	ds, err := manifest.DecodeDocs(docs, l.pm, l.b)
	if err != nil {
		l.errs = append(l.errs, err.(yamlpos.ErrorList)...)
		return
	}
	base := filepath.Base(l.file)
	l.sc = &Scenario{File: l.file, ID: slug(base), Title: base, Plain: true, Cluster: DefaultCluster()}
	for _, n := range l.sc.Cluster.Nodes {
		l.nodes[n.Name] = true
	}
	l.sc.Manifests = l.checkManifests(ds, true)
	l.sc.Warnings = l.warns
	l.sc.Notes = l.notes
}

// slug turns a file name into an id: "Web App.yaml" → "web-app". Each run
// of characters other than a-z and 0-9 becomes one dash.
func slug(name string) string {
	name = strings.ToLower(strings.TrimSuffix(name, filepath.Ext(name)))
	b := make([]byte, 0, len(name))
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case isSlugByte(c):
			b = append(b, c)
		case len(b) == 0 || b[len(b)-1] != '-':
			b = append(b, '-')
		}
	}
	s := strings.Trim(string(b), "-")
	if s == "" {
		return "scenario"
	}
	return s
}

func isSlugByte(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// isID reports whether id is made of a-z, 0-9 and dashes only (not empty).
func isID(id string) bool {
	for i := 0; i < len(id); i++ {
		if !isSlugByte(id[i]) && id[i] != '-' {
			return false
		}
	}
	return id != ""
}

// rawHTML finds what looks like an HTML tag or comment in a text the page
// shows (the summary, the lead, a moment of the story): a "<" before a
// letter, "/", "!" or "?". It returns where, or -1.
func rawHTML(s string) int {
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '<' {
			continue
		}
		switch c := s[i+1]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '/', c == '!', c == '?':
			return i
		}
	}
	return -1
}

func (l *loader) loadScenario(root *yaml.Node) {
	f := l.fields(root, "", topFields)
	if f == nil {
		return
	}
	sc := &Scenario{File: l.file}
	l.sc = sc
	if n := f.get("id"); n != nil {
		if id, ok := l.str(n, "id"); ok {
			if !isID(id) || len(id) > 63 {
				l.fail(n, "id: invalid id %q: want lower-case letters, digits and '-' (at most 63), e.g. node-dies-at-3am", id)
			}
			sc.ID = id
		}
	} else {
		sc.ID = slug(filepath.Base(l.file))
	}
	sc.Title = sc.ID
	if n := f.get("title"); n != nil {
		if t, ok := l.str(n, "title"); ok && strings.TrimSpace(t) != "" {
			sc.Title = strings.TrimSpace(t)
		}
	}
	if n := f.get("summary"); n != nil {
		if s, ok := l.str(n, "summary"); ok {
			sc.Summary = strings.TrimSpace(s)
			l.text(n, "summary", sc.Summary, 0)
		}
	}
	if n := f.get("seed"); n != nil {
		if v, ok := l.integer(n, "seed", 64); ok {
			sc.Seed = v
		}
	}
	if n := f.get("validate"); n != nil {
		if v, ok := l.str(n, "validate"); ok {
			switch v {
			case "strict", "":
			case "warn":
				sc.Validate = manifest.Warn
			default:
				l.fail(n, "validate: Unsupported value: %q: supported values: \"strict\", \"warn\"", v)
			}
		}
	}
	l.validate = sc.Validate
	sc.Cluster = DefaultCluster()
	if n := f.get("cluster"); n != nil {
		sc.Cluster = l.cluster(n)
	}
	for _, n := range sc.Cluster.Nodes {
		l.nodes[n.Name] = true
	}
	if n := f.get("manifests"); n != nil {
		sc.Manifests = l.checkManifests(l.block(n, "manifests"), true)
	}
	if n := f.get("steps"); n != nil {
		sc.Steps = l.steps(n, "steps", false)
	}
	if n := f.get("response"); n != nil {
		sc.Response = l.steps(n, "response", true)
	}
	if n := f.get("traffic"); n != nil {
		sc.Traffic = l.traffics(n, sc)
	}
	if n := f.get("expect"); n != nil {
		sc.Expect = l.expects(n)
	}
	if n := f.get("failure"); n != nil {
		sc.Failure = l.failure(n)
	}
	if n := f.get("challenge"); n != nil {
		sc.Challenge = l.challenge(n)
	}
	sc.Lead = firstSentence(sc.Summary)
	if n := f.get("lead"); n != nil && !yamlpos.IsNull(n) {
		sc.Lead = l.lead(n)
	}
	// The story and the predictions must fall within the run, whose end
	// the steps and expects set; when one of those did not load, the end is
	// unknown and only MaxTime bounds them.
	end := sc.Horizon()
	if len(l.errs) > 0 {
		end = limits.MaxTime + sim.DefaultHorizon
	}
	if n := f.get("story"); n != nil {
		sc.Story = l.story(n, end)
	}
	if n := f.get("predict"); n != nil {
		sc.Predict = l.predict(n, end)
	}
	sc.Warnings = l.warns
	sc.Notes = l.notes
}

// block decodes a manifests text held by a scalar (manifests, apply, git).
func (l *loader) block(n *yaml.Node, path string) []manifest.Decoded {
	return l.blockAs(n, path, l.validate)
}

// blockAs is block with unknown fields treated as v says.
func (l *loader) blockAs(n *yaml.Node, path string, v manifest.Validation) []manifest.Decoded {
	n = yamlpos.Resolve(n)
	if yamlpos.IsNull(n) {
		return nil
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		l.fail(n, "%s: invalid type: got %q, expected Kubernetes YAML as text (write %s: | and the manifests below it, indented)", path, yamlpos.TypeName(n), path)
		return nil
	}
	ds, err := manifest.DecodeTextAs(n.Value, l.blockMap(n), l.b, v)
	if err != nil {
		l.errs = append(l.errs, err.(yamlpos.ErrorList)...)
		return nil
	}
	return ds
}

// blockMap places a text held by a scalar in the file. The lines of a
// literal block (|) sit one under the other at the block's indentation;
// other scalars pin every position to their start.
func (l *loader) blockMap(n *yaml.Node) yamlpos.Source {
	if n.Style&yaml.LiteralStyle != 0 {
		valueLines := strings.Split(n.Value, "\n")
		for i, vl := range valueLines {
			if strings.TrimSpace(vl) == "" {
				continue
			}
			src := n.Line + i // 0-based index of the (i+1)th line after the indicator
			if src < len(l.lines) {
				indent := yamlpos.Leading(l.lines[src]) - yamlpos.Leading(vl)
				return yamlpos.Source{File: l.file, Line: n.Line + 1, Col: indent + 1}
			}
			break
		}
	}
	return yamlpos.Source{File: l.file, Line: n.Line, Col: n.Column, Fixed: true}
}

// checkManifests validates manifests as the API server would create them
// (atCreate: the t=0 manifests), collects their warnings and the kinds and
// nodes they declare.
func (l *loader) checkManifests(ds []manifest.Decoded, atCreate bool) []manifest.Manifest {
	out := make([]manifest.Manifest, 0, len(ds))
	seen := map[api.Ref]yamlpos.Pos{}
	for _, d := range ds {
		if d.Refused != "" {
			continue // refused when it is applied: kubectl's error in the run
		}
		obj := d.Object
		l.warns = append(l.warns, d.Warnings...)
		kind := obj.GetTypeMeta().Kind
		if k, _ := api.KindOf(kind); !k.Simulated() && !contains(l.kinds, kind) {
			l.kinds = append(l.kinds, kind)
			l.notes = append(l.notes, fmt.Sprintf("%s: Note: %s", d.Pos, api.NotSimulatedNote(kind)))
		}
		for _, n := range partialNotes(obj) {
			l.notes = append(l.notes, fmt.Sprintf("%s: Note: %s", d.Pos, n))
		}
		if kind == "Node" {
			name := obj.Meta().Name
			if l.nodes[name] && atCreate {
				l.errs = append(l.errs, &yamlpos.Error{Pos: d.Pos, Msg: fmt.Sprintf("Node %q is also in cluster.nodes: define each node once", name)})
			}
			l.nodes[name] = true
			if len(l.nodes) > limits.MaxNodes {
				l.errs = append(l.errs, &yamlpos.Error{Pos: d.Pos, Msg: fmt.Sprintf("too many nodes: the limit is %d nodes per cluster (MaxNodes)", limits.MaxNodes)})
			}
		}
		if atCreate && !l.trusted {
			stored := obj.DeepCopyObject()
			kinds.Default(stored)
			if e := validation.NewError(kind, obj.Meta().Name, kinds.Errors(stored)); e != nil {
				l.errs = append(l.errs, d.Invalid(e)...)
			}
			ref := api.RefOf(stored)
			if first, dup := seen[ref]; dup {
				l.errs = append(l.errs, &yamlpos.Error{Pos: d.Pos, Msg: fmt.Sprintf("%s %q is declared twice in the manifests (first at %s)", kind, ref.Key(), first)})
			}
			seen[ref] = d.Pos
		}
		out = append(out, d.Manifest)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fieldSet is a mapping of the scenario format, checked for unknown keys.
type fieldSet struct {
	node *yaml.Node
	vals map[string]*yaml.Node
}

func (f *fieldSet) get(key string) *yaml.Node { return f.vals[key] }

// fields reads a mapping whose keys must be among allowed; nil when n is
// not a mapping (an error is recorded).
func (l *loader) fields(n *yaml.Node, path string, allowed []string) *fieldSet {
	n = yamlpos.Resolve(n)
	if n.Kind != yaml.MappingNode {
		prefix := ""
		if path != "" {
			prefix = path + ": "
		}
		l.fail(n, "%swant a mapping of %s, got %s", prefix, strings.Join(allowed, ", "), yamlpos.Article(yamlpos.TypeName(n)))
		return nil
	}
	ps, err := yamlpos.Pairs(n, l.pm)
	if err != nil {
		l.errs = append(l.errs, err)
		return nil
	}
	f := &fieldSet{node: n, vals: map[string]*yaml.Node{}}
	for _, p := range ps {
		key := yamlpos.Resolve(p.Key).Value
		if !contains(allowed, key) {
			in := ""
			if path != "" {
				in = " in " + path
			}
			l.fail(p.Key, "unknown field %q%s; expected one of %s", key, in, strings.Join(allowed, ", "))
			continue
		}
		f.vals[key] = yamlpos.Resolve(p.Value)
	}
	return f
}

// oneOf returns the one key of keys that f sets, reporting none or several.
func (l *loader) oneOf(f *fieldSet, path string, keys ...string) (string, bool) {
	var set []string
	for _, k := range keys {
		if f.get(k) != nil {
			set = append(set, k)
		}
	}
	if len(set) == 1 {
		return set[0], true
	}
	got := "none"
	if len(set) > 1 {
		got = strings.Join(set, " and ")
	}
	l.fail(f.node, "%s: want exactly one of %s; got %s", path, strings.Join(keys, ", "), got)
	return "", false
}

func (l *loader) str(n *yaml.Node, path string) (string, bool) {
	n = yamlpos.Resolve(n)
	if yamlpos.IsNull(n) {
		return "", true
	}
	if n.Kind != yaml.ScalarNode {
		l.fail(n, "%s: invalid type: got %q, expected \"string\"", path, yamlpos.TypeName(n))
		return "", false
	}
	return n.Value, true
}

func (l *loader) integer(n *yaml.Node, path string, bits int) (int64, bool) {
	n = yamlpos.Resolve(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		l.fail(n, "%s: invalid type: got %q, expected \"integer\"", path, yamlpos.TypeName(n))
		return 0, false
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, bits)
	if err != nil {
		l.fail(n, "%s: invalid value: %s is out of range for an int%d", path, n.Value, bits)
		return 0, false
	}
	return v, true
}

func (l *loader) boolean(n *yaml.Node, path string) (bool, bool) {
	n = yamlpos.Resolve(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		l.fail(n, "%s: invalid type: got %q, expected \"boolean\" (true or false)", path, yamlpos.TypeName(n))
		return false, false
	}
	return strings.EqualFold(n.Value, "true"), true
}

// duration reads a simulated time or duration: 30s, 2m, 1h30m, or a number
// of seconds.
func (l *loader) duration(n *yaml.Node, path string) (api.Duration, bool) {
	n = yamlpos.Resolve(n)
	if n.Kind != yaml.ScalarNode || yamlpos.IsNull(n) {
		l.fail(n, "%s: invalid type: got %q, expected a duration such as 30s, 2m or 1h30m", path, yamlpos.TypeName(n))
		return 0, false
	}
	d, err := api.ParseDuration(n.Value)
	if err != nil {
		l.fail(n, "%s: %v", path, err)
		return 0, false
	}
	if d > limits.MaxTime {
		l.fail(n, "%s: %s is later than the limit of %s of simulated time (MaxTime)", path, n.Value, api.FormatDuration(limits.MaxTime))
		return 0, false
	}
	return d, true
}

func (l *loader) failure(n *yaml.Node) *FailureRow {
	names := []string{"trigger", "symptom", "cause", "response"}
	f := l.fields(n, "failure", names)
	if f == nil {
		return nil
	}
	row := &FailureRow{}
	dst := []*string{&row.Trigger, &row.Symptom, &row.Cause, &row.Response}
	for i, name := range names {
		v := f.get(name)
		if v == nil {
			l.fail(f.node, "failure.%s: Required value: a failure row has a trigger, a symptom, a cause and a response", name)
			continue
		}
		if s, ok := l.str(v, "failure."+name); ok {
			*dst[i] = strings.TrimSpace(s)
		}
	}
	return row
}
