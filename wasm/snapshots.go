//go:build !wasm

package main

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	ui "reconcile/app"
	"reconcile/engine/sim"
	"reconcile/scenarios"
	"reconcile/wasm/sitefile"
)

// Snapshots shipped with the site (app/snapshots.go): a lesson whose run
// has at least snapshotFrom passes gets a snapshot of its world every
// snapshotEvery passes, so that a deep link far into it computes at most
// snapshotEvery passes in the tab. The bundled lessons are far shorter:
// they get none, and the site does not grow.
//
// Every 1,250 passes: a deep link's tab computes the passes after the
// snapshot it reads at about 2,500 a second (scale-10000, 10,000 pods, in
// code V8 has not optimised yet; 20,000 natively), so one between two
// computes half a second at most after the read; every 5,000 it was two
// seconds, too much for 3 s. Only a
// lesson of 10,000 passes or more gets any (the bundled lessons get none);
// the bench's scale site gets 28 (about 75 MB; each deep link downloads
// one, at most 4.5 MB).
var (
	snapshotFrom  = 10000
	snapshotEvery = 1250
	// snapshotMax caps the passes a run is computed to when the site is
	// built.
	snapshotMax = 200000
)

// snapshotLessons are the lessons the site being built ships snapshots
// for: its pages say so (snapshotHeader), and ask for no others.
var snapshotLessons []string

// writeSnapshots writes the snapshots of every bundled lesson long enough
// to have some under dir/snapshots/<id>/, with their index.json, and
// returns the lessons it wrote some for.
func writeSnapshots(dir string) ([]string, error) {
	if err := os.RemoveAll(filepath.Join(dir, "snapshots")); err != nil {
		return nil, err
	}
	var ids []string
	for _, id := range scenarios.IDs() {
		if err := writeLessonSnapshots(dir, id); err != nil {
			return nil, fmt.Errorf("snapshots of %s: %w", id, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "snapshots", id, "index.json")); err == nil {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

func writeLessonSnapshots(dir, id string) error {
	sc, err := scenarios.Load(id)
	if err != nil {
		return err
	}
	run, err := sim.New(sc.Config())
	if err != nil {
		return err
	}
	run.DropCheckpoints() // one pass after the other: no seek
	label := ui.SnapshotLabel(id)
	var snaps [][]byte
	for run.PassCount() < snapshotMax {
		if _, ok := run.Next(); !ok {
			break
		}
		if run.PassCount()%snapshotEvery == 0 {
			// The digest first: the world remembers it and the hashes of
			// its parts, and the snapshot carries them, so the tab shows
			// the digest of the pass it reads without hashing 10,000 pods
			// (half a second in a tab) and the next passes' digests hash
			// what changed (16% more bytes gzipped).
			run.Digest()
			b, err := run.Snapshot(label)
			if err != nil {
				return err
			}
			snaps = append(snaps, b)
		}
	}
	if run.PassCount() < snapshotFrom || len(snaps) == 0 {
		return nil
	}
	out := filepath.Join(dir, "snapshots", id)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	index := ui.SnapshotIndex{Label: label}
	for i, b := range snaps {
		n := (i + 1) * snapshotEvery
		err := sitefile.WriteAtomically(filepath.Join(out, strconv.Itoa(n)+".snap"), func(w io.Writer) error {
			z, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
			if err != nil {
				return err
			}
			if _, err := z.Write(b); err != nil {
				return err
			}
			return z.Close()
		})
		if err != nil {
			return err
		}
		index.Passes = append(index.Passes, n)
	}
	j, err := json.Marshal(index)
	if err != nil {
		return err
	}
	return sitefile.WriteAtomically(filepath.Join(out, "index.json"), func(w io.Writer) error {
		_, err := w.Write(append(j, '\n'))
		return err
	})
}
