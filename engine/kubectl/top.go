package kubectl

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"reconcile/engine/api"
	"reconcile/engine/selector"
)

// kubectl top pod and kubectl top node, as v1.34 prints them
// (pkg/cmd/top, pkg/metricsutil/metrics_printer.go): they read the
// metrics API (metrics.k8s.io), which metrics-server serves from what the
// kubelets measure. Here the world serves it (Metrics); a cluster without
// it (nil) answers as one without metrics-server does.

// Metrics is the metrics API as metrics-server serves it: what kubectl top
// reads.
type Metrics interface {
	// PodMetrics is the usage of a pod's containers, in the pod's order;
	// false when metrics-server has none for the pod (it does not run
	// all its containers, or its node's kubelet is not answering).
	PodMetrics(p *api.Pod) ([]ContainerUsage, bool)
	// NodeMetrics is a node's usage; false when metrics-server has none
	// for it (its kubelet is stopped).
	NodeMetrics(n *api.Node) (Usage, bool)
}

// Usage is what something uses: CPU in millicores, memory in bytes.
type Usage struct {
	CPU    int64
	Memory int64
}

// ContainerUsage is one container's Usage.
type ContainerUsage struct {
	Name string
	Usage
}

// podUsage is one PodMetrics item: a pod and its containers' usage.
type podUsage struct {
	pod        *api.Pod
	containers []ContainerUsage
}

// total is the pod's usage, its containers' summed (getPodMetrics).
func (p podUsage) total() Usage {
	var u Usage
	for _, c := range p.containers {
		u.CPU += c.CPU
		u.Memory += c.Memory
	}
	return u
}

// errNoMetricsAPI is kubectl's answer when the metrics.k8s.io group is not
// served.
var errNoMetricsAPI = errors.New("error: Metrics API not available")

// topArgs reads what top pod and top node share, as their Complete and
// Validate do: at most one NAME, and --sort-by cpu or memory.
func (k *cmd) topArgs(what string) (name, sortBy string, err error) {
	if len(k.in.Args) > 1 {
		return "", "", fmt.Errorf("error: %s [NAME | -l label]\nSee 'kubectl top %s -h' for help and examples", what, what)
	}
	if len(k.in.Args) == 1 {
		name = k.in.Args[0]
	}
	sortBy = k.in.String("sort-by", "")
	if sortBy != "" && sortBy != "cpu" && sortBy != "memory" {
		return "", "", errors.New("error: --sort-by accepts only cpu or memory")
	}
	return name, sortBy, nil
}

// byUsage orders a before b as kubectl's sorters do under --sort-by: the
// larger usage first; 0 for no --sort-by and for ties, which are then
// ordered by name.
func byUsage(sortBy string, a, b Usage) int {
	switch sortBy {
	case "cpu":
		return cmp.Compare(b.CPU, a.CPU)
	case "memory":
		return cmp.Compare(b.Memory, a.Memory)
	}
	return 0
}

// topPod is kubectl top pod [NAME | -l label].
func (k *cmd) topPod() (string, error) {
	name, sortBy, err := k.topArgs("pod")
	if err != nil {
		return "", err
	}
	labelText, fieldText := k.in.String("selector", ""), k.in.String("field-selector", "")
	if name != "" && (labelText != "" || fieldText != "") {
		return "", errors.New("error: only one of NAME or selector can be provided")
	}
	labels, err := selector.ParseLabels(labelText)
	if err != nil {
		return "", fmt.Errorf("error: %v", err)
	}
	fields, err := selector.ParseFields(fieldText)
	if err != nil {
		return "", fmt.Errorf("error: %v", err)
	}
	if k.metrics == nil {
		return "", errNoMetricsAPI
	}
	all := k.in.Bool("all-namespaces", false)
	var items []podUsage
	if name != "" {
		// A Get of one PodMetrics: metrics-server's NotFound when it has
		// none, whether or not the pod exists.
		o := k.st.Get("Pod", k.ns, name)
		p, _ := o.(*api.Pod)
		cs, ok := podMetrics(k.metrics, p)
		if !ok {
			return "", statusError("NotFound", "podmetrics.metrics.k8s.io %q not found", k.ns+"/"+name)
		}
		items = append(items, podUsage{p, cs})
	} else {
		for _, o := range k.st.List("Pod") {
			p := o.(*api.Pod)
			if (!all && p.Namespace != k.ns) || !labels.Matches(p.Labels) || !fields.Matches(p) {
				continue
			}
			if cs, ok := podMetrics(k.metrics, p); ok {
				items = append(items, podUsage{p, cs})
			}
		}
	}
	var out strings.Builder
	if len(items) == 0 {
		// Why none (verifyEmptyMetrics): pods of the namespace that have no
		// metrics yet, or none at all.
		for _, o := range k.st.List("Pod") {
			p := o.(*api.Pod)
			if p.Namespace != k.ns || !labels.Matches(p.Labels) || !fields.Matches(p) {
				continue
			}
			if age := k.now - p.CreationTimestamp; age > metricsCreationDelay {
				return "", fmt.Errorf("error: Metrics not available for pod %s/%s, age: %s", p.Namespace, p.Name, time.Duration(age)*time.Millisecond)
			}
		}
		for _, o := range k.st.List("Pod") {
			p := o.(*api.Pod)
			if p.Namespace == k.ns && labels.Matches(p.Labels) && fields.Matches(p) {
				return "", errors.New("error: metrics not available yet")
			}
		}
		if all {
			return "No resources found\n", nil
		}
		return fmt.Sprintf("No resources found in %s namespace.\n", k.ns), nil
	}
	printPodMetrics(&out, items, k.in.Bool("containers", false), all, k.in.Bool("no-headers", false), sortBy, k.in.Bool("sum", false))
	return out.String(), nil
}

// metricsCreationDelay is how long kubectl allows a new pod to be without
// metrics before it calls their absence an error (2 minutes).
const metricsCreationDelay = 2 * api.Minute

// podMetrics asks m for p's metrics; a pod that does not exist has none.
func podMetrics(m Metrics, p *api.Pod) ([]ContainerUsage, bool) {
	if p == nil {
		return nil, false
	}
	return m.PodMetrics(p)
}

// topWriter is kubectl's printers.GetNewTabWriter.
func topWriter(b *strings.Builder) *tabwriter.Writer { return tabwriter.NewWriter(b, 6, 4, 3, ' ', 0) }

// printPodMetrics is metricsutil's PrintPodMetrics: every cell ends with a
// tab, so the last column is padded too.
func printPodMetrics(b *strings.Builder, items []podUsage, containers, withNamespace, noHeaders bool, sortBy string, sum bool) {
	w := topWriter(b)
	width := 3
	if !noHeaders {
		if withNamespace {
			fmt.Fprint(w, "NAMESPACE\t")
			width++
		}
		if containers {
			fmt.Fprint(w, "POD\t")
			width++
		}
		fmt.Fprint(w, "NAME\tCPU(cores)\tMEMORY(bytes)\t\n")
	}
	// kubectl's sort is not stable; here ties are ordered by namespace and
	// name.
	slices.SortStableFunc(items, func(a, c podUsage) int {
		if o := byUsage(sortBy, a.total(), c.total()); o != 0 {
			return o
		}
		if withNamespace && a.pod.Namespace != c.pod.Namespace {
			return strings.Compare(a.pod.Namespace, c.pod.Namespace)
		}
		return strings.Compare(a.pod.Name, c.pod.Name)
	})
	var total Usage
	for _, it := range items {
		u := it.total()
		total.CPU += u.CPU
		total.Memory += u.Memory
		if !containers {
			if withNamespace {
				fmt.Fprintf(w, "%s\t", it.pod.Namespace)
			}
			fmt.Fprintf(w, "%s\t%s\n", it.pod.Name, usageCells(u))
			continue
		}
		cs := slices.Clone(it.containers)
		slices.SortStableFunc(cs, func(a, c ContainerUsage) int {
			if o := byUsage(sortBy, a.Usage, c.Usage); o != 0 {
				return o
			}
			return strings.Compare(a.Name, c.Name)
		})
		for _, c := range cs {
			if withNamespace {
				fmt.Fprintf(w, "%s\t", it.pod.Namespace)
			}
			fmt.Fprintf(w, "%s\t%s\t%s\n", it.pod.Name, c.Name, usageCells(c.Usage))
		}
	}
	if sum {
		// printPodResourcesSum: the rule under the last two columns of the
		// header's width (as counted with headers: 3 without them).
		fmt.Fprint(w, strings.Repeat("\t", width-2)+"________\t________\t\n")
		fmt.Fprintf(w, "%s\t%s\n", strings.Repeat("\t", width-3), usageCells(total))
	}
	w.Flush()
}

// usageCells are a usage's CPU and memory cells: millicores, and whole
// mebibytes rounded down.
func usageCells(u Usage) string {
	return fmt.Sprintf("%dm\t%dMi\t", u.CPU, u.Memory/(1024*1024))
}

// topNode is kubectl top node [NAME | -l label].
func (k *cmd) topNode() (string, error) {
	name, sortBy, err := k.topArgs("node")
	if err != nil {
		return "", err
	}
	labelText := k.in.String("selector", "")
	if name != "" && labelText != "" {
		return "", errors.New("error: only one of NAME or --selector can be provided")
	}
	labels, err := selector.ParseLabels(labelText)
	if err != nil {
		return "", fmt.Errorf("error: %v", err)
	}
	if k.metrics == nil {
		return "", errNoMetricsAPI
	}
	var nodes []*api.Node
	if name != "" {
		n, _ := k.st.Get("Node", "", name).(*api.Node)
		if n == nil {
			return "", statusError("NotFound", "nodemetrics.metrics.k8s.io %q not found", name)
		}
		nodes = append(nodes, n)
	} else {
		for _, o := range k.st.List("Node") {
			if n := o.(*api.Node); labels.Matches(n.Labels) {
				nodes = append(nodes, n)
			}
		}
	}
	type nodeUsage struct {
		node  *api.Node
		usage Usage
	}
	var measured []nodeUsage
	var missing []*api.Node
	for _, n := range nodes {
		if u, ok := k.metrics.NodeMetrics(n); ok {
			measured = append(measured, nodeUsage{n, u})
		} else {
			missing = append(missing, n)
		}
	}
	if len(measured) == 0 {
		if name != "" {
			return "", statusError("NotFound", "nodemetrics.metrics.k8s.io %q not found", name)
		}
		return "", errors.New("error: metrics not available yet")
	}
	slices.SortStableFunc(measured, func(a, c nodeUsage) int {
		if o := byUsage(sortBy, a.usage, c.usage); o != 0 {
			return o
		}
		return strings.Compare(a.node.Name, c.node.Name)
	})
	var b strings.Builder
	w := topWriter(&b)
	if !k.in.Bool("no-headers", false) {
		fmt.Fprint(w, "NAME\tCPU(cores)\tCPU(%)\tMEMORY(bytes)\tMEMORY(%)\t\n")
	}
	capacity := k.in.Bool("show-capacity", false)
	for _, m := range measured {
		available := m.node.Status.Allocatable
		if capacity {
			available = m.node.Status.Capacity
		}
		fmt.Fprintf(w, "%s\t%dm\t%s%dMi\t%s\n", m.node.Name, m.usage.CPU, percentCell(m.usage.CPU, available, "cpu"),
			m.usage.Memory/(1024*1024), percentCell(m.usage.Memory*1000, available, "memory"))
	}
	// Nodes listed without metrics: kubectl prints them after the others,
	// in a map's order; here by name.
	for _, n := range missing {
		fmt.Fprintf(w, "%s\t<unknown>\t<unknown>\t<unknown>\t<unknown>\t\n", n.Name)
	}
	w.Flush()
	return b.String(), nil
}

// percentCell is a usage's share of what the node has of resource (in
// thousandths of its unit: millicores, millibytes), as kubectl computes
// it: a float, cut to a whole percent; 0% of nothing; no cell at all when
// the node does not say how much it has.
func percentCell(milli int64, available map[string]api.Quantity, resource string) string {
	q, ok := available[resource]
	if !ok {
		return ""
	}
	fraction := 0.0
	if avail := q.Milli(); avail != 0 {
		fraction = float64(milli) / float64(avail) * 100
	}
	return fmt.Sprintf("%d%%\t", int64(fraction))
}
