package yamlpos

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Pos is a place in a file, 1-based.
type Pos struct {
	File string
	Line int
	Col  int
}

// String renders p as file:line:column.
func (p Pos) String() string {
	s := p.File
	if p.Line > 0 {
		s += ":" + strconv.Itoa(p.Line)
		if p.Col > 0 {
			s += ":" + strconv.Itoa(p.Col)
		}
	}
	return s
}

// Error is one problem in a file, at a position.
type Error struct {
	Pos Pos
	Msg string
}

// Error renders e as "file:line:column: message".
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// maxReported is how many problems an ErrorList prints before it sums up.
const maxReported = 20

// ErrorList is every problem found in a file, in file order. A file is read
// whole or not at all: the readers built on this package return an
// ErrorList when anything is wrong.
type ErrorList []*Error

// Error renders one problem per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i == maxReported {
			fmt.Fprintf(&b, "\n... and %d more problems", len(l)-maxReported)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l sorted by position as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return l
}
