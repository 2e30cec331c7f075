package api

import "reflect"

// A pod's rare fields (PodSpecMore, ContainerMore) are kept out of line: a
// pointer, nil for the common pod, so that a pod (and each version of it
// that the store, its checkpoints and the informer caches keep) carries
// them only when it has them. Reading one through the embedded pointer of
// a pod without them would panic: read them through More, which returns
// them by value (empty when there are none), and write them through
// SetMore. Invariant: the pointer is nil or points at a non-empty set
// once the API server's defaults are applied (NormalizeRare).

// More returns a copy of the spec's rare fields (empty when it has none).
// Its slices, maps and pointers are the spec's own.
func (s *PodSpec) More() PodSpecMore {
	if s.PodSpecMore == nil {
		return PodSpecMore{}
	}
	return *s.PodSpecMore
}

// SetMore returns the spec's rare fields for writing, making them when it
// has none.
func (s *PodSpec) SetMore() *PodSpecMore {
	if s.PodSpecMore == nil {
		s.PodSpecMore = &PodSpecMore{}
	}
	return s.PodSpecMore
}

// More returns a copy of the container's rare fields (empty when it has
// none). Its slices, maps and pointers are the container's own.
func (c *Container) More() ContainerMore {
	if c.ContainerMore == nil {
		return ContainerMore{}
	}
	return *c.ContainerMore
}

// SetMore returns the container's rare fields for writing, making them
// when it has none.
func (c *Container) SetMore() *ContainerMore {
	if c.ContainerMore == nil {
		c.ContainerMore = &ContainerMore{}
	}
	return c.ContainerMore
}

// NormalizeRare drops rare-field sets that hold nothing (a decoder makes
// one for `dnsPolicy: ""`), in the spec and its containers, so that two
// specs that say the same compare equal.
func (s *PodSpec) NormalizeRare() {
	for i := range s.Containers {
		s.Containers[i].normalizeRare()
	}
	if s.PodSpecMore == nil {
		return
	}
	for i := range s.PodSpecMore.InitContainers {
		s.PodSpecMore.InitContainers[i].normalizeRare()
	}
	if reflect.ValueOf(s.PodSpecMore).Elem().IsZero() {
		s.PodSpecMore = nil
	}
}

func (c *Container) normalizeRare() {
	if c.ContainerMore != nil && reflect.ValueOf(c.ContainerMore).Elem().IsZero() {
		c.ContainerMore = nil
	}
}

func (m *PodSpecMore) deepCopy() *PodSpecMore {
	if m == nil {
		return nil
	}
	c := m.DeepCopy()
	return &c
}

func (m *ContainerMore) deepCopy() *ContainerMore {
	if m == nil {
		return nil
	}
	c := m.DeepCopy()
	return &c
}
