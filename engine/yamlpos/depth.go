package yamlpos

import (
	"errors"
	"strings"

	"reconcile/engine/limits"
)

// parseDepth bounds how deeply a text may nest before yaml.v3 is given it.
// yaml.v3 builds its tree by recursive descent, and in WebAssembly every
// level of that descent is a frame on the browser's own stack, which
// overflows ("Maximum call stack size exceeded") at a few thousand levels
// and ends the program. The tree yaml.v3 returns is held to limits.MaxDepth
// (100) afterwards; this bound only keeps the parser from reaching the
// browser's limit first. It is ten times MaxDepth: nestingBound can count
// a real level twice, never zero times.
const parseDepth = limits.MaxParseDepth

// nestingBound reads a YAML text once, without recursion, and returns a
// bound on how deeply its documents nest mappings and sequences, stopping
// at the first line where the bound passes stop (it returns that line, or
// 0). The bound is never below the depth of the tree yaml.v3 builds; it may
// be above it, by at most about twice.
//
// It follows the scanner's rules as far as they decide nesting: block
// collections nest by indentation (a sequence may sit at its parent key's
// column, so a column counts two levels), flow collections by brackets (a
// single pair "[a: b]" inside a flow sequence is a mapping of its own, so
// a bracket counts two levels), and brackets mean nothing inside quoted,
// plain and block scalars and comments. A quote starts a scalar only where
// a node starts (after an indicator, a bracket, a comma or a property),
// never inside a plain scalar, which may go on over the next lines while
// they are more indented than its parent.
func nestingBound(text string, stop int) (bound, line int) {
	var (
		cols  []int // the columns of the block nodes open, increasing
		flow  int   // brackets open
		quote byte  // '"' or '\'' inside a quoted scalar, else 0
		plain bool  // inside a plain scalar
		// parent is the column of the node a plain or block scalar
		// belongs to: its continuation lines are indented past it.
		parent int
		block  bool // inside a block scalar's lines
		// nodeStart: a node may start at the next token; afterJSON: the
		// last token was a quoted scalar or a flow collection, after which
		// ":" is an indicator even without a space.
		nodeStart, afterJSON bool
	)
	push := func(col int) {
		if n := len(cols); n == 0 || cols[n-1] < col {
			cols = append(cols, col)
		}
	}
	measure := func() bool {
		if b := 2*len(cols) + 2*flow + 2; b > bound {
			bound = b
		}
		return bound > stop
	}
	for n, start := 1, 0; start < len(text); n++ {
		end := start
		for end < len(text) && text[end] != '\n' {
			end++
		}
		ln := text[start:end]
		start = end + 1
		indent := 0
		for indent < len(ln) && ln[indent] == ' ' {
			indent++
		}
		blank := indent == len(ln) || ln[indent] == '\r' || ln[indent] == '#' || indent == 0 && ln[0] == '%'
		if indent == 0 && quote == 0 && (marker(ln, '-') || marker(ln, '.')) {
			// A document's start or end: what was open is closed.
			cols, flow, plain, block, afterJSON = cols[:0], 0, false, false, false
			nodeStart = ln[0] == '-'
			indent, blank = 3, false
		}
		if block {
			// A block scalar's lines: blank ones, and those indented
			// past its parent, are text.
			if blank || indent > parent {
				continue
			}
			block = false
		}
		// lineParent is the column a scalar starting this line belongs to:
		// the block node that holds this line's.
		lineParent := -1
		if quote == 0 && flow == 0 && !blank && !(plain && indent > parent) {
			plain = false
			for len(cols) > 0 && cols[len(cols)-1] > indent {
				cols = cols[:len(cols)-1]
			}
			if n := len(cols); n > 0 && cols[n-1] == indent {
				cols = cols[:n-1]
			}
			if n := len(cols); n > 0 {
				lineParent = cols[n-1]
			}
			cols = append(cols, indent)
			nodeStart, afterJSON = true, false
		}
		lastNode := lineParent // the column of the node a scalar starting here would belong to
		for i := indent; i < len(ln); i++ {
			c := ln[i]
			switch quote {
			case '"':
				if c == '\\' {
					i++
				} else if c == '"' {
					quote, afterJSON = 0, true
				}
				continue
			case '\'':
				if c == '\'' {
					if i+1 < len(ln) && ln[i+1] == '\'' {
						i++
					} else {
						quote, afterJSON = 0, true
					}
				}
				continue
			}
			space := c == ' ' || c == '\t' || c == '\r'
			next := byte(' ')
			if i+1 < len(ln) {
				next = ln[i+1]
			}
			nextSpace := next == ' ' || next == '\t' || next == '\r'
			prevSpace := i == 0 || ln[i-1] == ' ' || ln[i-1] == '\t'
			switch {
			case space:
				continue
			case c == '#' && prevSpace:
				i = len(ln) // a comment
				continue
			case plain && flow == 0:
				// A block plain scalar ends only at ": " (a key) or a comment.
				if c == ':' && nextSpace {
					plain, nodeStart = false, true
				}
				continue
			case plain && flow > 0:
				switch {
				case c == ':' && (nextSpace || next == ',' || next == ']' || next == '}'):
					plain, nodeStart = false, true
					continue
				case c == ',':
					plain, nodeStart = false, true
					continue
				case c == '[' || c == '{' || c == ']' || c == '}':
					plain = false // the bracket is read below
				default:
					continue
				}
			}
			switch {
			case c == '[' || c == '{':
				flow++
				nodeStart, afterJSON = true, false
				if measure() {
					return bound, n
				}
				continue
			case c == ']' || c == '}':
				if flow > 0 {
					flow--
				}
				nodeStart, afterJSON = false, true
				continue
			case c == ',' && flow > 0:
				nodeStart, afterJSON = true, false
				continue
			case c == ':' && (nextSpace || afterJSON || flow > 0 && (next == ',' || next == ']' || next == '}')):
				nodeStart, afterJSON = true, false
				continue
			case (c == '-' || c == '?') && nextSpace && flow == 0:
				// A block sequence entry or a complex key: what follows on
				// this line is a node of its own, one column further in.
				if i > indent {
					push(i)
				}
				nodeStart, afterJSON, lastNode = true, false, i
				continue
			}
			if !nodeStart {
				// Inside a token that is not a scalar's start (a
				// property's name, say): text until the next space.
				continue
			}
			if flow == 0 && i > indent {
				push(i)
			}
			nodeStart, afterJSON = false, false
			switch c {
			case '"', '\'':
				quote = c
				lastNode = i
			case '!', '&', '*':
				// A property or an alias: the node, if any, starts after it.
				for i+1 < len(ln) && ln[i+1] != ' ' && ln[i+1] != '\t' && (flow == 0 || !isFlowIndicator(ln[i+1])) {
					i++
				}
				nodeStart = c != '*'
			case '|', '>':
				if flow == 0 {
					// A block scalar: the rest of this line is its header.
					block, parent = true, lastNode
					i = len(ln)
				} else {
					plain, parent, lastNode = true, lastNode, i
				}
			default:
				plain, parent, lastNode = true, lastNode, i
			}
		}
		if measure() {
			return bound, n
		}
	}
	return bound, 0
}

// marker says whether a line is a document marker ("---" or "...") made
// of c.
func marker(ln string, c byte) bool {
	return len(ln) >= 3 && ln[0] == c && ln[1] == c && ln[2] == c && (len(ln) == 3 || ln[3] == ' ' || ln[3] == '\t' || ln[3] == '\r')
}

func isFlowIndicator(c byte) bool { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}' }

// lineOf returns line n (from 1) of text.
func lineOf(text string, n int) string {
	for ; n > 1; n-- {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return ""
		}
		text = text[i+1:]
	}
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	return text
}

// CheckNesting refuses a YAML text that may nest deeper than
// limits.MaxParseDepth, before a parser reads it: for a text that is not
// read through Parse (a kubectl patch's payload).
func CheckNesting(text string) error {
	if _, line := nestingBound(text, parseDepth); line > 0 {
		return errors.New(limits.DepthMessage())
	}
	return nil
}
