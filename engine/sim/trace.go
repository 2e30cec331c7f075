package sim

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/limits"
	"reconcile/engine/validation"
)

// The trace: what a run did, in order, and its digest. Passes, outputs,
// events and side effects go into a hash chain as they happen; the digest
// hashes the chain with the stored objects, the outputs and the faults, so
// two runs with the same Config and inputs have the same digest, natively
// and in the browser.

// Output is what a kubectl or apply input printed, and its exit code.
type Output struct {
	At      api.Time `json:"-"`
	AtText  string   `json:"at"`
	Command string   `json:"command"`
	Output  string   `json:"output"`
	// ExitCode is the command's exit code; -1 while it is still running
	// (a watching command such as rollout status).
	ExitCode int `json:"exitCode"`
	// Ended is when a watching command ended, if it ran for a while.
	Ended string `json:"ended,omitempty"`
	// Invalid are the API server's Invalid refusals of an apply's (or a
	// diff's) objects, each with the object's place in the applied text
	// (0 the first), for an editor to point at the fields. Not part of
	// the trace.
	Invalid []Invalid `json:"-"`
	// Refused are the places in an apply's (or a diff's) text (0 the
	// first) of the objects the API server refused, for whatever reason. Not part of
	// the trace.
	Refused []int `json:"-"`
	// Limit is kubectl's refusal of a workload larger than the playground
	// simulates, when the command ended with it. Not part of the trace.
	Limit *kubectl.LimitError `json:"-"`
}

// Act is what a kubectl command still running wrote on its own clock, an
// API call of kubectl's between passes (a drain's eviction tried again
// 5s after a refusal, and accepted): after which pass and when, the
// command (started at Started) and what it printed then. The trace
// chains it, as it chains an output.
type Act struct {
	After   int      `json:"after"`
	At      api.Time `json:"-"`
	AtText  string   `json:"at"`
	Command string   `json:"command"`
	Started string   `json:"started"`
	Output  string   `json:"output"`
}

// Invalid is the API server's refusal of the Object-th object of an
// apply, with its causes.
type Invalid struct {
	Object int
	Err    *validation.Error
}

// SideEffect is something a pod did outside the cluster: a database
// migration, a message sent. The cluster has no record of it and no
// rollback undoes it.
type SideEffect struct {
	At     api.Time `json:"-"`
	AtText string   `json:"at"`
	Pod    string   `json:"pod"`
	What   string   `json:"what"`
}

func (w *world) record(o Output) {
	w.drain() // what the command wrote, first
	if w.printed += len(o.Output); w.printed > limits.MaxRunOutput {
		o.Output, o.ExitCode = limits.RunOutputMessage(), 1
	}
	w.outputs = append(w.outputs, o)
	w.hash(o)
}

// note notes n, made now.
func (w *world) note(n Note) {
	n.At = w.now
	w.notes = append(w.notes, n)
}

// hash chains v's JSON: the chain becomes the SHA-256 of the chain and it.
func (w *world) hash(v any) {
	b, _ := json.Marshal(v)
	var stack [1024]byte
	w.chain = sha256.Sum256(append(append(stack[:0], w.chain[:]...), b...))
}

// hashPass chains the pass's record as hash does, the same bytes written
// without reflection or garbage: a pass is the chain's most frequent link.
func (w *world) hashPass(p *Pass) {
	var stack [1024]byte
	r := p.record()
	w.chain = sha256.Sum256(appendPassRecord(append(stack[:0], w.chain[:]...), &r))
}

// objectSummer hashes stored object versions: the SHA-256 of each one's
// JSON, as json.Marshal writes it. The store remembers the sum per
// version, in every world that shares the version. The JSON is written
// into one buffer, reused, rather than a new slice an object: a digest of
// the 10,000-pod world marshals every pod, 31 MB of garbage otherwise.
type objectSummer struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newObjectSummer() *objectSummer {
	s := &objectSummer{}
	s.enc = json.NewEncoder(&s.buf) // HTML escaped, as json.Marshal
	return s
}

func (s *objectSummer) sum(_ string, o api.Object) [32]byte {
	s.buf.Reset()
	if err := s.enc.Encode(o); err != nil {
		return sha256.Sum256(nil) // as json.Marshal's nil on an error
	}
	b := s.buf.Bytes()
	return sha256.Sum256(b[:len(b)-1]) // without the newline Encode ends with
}

// digest hashes the trace chain, every stored object but leases and events
// (per kind, through the store's remembered hashes, so it costs what
// changed since the last digest), the outputs and the faults.
func (w *world) digest() string {
	h := sha256.New()
	h.Write(w.chain[:])
	objs := newObjectSummer()
	for _, kind := range w.store.Kinds() {
		if kind == "Lease" || kind == "Event" {
			continue // leases carry heartbeats only; events are in the chain
		}
		sum := w.store.Hash(kind, objs.sum)
		h.Write([]byte(kind))
		h.Write(sum[:])
	}
	b, _ := json.Marshal(w.outputs)
	h.Write(b)
	for i, n := range w.notes {
		if i > 0 {
			h.Write([]byte("\n"))
		}
		h.Write([]byte(n.String()))
	}
	return fmt.Sprintf("sha256:%x", h.Sum(nil))
}
