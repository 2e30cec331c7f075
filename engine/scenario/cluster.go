package scenario

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kinds"
	"reconcile/engine/limits"
	"reconcile/engine/manifest"
	"reconcile/engine/registry"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
)

// Defaults of the simulated cluster and registry.
const (
	DefaultNodeCPU      api.Quantity = "4"
	DefaultNodeMemory   api.Quantity = "8Gi"
	DefaultNodePods                  = 110
	DefaultGitOpsPeriod              = 30 * api.Second
)

// DefaultCluster is the cluster of a scenario that names none: worker-1,
// worker-2 and worker-3, each with 4 CPUs, 8Gi of memory and room for 110
// pods; every controller level-triggered; no GitOps.
func DefaultCluster() Cluster {
	var c Cluster
	for _, n := range sim.DefaultNodes() {
		c.Nodes = append(c.Nodes, Node{Name: n.Name, CPU: n.CPU, Memory: n.Memory, Pods: n.Pods})
	}
	return c
}

// newImage is an entry of cluster.images before its fields are read: as
// the registry treats an image it does not list.
func newImage() Image {
	return Image{Pull: registry.DefaultPull, Start: registry.DefaultStart, Ready: true, Healthy: true}
}

var (
	clusterFields = []string{"nodes", "images", "controllers", "gitops", "clusterCIDR"}
	nodeFields    = []string{"name", "cpu", "memory", "labels", "taints", "unschedulable", "pods"}
	imageFields   = []string{"ref", "digest", "pull", "start", "ready", "crash", "healthy", "pullError",
		"exitCode", "runs", "warmup", "stops", "startupFails", "postStartFails", "preStopFails", "memory", "commands"}
)

func (l *loader) cluster(n *yaml.Node) Cluster {
	c := DefaultCluster()
	if yamlpos.IsNull(n) {
		return c
	}
	f := l.fields(n, "cluster", clusterFields)
	if f == nil {
		return c
	}
	if v := f.get("nodes"); v != nil {
		c.Nodes = l.clusterNodes(v)
	}
	if v := f.get("images"); v != nil {
		c.Images = l.images(v)
	}
	if v := f.get("controllers"); v != nil {
		c.Controllers = l.controllers(v)
	}
	if v := f.get("clusterCIDR"); v != nil {
		if s, ok := l.str(v, "cluster.clusterCIDR"); ok {
			if err := controller.CheckClusterCIDR(s); err != nil {
				l.fail(v, "cluster.clusterCIDR: Invalid value: %q: %v", s, err)
			} else {
				c.ClusterCIDR = s
			}
		}
	}
	if v := f.get("gitops"); v != nil {
		c.GitOps = &GitOps{Interval: DefaultGitOpsPeriod}
		if !yamlpos.IsNull(v) {
			g := l.fields(v, "cluster.gitops", []string{"interval", "manual"})
			if g != nil && g.get("interval") != nil {
				if d, ok := l.duration(g.get("interval"), "cluster.gitops.interval"); ok {
					if d <= 0 {
						l.fail(g.get("interval"), "cluster.gitops.interval: must be greater than 0s (for a tool that runs only when asked, write manual: true)")
					}
					c.GitOps.Interval = d
				}
			}
			if g != nil && g.get("manual") != nil {
				if m, ok := l.boolean(g.get("manual"), "cluster.gitops.manual"); ok && m {
					if g.get("interval") != nil {
						l.fail(g.get("manual"), "cluster.gitops: manual and interval exclude each other")
					}
					c.GitOps.Interval = 0
				}
			}
		}
	}
	return c
}

// list reads a sequence (null is an empty one).
func (l *loader) list(n *yaml.Node, path, example string) []*yaml.Node {
	n = yamlpos.Resolve(n)
	if yamlpos.IsNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		l.fail(n, "%s: invalid type: got %q, expected a list such as %s", path, yamlpos.TypeName(n), example)
		return nil
	}
	return n.Content
}

func (l *loader) clusterNodes(n *yaml.Node) []Node {
	items := l.list(n, "cluster.nodes", `[{name: worker-1, cpu: "4", memory: 8Gi}]`)
	nodes := []Node{}
	seen := map[string]bool{}
	for i, item := range items {
		path := fmt.Sprintf("cluster.nodes[%d]", i)
		if i == limits.MaxNodes {
			l.fail(item, "%s: too many nodes: the limit is %d nodes per cluster (MaxNodes)", path, limits.MaxNodes)
			break
		}
		f := l.fields(item, path, nodeFields)
		if f == nil {
			continue
		}
		nd := Node{Pos: l.pm.Of(yamlpos.Resolve(item)), CPU: DefaultNodeCPU, Memory: DefaultNodeMemory, Pods: DefaultNodePods}
		if v := f.get("name"); v == nil {
			l.fail(f.node, "%s.name: Required value: every node has a name, e.g. worker-1", path)
		} else if s, ok := l.str(v, path+".name"); ok {
			nd.Name = s
			if seen[s] {
				l.fail(v, "%s.name: Duplicate value: %q", path, s)
			}
			seen[s] = true
		}
		if v := f.get("cpu"); v != nil {
			nd.CPU = l.capacity(v, path+".cpu")
		}
		if v := f.get("memory"); v != nil {
			nd.Memory = l.capacity(v, path+".memory")
		}
		if v := f.get("pods"); v != nil {
			if p, ok := l.integer(v, path+".pods", 32); ok {
				if p < 1 {
					l.fail(v, "%s.pods: must be at least 1", path)
				}
				nd.Pods = int32(p)
			}
		}
		if v := f.get("unschedulable"); v != nil {
			nd.Unschedulable, _ = l.boolean(v, path+".unschedulable")
		}
		if v := f.get("labels"); v != nil {
			manifest.DecodeValue(v, &nd.Labels, path+".labels", l.pm, &l.errs)
		}
		if v := f.get("taints"); v != nil {
			manifest.DecodeValue(v, &nd.Taints, path+".taints", l.pm, &l.errs)
		}
		l.checkNode(f.node, nd, path)
		nodes = append(nodes, nd)
	}
	return nodes
}

// checkNode validates a cluster node as the API server validates a Node,
// reporting each cause at its place in cluster.nodes.
func (l *loader) checkNode(n *yaml.Node, nd Node, path string) {
	obj := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: api.ObjectMeta{Name: nd.Name, Labels: nd.Labels}, Spec: api.NodeSpec{Taints: nd.Taints}}
	if nd.Name == "" {
		return // already reported
	}
	for _, cause := range kinds.Errors(obj) {
		field := cause.Field
		for _, p := range [][2]string{{"metadata.name", "name"}, {"metadata.labels", "labels"}, {"spec.taints", "taints"}} {
			if strings.HasPrefix(field, p[0]) {
				field = p[1] + strings.TrimPrefix(field, p[0])
			}
		}
		l.errs = append(l.errs, &yamlpos.Error{Pos: l.pm.Of(yamlpos.NodeAt(n, field)), Msg: path + "." + field + ": " + cause.Body()})
	}
}

// capacity reads a CPU or memory amount: "4", 4, 500m, 8Gi.
func (l *loader) capacity(n *yaml.Node, path string) api.Quantity {
	n = yamlpos.Resolve(n)
	if n.Kind != yaml.ScalarNode || yamlpos.IsNull(n) || n.ShortTag() == "!!bool" {
		l.fail(n, "%s: invalid type: got %q, expected a quantity such as \"4\", 500m or 8Gi", path, yamlpos.TypeName(n))
		return ""
	}
	q := api.Quantity(n.Value)
	if v, err := q.Parse(); err != nil {
		l.fail(n, "%s: invalid value %q: %v", path, n.Value, err)
	} else if v <= 0 {
		l.fail(n, "%s: invalid value %q: must be greater than 0", path, n.Value)
	}
	return q
}

func (l *loader) images(n *yaml.Node) []Image {
	var out []Image
	seen := map[string]bool{}
	for i, item := range l.list(n, "cluster.images", `[{ref: "shop/web:1.0", pull: 3s}]`) {
		path := fmt.Sprintf("cluster.images[%d]", i)
		f := l.fields(item, path, imageFields)
		if f == nil {
			continue
		}
		im := newImage()
		im.Pos = l.pm.Of(yamlpos.Resolve(item))
		if v := f.get("ref"); v == nil {
			l.fail(f.node, "%s.ref: Required value: the image reference as pods name it, e.g. \"shop/web:1.0\"", path)
		} else if s, ok := l.str(v, path+".ref"); ok {
			if s == "" || strings.ContainsAny(s, " \t") {
				l.fail(v, "%s.ref: invalid image reference %q", path, s)
			}
			if seen[registry.Normal(s)] {
				l.fail(v, "%s.ref: Duplicate value: %q", path, s)
			}
			seen[registry.Normal(s)] = true
			im.Ref = s
		}
		if v := f.get("digest"); v != nil {
			if s, ok := l.str(v, path+".digest"); ok {
				if err := checkDigest(s); err != nil {
					l.fail(v, "%s.digest: %v", path, err)
				}
				im.Digest = s
			}
		}
		if v := f.get("pullError"); v != nil {
			im.PullError, _ = l.str(v, path+".pullError")
		}
		l.imageBehaviour(f, &im, path)
		out = append(out, im)
	}
	return out
}

func checkDigest(s string) error {
	if hex, ok := strings.CutPrefix(s, "sha256:"); !ok || hex == "" {
		return fmt.Errorf("invalid digest %q: want sha256:<hex>", s)
	}
	return nil
}

func (l *loader) controllers(n *yaml.Node) []ControllerMode {
	n = yamlpos.Resolve(n)
	if yamlpos.IsNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		l.fail(n, "cluster.controllers: invalid type: got %q, expected a mapping such as {replicaset-controller: edge}", yamlpos.TypeName(n))
		return nil
	}
	ps, err := yamlpos.Pairs(n, l.pm)
	if err != nil {
		l.errs = append(l.errs, err)
		return nil
	}
	var out []ControllerMode
	for _, p := range ps {
		name := yamlpos.Resolve(p.Key).Value
		path := "cluster.controllers." + name
		if !controller.Known(name) {
			l.fail(p.Key, "cluster.controllers: unknown controller %q: want one of %s", name, strings.Join(controller.Names(), ", "))
			continue
		}
		mode, ok := l.str(p.Value, path)
		if !ok {
			continue
		}
		switch controller.Mode(mode) {
		case controller.Level, controller.Stopped:
		case controller.Edge:
			if spec, _ := controller.Lookup(controller.Builtin, name); spec.Edge == nil {
				l.fail(p.Value, "%s: edge mode exists only for %s (the lesson's edge-triggered twin)", path, controller.ReplicaSetController)
			}
		default:
			l.fail(p.Value, "%s: unknown mode %q: want level, edge or stopped", path, mode)
		}
		out = append(out, ControllerMode{Pos: l.pm.Of(p.Key), Name: name, Mode: controller.Mode(mode)})
	}
	return out
}
