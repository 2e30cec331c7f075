package store

// The objectEvents of an object come with their folds and similar in one
// allocation: a copy is made at every event recorded about the object
// and kept by the checkpoints that see it, so this makes one object for
// the collector where there were three. The arrays step so that little
// is allocated unused; an object with more goes back to three.
type (
	objectEvents1 struct {
		o objectEvents
		f [1]fold
		s [1]similarEvents
	}
	objectEvents2 struct {
		o objectEvents
		f [2]fold
		s [2]similarEvents
	}
	objectEvents3 struct {
		o objectEvents
		f [3]fold
		s [3]similarEvents
	}
	objectEvents4 struct {
		o objectEvents
		f [4]fold
		s [4]similarEvents
	}
	objectEvents6 struct {
		o objectEvents
		f [6]fold
		s [6]similarEvents
	}
	objectEvents8 struct {
		o objectEvents
		f [8]fold
		s [8]similarEvents
	}
)

// withRoom returns an empty objectEvents, owned, with room for folds+1
// folds and similar+1 similar, or nil when they need more than the
// largest array here.
func withRoom(folds, similar int) *objectEvents {
	n := max(folds, similar) + 1
	switch {
	case n <= 1:
		b := new(objectEvents1)
		b.o.folds, b.o.similar, b.o.owned = b.f[:0], b.s[:0], true
		return &b.o
	case n <= 2:
		b := new(objectEvents2)
		b.o.folds, b.o.similar, b.o.owned = b.f[:0], b.s[:0], true
		return &b.o
	case n <= 3:
		b := new(objectEvents3)
		b.o.folds, b.o.similar, b.o.owned = b.f[:0], b.s[:0], true
		return &b.o
	case n <= 4:
		b := new(objectEvents4)
		b.o.folds, b.o.similar, b.o.owned = b.f[:0], b.s[:0], true
		return &b.o
	case n <= 6:
		b := new(objectEvents6)
		b.o.folds, b.o.similar, b.o.owned = b.f[:0], b.s[:0], true
		return &b.o
	case n <= 8:
		b := new(objectEvents8)
		b.o.folds, b.o.similar, b.o.owned = b.f[:0], b.s[:0], true
		return &b.o
	}
	return nil
}
