package app

import (
	"errors"
	"testing"

	"github.com/hack-pad/hackpadfs"
	"github.com/hack-pad/hackpadfs/mem"
)

// An open that fails (IndexedDB slow to answer) is not kept for the whole
// page load: the next call tries again, and the store it opens is kept.
func TestStorageOpenRetriedAfterAFailure(t *testing.T) {
	saved, savedOpen := OpenStorage, storageOpen
	defer func() { OpenStorage, storageOpen = saved, savedOpen }()
	storageOpen = nil
	calls := 0
	OpenStorage = func() (hackpadfs.FS, error) {
		calls++
		if calls == 1 {
			return nil, errors.New("IndexedDB did not answer within 10s")
		}
		return mem.NewFS()
	}
	if _, err := storage(); err == nil {
		t.Fatal("first open: no error, want the failure")
	}
	first, err := storage()
	if err != nil {
		t.Fatalf("second open: %v", err)
	}
	again, err := storage()
	if err != nil || again != first || calls != 2 {
		t.Fatalf("third call: store %p (want %p), err %v, opens %d (want 2)", again, first, err, calls)
	}
}
