package kubectl

import (
	"fmt"
	"strings"
)

// unified writes the differences between the lines of a and b as
// `diff -u` (GNU diffutils) prints them for two files: the --- and +++
// lines (each name, a tab, its time), then hunks of 3 lines of context,
// changes less than 7 lines apart in one hunk, each headed
// "@@ -start,count +start,count @@" (",1" left out; an empty side
// counted from the line before it, as "-0,0"). In a change, the lines
// removed come before the lines added. It writes nothing when a and b are
// the same. a and b end in a newline or are empty.
func unified(b *strings.Builder, a, bText, nameA, nameB, timeA, timeB string) {
	if a == bText {
		return
	}
	x, y := lines(a), lines(bText)
	ops := editScript(x, y)
	fmt.Fprintf(b, "--- %s\t%s\n+++ %s\t%s\n", nameA, timeA, nameB, timeB)
	const context = 3
	// Find the runs of changes, then group them into hunks.
	i := 0
	for i < len(ops) {
		if ops[i] == '=' {
			i++
			continue
		}
		start := max(i-context, 0)
		end := i
		for j := i; j < len(ops); {
			if ops[j] != '=' {
				end = j + 1
				j++
				continue
			}
			k := j
			for k < len(ops) && ops[k] == '=' {
				k++
			}
			if k == len(ops) || k-j > 2*context {
				break
			}
			j = k
		}
		stop := min(end+context, len(ops))
		writeHunk(b, x, y, ops, start, stop)
		i = stop
	}
}

// writeHunk writes ops[start:stop] as one hunk.
func writeHunk(b *strings.Builder, x, y []string, ops []byte, start, stop int) {
	// Where the hunk starts on each side: the lines of ops before it.
	ax, ay := 0, 0
	for _, op := range ops[:start] {
		if op != '+' {
			ax++
		}
		if op != '-' {
			ay++
		}
	}
	nx, ny := 0, 0
	for _, op := range ops[start:stop] {
		if op != '+' {
			nx++
		}
		if op != '-' {
			ny++
		}
	}
	fmt.Fprintf(b, "@@ -%s +%s @@\n", hunkRange(ax, nx), hunkRange(ay, ny))
	i, j := ax, ay
	for k := start; k < stop; {
		if ops[k] == '=' {
			b.WriteString(" " + x[i])
			i, j, k = i+1, j+1, k+1
			continue
		}
		// One change: its removed lines, then its added lines.
		e := k
		for e < stop && ops[e] != '=' {
			e++
		}
		for _, op := range ops[k:e] {
			if op == '-' {
				b.WriteString("-" + x[i])
				i++
			}
		}
		for _, op := range ops[k:e] {
			if op == '+' {
				b.WriteString("+" + y[j])
				j++
			}
		}
		k = e
	}
}

func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// lines splits s after each newline, keeping it.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

// editScript returns a shortest edit script from x to y, one byte a
// line: '=' kept, '-' removed from x, '+' added from y (Myers' greedy
// algorithm, after the common first and last lines are set aside, its
// runs of changes then moved as GNU diff moves them).
func editScript(x, y []string) []byte {
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	mid := myers(x[pre:len(x)-suf], y[pre:len(y)-suf])
	out := make([]byte, 0, pre+len(mid)+suf)
	out = append(out, strings.Repeat("=", pre)...)
	out = append(out, mid...)
	out = append(out, strings.Repeat("=", suf)...)
	return shiftBoundaries(out, x, y)
}

// shiftBoundaries moves each run of lines changed in one file as GNU diff
// does (analyze.c, shift_boundaries): back while the line before it equals
// its last line, merging with the changes before; then forward while its
// first line equals the line after it, merging with the changes after, or
// as far as it goes; then back to where it lines up with a change in the
// other file, if it can. Which lines are changed in each file is what the
// edit script says; the script is built again from them.
func shiftBoundaries(ops []byte, x, y []string) []byte {
	// changed[f][i+1] is whether line i of file f changed; [0] and
	// [len+1] are the zeros GNU diff keeps either side.
	cx, cy := make([]bool, len(x)+2), make([]bool, len(y)+2)
	i, j := 0, 0
	for _, op := range ops {
		switch op {
		case '-':
			cx[i+1] = true
			i++
		case '+':
			cy[j+1] = true
			j++
		default:
			i, j = i+1, j+1
		}
	}
	shift(cx, cy, x)
	shift(cy, cx, y)
	out := make([]byte, 0, len(ops))
	i, j = 1, 1
	for i <= len(x) || j <= len(y) {
		for ; cx[i]; i++ {
			out = append(out, '-')
		}
		for ; cy[j]; j++ {
			out = append(out, '+')
		}
		if i <= len(x) && j <= len(y) {
			out = append(out, '=')
		}
		i, j = i+1, j+1
	}
	return out
}

// shift is shift_boundaries for one file: changed and other are offset by
// one, as shiftBoundaries makes them; lines the file's lines.
func shift(changed, other []bool, lines []string) {
	eq := func(a, b int) bool { return lines[a-1] == lines[b-1] }
	end := len(changed) - 1 // one past the last line
	i, j := 1, 1
	for {
		for i < end && !changed[i] {
			for other[j] {
				j++
			}
			j++
			i++
		}
		if i == end {
			return
		}
		start := i
		for i++; changed[i]; i++ {
		}
		for other[j] {
			j++
		}
		var corresponding int
		for {
			runlength := i - start
			for start > 1 && eq(start-1, i-1) {
				start--
				changed[start] = true
				i--
				changed[i] = false
				for changed[start-1] {
					start--
				}
				for j--; other[j]; j-- {
				}
			}
			corresponding = end
			if other[j-1] {
				corresponding = i
			}
			for i != end && eq(start, i) {
				changed[start] = false
				start++
				changed[i] = true
				i++
				for changed[i] {
					i++
				}
				for j++; other[j]; j++ {
					corresponding = i
				}
			}
			if runlength == i-start {
				break
			}
		}
		for corresponding < i {
			start--
			changed[start] = true
			i--
			changed[i] = false
			for j--; other[j]; j-- {
			}
		}
	}
}

// myers is Myers' O(ND) diff, keeping each round's frontier to walk the
// path back.
func myers(x, y []string) []byte {
	n, m := len(x), len(y)
	if n == 0 || m == 0 {
		return []byte(strings.Repeat("-", n) + strings.Repeat("+", m))
	}
	offset := n + m
	v := make([]int, 2*offset+2)
	var trace [][]int
	for d := 0; d <= n+m; d++ {
		trace = append(trace, append([]int(nil), v[offset-d:offset+d+2]...))
		for k := -d; k <= d; k += 2 {
			var i int
			if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
				i = v[offset+k+1] // down: a line added
			} else {
				i = v[offset+k-1] + 1 // right: a line removed
			}
			j := i - k
			for i < n && j < m && x[i] == y[j] {
				i, j = i+1, j+1
			}
			v[offset+k] = i
			if i >= n && j >= m {
				return backtrack(trace, x, y, d, k)
			}
		}
	}
	return nil // not reached: d = n+m always ends
}

// backtrack walks the frontiers of myers from (n, m), on diagonal k after
// round d, back to (0, 0).
func backtrack(trace [][]int, x, y []string, d, k int) []byte {
	var rev []byte
	i, j := len(x), len(y)
	for ; d > 0; d-- {
		t := trace[d]      // the frontier before round d: diagonal k at t[k+d]
		pk, from := k-1, 1 // right: x[i] removed
		if k == -d || (k != d && t[k-1+d] < t[k+1+d]) {
			pk, from = k+1, 0 // down: y[j] added
		}
		start := t[pk+d] + from // where the snake after the edit starts
		for i > start {
			rev = append(rev, '=')
			i, j = i-1, j-1
		}
		if from == 0 {
			rev = append(rev, '+')
			j--
		} else {
			rev = append(rev, '-')
			i--
		}
		k = pk
	}
	for ; i > 0; i-- {
		rev = append(rev, '=')
	}
	for l, r := 0, len(rev)-1; l < r; l, r = l+1, r-1 {
		rev[l], rev[r] = rev[r], rev[l]
	}
	return rev
}
