// Package limits names every bound a learner, a course author or a run can
// meet: the size of a file, how many objects, nodes and replicas it may
// declare, how far a run may go. Each error that enforces one names it and
// its value, so that a refusal reads as a rule of the playground, not as a
// failure.
//
// They guard the engine against hostile or runaway input: a scenario file
// or a share link is input from anywhere.
package limits

import (
	"errors"
	"fmt"
	"strings"

	"reconcile/engine/api"
)

const (
	// MaxFileSize is the largest scenario or manifest file, in bytes.
	MaxFileSize = 1 << 20
	// MaxObjects is the most Kubernetes objects one file may declare, over
	// its manifests block and every apply and git step.
	MaxObjects = 500
	// MaxAliases is the most YAML aliases (*name) one file may use; more is
	// how "billion laughs" files blow up a parser.
	MaxAliases = 100
	// MaxYAMLNodes is the most YAML nodes a file may hold once its aliases
	// are expanded.
	MaxYAMLNodes = 500_000
	// MaxNodes is the most nodes a simulated cluster may have.
	MaxNodes = 2_000
	// MaxReplicas is the most replicas one Deployment or ReplicaSet may ask for.
	MaxReplicas = 10_000
	// MaxSteps is the most steps (and, separately, response steps) a
	// scenario may script, and the most inputs a saved run may hold.
	MaxSteps = 1_000
	// MaxExpects is the most expect blocks a scenario may have.
	MaxExpects = 1_000
	// MaxTime is the latest simulated time a step or an expect may name.
	MaxTime = 24 * api.Hour
	// MaxLine bounds a kubectl command line, in bytes.
	MaxLine = 4096
	// MaxDepth is the deepest nesting of mappings and lists (YAML or JSON)
	// any input may hold, counted with aliases expanded: a Deployment's
	// deepest field sits at about 10 levels, a scenario's at about 20.
	// The bound is checked before anything walks the input recursively.
	// The browser's stack overflows at a few thousand levels of the
	// engine's recursive work (decoding, copying, printing); 100 keeps every
	// walk far from that, on every platform alike.
	MaxDepth = 100
	// MaxParseDepth bounds a YAML text's nesting before the parser reads
	// it (yamlpos's nestingBound: one pass over the bytes, never below the
	// tree's depth): the parser builds its tree recursively, and deeper
	// text is refused before it does, with MaxDepth's message.
	MaxParseDepth = 1000
	// MaxShareBytes is the most a share link carries once inflated.
	MaxShareBytes = 64 << 10
	// MaxStateBytes is the largest saved, imported or shared piece of
	// work: a scenario and a desired state, each up to MaxFileSize.
	MaxStateBytes = 3 * MaxFileSize
	// MaxOutput is the most one kubectl command prints in a run, a step's
	// or a watch's: past it the output is cut at a line's end and ends
	// with OutputMessage, exit code 1 (a watch stops there).
	MaxOutput = 1 << 20
	// MaxRunOutput is the most output a run keeps of all its kubectl
	// commands: past it a command's output is replaced by
	// RunOutputMessage, exit code 1. Outputs are held for the whole run
	// (the page shows them, a check reads them): 1,000 steps of a 1 MiB
	// get -o json would hold a gigabyte.
	MaxRunOutput = 32 << 20
	// MaxPasses is how many passes reconcile run and check play before
	// they stop (--max-passes raises it).
	MaxPasses = 500_000
	// MaxMemory is the heap reconcile run and check may hold before they
	// stop (--max-memory raises it).
	MaxMemory = 2 << 30
)

// DepthMessage refuses an input nested deeper than MaxDepth.
func DepthMessage() string {
	return fmt.Sprintf("nested too deeply: the limit is %d levels of mappings and lists (MaxDepth)", MaxDepth)
}

// OutputMessage ends an output cut at MaxOutput.
func OutputMessage() string {
	return fmt.Sprintf("error: output cut here: the limit is %d MiB per command (MaxOutput)\n", MaxOutput>>20)
}

// RunOutputMessage replaces an output past MaxRunOutput.
func RunOutputMessage() string {
	return fmt.Sprintf("error: output not kept: this run's commands have printed more than %d MiB, the limit (MaxRunOutput)\n", MaxRunOutput>>20)
}

// CutOutput cuts out at the end of the last line that fits MaxOutput with
// OutputMessage after it. It reports whether it cut.
func CutOutput(out string) (string, bool) {
	if len(out) <= MaxOutput {
		return out, false
	}
	end := MaxOutput - len(OutputMessage())
	if i := strings.LastIndexByte(out[:end], '\n'); i >= 0 {
		end = i + 1
	}
	return out[:end] + OutputMessage(), true
}

// JSONDepth returns how deeply the JSON text b nests objects and arrays,
// stopping early once the depth passes MaxDepth (it then returns
// MaxDepth+1). It reads the text once, without recursion, and never fails:
// a malformed text is left to its decoder.
func JSONDepth(b []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > deepest {
				deepest = depth
				if deepest > MaxDepth {
					return deepest
				}
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// CheckJSONDepth refuses a JSON text nested deeper than MaxDepth.
func CheckJSONDepth(b []byte) error {
	if JSONDepth(b) > MaxDepth {
		return errors.New(DepthMessage())
	}
	return nil
}
