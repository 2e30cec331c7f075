package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"reconcile/engine/challenge"
	"reconcile/engine/limits"
	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// verifyCommand replays a completion record (challenge.Record) against
// its scenario, bundled (by the record's id) or given with --scenario, and
// says whether it solves the challenge: exit 0 when it does, 1 when it
// does not or was changed, 2 when it cannot be read.
func verifyCommand(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("verify", flag.ContinueOnError)
	flags.SetOutput(stderr)
	file := flags.String("scenario", "", "the scenario FILE the record was made against (default: the bundled lesson the record names)")
	records, err := parseInterspersed(flags, args)
	if err != nil {
		return exitBadInput
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reconcile verify: "+format+"\n", a...)
		return exitBadInput
	}
	if len(records) != 1 {
		return bad("want exactly one RECORD, got %d\n%s", len(records), usage)
	}
	path := records[0]
	data, err := readLimited(path)
	if err != nil {
		return bad("%v", err)
	}
	rec, err := challenge.ParseRecord(data)
	if err != nil {
		return bad("%s: %v", path, err)
	}
	var sc *scenario.Scenario
	var text []byte
	if *file != "" {
		if text, err = readLimited(*file); err != nil {
			return bad("%v", err)
		}
		var ok bool
		if sc, ok = load(*file, stderr); !ok {
			return exitBadInput
		}
	} else {
		name, bundled, ok := scenarios.File(rec.Scenario)
		if !ok {
			return bad("%s: no bundled lesson %q: give the scenario it was made against with --scenario FILE", path, rec.Scenario)
		}
		text = bundled
		if sc, err = scenario.Load(name, bundled); err != nil {
			return bad("%v", err)
		}
	}
	if sc.Challenge == nil {
		return bad("%s: the scenario %s has no challenge", path, sc.ID)
	}
	v, err := challenge.Verify(sc, text, rec)
	if err != nil {
		return bad("%s: %v", path, err)
	}
	if v.Solved {
		fmt.Fprintf(stdout, "solved  %s  (%s: %s)\n", path, sc.ID, v.Why)
		return exitOK
	}
	fmt.Fprintf(stdout, "NOT SOLVED  %s  (%s): %s\n", path, sc.ID, v.Why)
	return exitFailed
}

// readLimited reads a file of at most limits.MaxFileSize bytes.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limits.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(data) > limits.MaxFileSize {
		return nil, fmt.Errorf("%s: larger than %d bytes (MaxFileSize)", path, limits.MaxFileSize)
	}
	return data, nil
}
