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
		{Name: "VERSION", Cell: func(n *api.Node, _ api.Time) string {
			if v := nodeInfo(n).KubeletVersion; v != "" {
				return v
			}
			return "v1.34.0"
		}},
		{Name: "INTERNAL-IP", Wide: true, Cell: func(n *api.Node, _ api.Time) string { return nodeAddress(n, "InternalIP") }},
		{Name: "EXTERNAL-IP", Wide: true, Cell: func(n *api.Node, _ api.Time) string { return nodeAddress(n, "ExternalIP") }},
		{Name: "OS-IMAGE", Wide: true, Cell: func(n *api.Node, _ api.Time) string { return orUnknown(nodeInfo(n).OSImage) }},
		{Name: "KERNEL-VERSION", Wide: true, Cell: func(n *api.Node, _ api.Time) string { return orUnknown(nodeInfo(n).KernelVersion) }},
		{Name: "CONTAINER-RUNTIME", Wide: true, Cell: func(n *api.Node, _ api.Time) string {
			return orUnknown(nodeInfo(n).ContainerRuntimeVersion)
		}},
	},
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
