package api

// Copies of a pod for its status writes: the kubelet and the scheduler
// change a pod's status, not its spec, so its spec need not be copied.

// DeepCopy returns an independent copy of s.
func (s PodStatus) DeepCopy() PodStatus {
	out := s
	out.Conditions = append([]PodCondition(nil), s.Conditions...)
	if s.HostIPs != nil {
		out.HostIPs = append([]HostIP(nil), s.HostIPs...)
	}
	if s.PodIPs != nil {
		out.PodIPs = append([]PodIP(nil), s.PodIPs...)
	}
	out.StartTime = copyPtr(s.StartTime)
	out.ContainerStatuses = deepCopyContainerStatuses(s.ContainerStatuses)
	out.InitContainerStatuses = deepCopyContainerStatuses(s.InitContainerStatuses)
	return out
}

// WithStatus returns a new pod with p's metadata and spec, shared with p
// (neither may be changed through it), and status st: what a status write
// sends, which the store copies.
func (p *Pod) WithStatus(st PodStatus) *Pod {
	out := *p
	out.Status = st
	return &out
}
