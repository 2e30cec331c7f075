package api

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// imageRefGrammar is the reference grammar as a regular expression, the
// oracle matchImageRef is held to: its first group is the name.
var imageRefGrammar = func() *regexp.Regexp {
	domainPart := `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
	domain := domainPart + `(?:\.` + domainPart + `)*(?::[0-9]+)?`
	pathPart := `[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*`
	name := `(?:` + domain + `/)?` + pathPart + `(?:/` + pathPart + `)*`
	tag := `[\w][\w.-]{0,127}`
	digest := `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}`
	return regexp.MustCompile(`^(` + name + `)(?::` + tag + `)?(?:@` + digest + `)?$`)
}()

var hex64Grammar = regexp.MustCompile(`^[a-f0-9]{64}$`)

// checkImageRef compares the hand-written matchers with the regular
// expressions on s; it reports whether s is a reference.
func checkImageRef(t *testing.T, s string) bool {
	t.Helper()
	m := imageRefGrammar.FindStringSubmatch(s)
	name, ok := matchImageRef(s)
	if ok != (m != nil) || ok && name != m[1] {
		want := "no match"
		if m != nil {
			want = "name " + m[1]
		}
		t.Errorf("matchImageRef(%q) = %q, %v; the regexp says %s", s, name, ok, want)
	}
	if got, want := isHex64(s), hex64Grammar.MatchString(s); got != want {
		t.Errorf("isHex64(%q) = %v, the regexp says %v", s, got, want)
	}
	if got, want := imageRefProblem(s), imageRefProblemByRegexp(s); got != want {
		t.Errorf("imageRefProblem(%q) = %q, with the regexps %q", s, got, want)
	}
	return m != nil
}

// imageRefProblemByRegexp is imageRefProblem as it was written with the
// regular expressions.
func imageRefProblemByRegexp(s string) string {
	if hex64Grammar.MatchString(s) {
		return fmt.Sprintf("invalid repository name (%s), cannot specify 64-byte hexadecimal strings", s)
	}
	remainder := s
	if i := strings.IndexRune(s, '/'); i == -1 || (!strings.ContainsAny(s[:i], ".:") && s[:i] != "localhost" && strings.ToLower(s[:i]) == s[:i]) {
		if !strings.ContainsRune(remainder, '/') {
			remainder = "library/" + remainder
		}
	} else {
		remainder = s[i+1:]
	}
	remote := remainder
	if i := strings.IndexRune(remainder, ':'); i > -1 {
		remote = remainder[:i]
	}
	if strings.ToLower(remote) != remote {
		return fmt.Sprintf("invalid reference format: repository name (%s) must be lowercase", remote)
	}
	m := imageRefGrammar.FindStringSubmatch(s)
	if m == nil {
		return "invalid reference format"
	}
	if len(m[1]) > 255 {
		return "repository name must not be more than 255 characters"
	}
	return ""
}

// TestImageRefMatcherIsItsRegexp: every string of up to five bytes over
// an alphabet of each class the grammar tells apart, then random strings
// made of the grammar's pieces (so that many match, some with digests and
// long names), then the same with one byte changed.
func TestImageRefMatcherIsItsRegexp(t *testing.T) {
	alphabet := []byte("aA0_-.:/@+ é")
	matched, total := 0, 0
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		total++
		if checkImageRef(t, prefix) {
			matched++
		}
		if n == 0 || t.Failed() {
			return
		}
		for _, c := range alphabet {
			grow(prefix+string(c), n-1)
		}
	}
	grow("", 5)
	pieces := []string{"a", "b9", "z", "Q", "7", "-", "--", "_", "__", "___", ".", ":", "/", "/", "/", "@", "+",
		"localhost", "5000", "registry.example", "x-y", "-x", "x-", "latest", "1.0", "v1_2-3",
		"sha256", "sha256:", "sha-256+x.y", "@sha256:", "@sha+x.y_z-w:", "@a9+b:", "@9a:", "@a-:", "0123456789abcdef0123456789abcdef", "0123456789ABCDEF0123456789abcdefa",
		"0123456789abcdef0123456789abcde", strings.Repeat("a", 64), strings.Repeat("f0", 32), strings.Repeat("x", 127), strings.Repeat("y/", 70)}
	r := rand.New(rand.NewPCG(3, 4))
	for range 60000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		total++
		if checkImageRef(t, s) {
			matched++
		}
		if len(s) > 0 {
			bs := []byte(s)
			bs[r.IntN(len(bs))] = alphabet[r.IntN(len(alphabet)-1)]
			total++
			if checkImageRef(t, string(bs)) {
				matched++
			}
		}
		if t.Failed() {
			break
		}
	}
	if matched < 1000 || matched > total-1000 {
		t.Errorf("%d of %d strings are references: the test tells too little", matched, total)
	}
	t.Logf("%d of %d strings are references", matched, total)
}

// FuzzImageRef holds the matcher to its regexp on any string.
func FuzzImageRef(f *testing.F) {
	for _, s := range []string{"nginx", "registry.example:5000/team/app:1.0@sha256:0123456789abcdef0123456789abcdef", "a__b/c--d", "Nginx:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkImageRef(t, s) })
}
