package api

// The pod fields the kubelet reads besides images and probes: volumes,
// ConfigMap and Secret references, lifecycle hooks.

// SleepAction pauses for Seconds.
type SleepAction struct {
	Seconds int64 `json:"seconds" yaml:"seconds"`
}

// IsOptional reads an optional flag (nil is false).
func IsOptional(b *bool) bool { return b != nil && *b }

func copyBoolPtr(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}

// deepCopyContainerStatuses copies a list of container statuses.
func deepCopyContainerStatuses(in []ContainerStatus) []ContainerStatus {
	if in == nil {
		return nil
	}
	out := make([]ContainerStatus, len(in))
	for i, cs := range in {
		cs.State = cs.State.DeepCopy()
		cs.LastState = cs.LastState.DeepCopy()
		if cs.Started != nil {
			v := *cs.Started
			cs.Started = &v
		}
		out[i] = cs
	}
	return out
}
