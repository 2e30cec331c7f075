package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
	"sort"
	"strings"
)

var _ = Define(Def[*api.Node]{
	Kind:           "Node",
	NoGeneration:   true,
	Validate:       validation.ValidateNode,
	ValidateUpdate: validation.ValidateNodeUpdate,
	KeepStatus:     func(obj, old *api.Node) { obj.Status = old.Status },
	KeepSpec:       func(obj, old *api.Node) { obj.Spec = old.Spec },
	Columns: []TypedColumn[*api.Node]{Name[*api.Node](),
		{Name: "STATUS", Cell: func(n *api.Node, _ api.Time) string { return NodeStatus(n) }},
		{Name: "ROLES", Cell: func(n *api.Node, _ api.Time) string { return NodeRoles(n) }},
		Age[*api.Node](),
		{Name: "VERSION", Cell: func(n *api.Node, _ api.Time) string { return nodeInfo(n).KubeletVersion }},
		{Name: "INTERNAL-IP", Wide: true, Cell: func(n *api.Node, _ api.Time) string { return nodeAddress(n, "InternalIP") }},
		{Name: "EXTERNAL-IP", Wide: true, Cell: func(n *api.Node, _ api.Time) string { return nodeAddress(n, "ExternalIP") }},
		{Name: "OS-IMAGE", Wide: true, Cell: func(n *api.Node, _ api.Time) string { return orUnknown(nodeInfo(n).OSImage) }},
		{Name: "KERNEL-VERSION", Wide: true, Cell: func(n *api.Node, _ api.Time) string { return orUnknown(nodeInfo(n).KernelVersion) }},
		{Name: "CONTAINER-RUNTIME", Wide: true, Cell: func(n *api.Node, _ api.Time) string {
			return orUnknown(nodeInfo(n).ContainerRuntimeVersion)
		}},
	},
	Describe: withEvents(describeNode),
})

// NodeStatus is the STATUS column of kubectl get nodes.
func NodeStatus(n *api.Node) string {
	s := "Unknown"
	for _, c := range n.Status.Conditions {
		if c.Type == "Ready" {
			s = "NotReady"
			if c.Status == "True" {
				s = "Ready"
			}
		}
	}
	if n.Spec.Unschedulable {
		s += ",SchedulingDisabled"
	}
	return s
}

// NodeRoles is the ROLES column: the node-role.kubernetes.io/ labels'
// roles, or <none>.
func NodeRoles(n *api.Node) string {
	var roles []string
	for k, v := range n.Labels {
		switch {
		case strings.HasPrefix(k, "node-role.kubernetes.io/"):
			if r := strings.TrimPrefix(k, "node-role.kubernetes.io/"); r != "" {
				roles = append(roles, r)
			}
		case k == "kubernetes.io/role" && v != "":
			roles = append(roles, v)
		}
	}
	sort.Strings(roles)
	return OrNone(strings.Join(roles, ","))
}

func nodeInfo(n *api.Node) api.NodeSystemInfo {
	if n.Status.NodeInfo != nil {
		return *n.Status.NodeInfo
	}
	return api.NodeSystemInfo{}
}

// nodeAddress is the node's last address of a type, or <none>.
func nodeAddress(n *api.Node, typ string) string {
	addr := "<none>"
	for _, a := range n.Status.Addresses {
		if a.Type == typ {
			addr = a.Address
		}
	}
	return addr
}

func orUnknown(s string) string {
	if s == "" {
		return "<unknown>"
	}
	return s
}

func describeNode(w *Describer, n *api.Node) {
	w.Line(0, "Name:\t%s\n", n.Name)
	w.Line(0, "Roles:\t%s\n", NodeRoles(n))
	labelsBlock(w, "Labels", n.Labels)
	annotationsBlock(w, "Annotations", n.Annotations)
	w.Line(0, "CreationTimestamp:\t%s\n", when(n.CreationTimestamp))
	w.Line(0, "Taints:\t")
	if len(n.Spec.Taints) == 0 {
		w.Line(0, "<none>\n")
	}
	taints := append([]api.Taint(nil), n.Spec.Taints...)
	sort.SliceStable(taints, func(i, j int) bool { return taints[i].Effect+","+taints[i].Key < taints[j].Effect+","+taints[j].Key })
	for i, t := range taints {
		if i > 0 {
			w.Line(0, "\t")
		}
		w.Line(0, "%s\n", taintString(t))
	}
	w.Line(0, "Unschedulable:\t%v\n", n.Spec.Unschedulable)
	if l, ok := w.Store.Get("Lease", "kube-node-lease", n.Name).(*api.Lease); ok {
		w.Line(0, "Lease:\n")
		w.Line(1, "HolderIdentity:\t%s\n", orUnset(l.Spec.HolderIdentity))
		w.Line(1, "AcquireTime:\t<unset>\n")
		w.Line(1, "RenewTime:\t%s\n", when(l.Spec.RenewTime))
	}
	if len(n.Status.Conditions) > 0 {
		w.Line(0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n")
		w.Line(1, "----\t------\t-----------------\t------------------\t------\t-------\n")
		for _, c := range n.Status.Conditions {
			w.Line(1, "%v \t%v \t%s \t%s \t%v \t%v\n", c.Type, c.Status, when(c.LastHeartbeatTime), when(c.LastTransitionTime), c.Reason, c.Message)
		}
	}
	w.Line(0, "Addresses:\n")
	for _, a := range n.Status.Addresses {
		w.Line(1, "%s:\t%s\n", a.Type, a.Address)
	}
	quantities(w, 0, "Capacity", n.Status.Capacity, 0, "  ")
	quantities(w, 0, "Allocatable", n.Status.Allocatable, 0, "  ")
	info := api.NodeSystemInfo{}
	if n.Status.NodeInfo != nil {
		info = *n.Status.NodeInfo
	}
	w.Line(0, "System Info:\n")
	for _, f := range [][2]string{{"Machine ID", info.MachineID}, {"System UUID", info.SystemUUID}, {"Boot ID", info.BootID}, {"Kernel Version", info.KernelVersion},
		{"OS Image", info.OSImage}, {"Operating System", info.OperatingSystem}, {"Architecture", info.Architecture},
		{"Container Runtime Version", info.ContainerRuntimeVersion}, {"Kubelet Version", info.KubeletVersion}, {"Kube-Proxy Version", info.KubeProxyVersion}} {
		w.Line(0, "  %s:\t%s\n", f[0], f[1])
	}
	if n.Spec.PodCIDR != "" {
		w.Line(0, "PodCIDR:\t%s\n", n.Spec.PodCIDR)
	}
	if len(n.Spec.PodCIDRs) > 0 {
		w.Line(0, "PodCIDRs:\t%s\n", strings.Join(n.Spec.PodCIDRs, ","))
	}
	describeNodePods(w, n)
}

func taintString(t api.Taint) string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
		if t.Effect == "" {
			s += ":"
		}
	}
	if t.Effect != "" {
		s += ":" + t.Effect
	}
	return s
}

// describeNodePods prints the node's non-terminated pods and what they
// ask of it.
func describeNodePods(w *Describer, n *api.Node) {
	var pods []*api.Pod
	for _, o := range w.Store.List("Pod") {
		p := o.(*api.Pod)
		if p.Spec.NodeName == n.Name && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			pods = append(pods, p)
		}
	}
	alloc := n.Status.Allocatable
	if len(alloc) == 0 {
		alloc = n.Status.Capacity
	}
	allocCPU, allocMem := alloc["cpu"].Milli(), alloc["memory"].Value()
	pct := func(v, of int64) int64 {
		if of == 0 {
			return 0
		}
		return int64(float64(v) / float64(of) * 100)
	}
	w.Line(0, "Non-terminated Pods:\t(%d in total)\n", len(pods))
	w.Line(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n")
	w.Line(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n")
	var total [4]int64
	for _, p := range pods {
		var v [4]int64 // cpu requests, cpu limits (millicores), memory requests, memory limits (bytes)
		for _, c := range p.Spec.Containers {
			v[0] += c.Resources.Requests["cpu"].Milli()
			v[1] += c.Resources.Limits["cpu"].Milli()
			v[2] += c.Resources.Requests["memory"].Value()
			v[3] += c.Resources.Limits["memory"].Value()
		}
		for i := range v {
			total[i] += v[i]
		}
		w.Line(1, "%s\t%s\t\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s\n", p.Namespace, p.Name,
			milli(v[0]), pct(v[0], allocCPU), milli(v[1]), pct(v[1], allocCPU), bytes(v[2]), pct(v[2], allocMem), bytes(v[3]), pct(v[3], allocMem),
			AgeOf(w.Now, p.CreationTimestamp))
	}
	w.Line(0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n")
	w.Line(1, "Resource\tRequests\tLimits\n")
	w.Line(1, "--------\t--------\t------\n")
	w.Line(1, "%s\t%s (%d%%)\t%s (%d%%)\n", "cpu", milli(total[0]), pct(total[0], allocCPU), milli(total[1]), pct(total[1], allocCPU))
	w.Line(1, "%s\t%s (%d%%)\t%s (%d%%)\n", "memory", bytes(total[2]), pct(total[2], allocMem), bytes(total[3]), pct(total[3], allocMem))
	w.Line(1, "%s\t%s (%d%%)\t%s (%d%%)\n", "ephemeral-storage", "0", 0, "0", 0)
}

func milli(m int64) string {
	if m == 0 {
		return "0"
	}
	return api.FormatMilliCPU(m)
}

func bytes(b int64) string { return api.FormatBytes(b) }
