package kubectl

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnifiedAsGNUDiff compares unified with GNU diff -u (when diff is
// installed) on texts of YAML-like lines, many of them repeated, edited
// (blocks removed, blocks copied in, lines changed), and on random texts
// of few letters: the same output, or, where the two choose different
// lines of equal cost, as many lines removed and added, and a diff that
// gives the new text.
func TestUnifiedAsGNUDiff(t *testing.T) {
	if _, err := exec.LookPath("diff"); err != nil {
		t.Skip("no diff(1) to compare with")
	}
	dir := t.TempDir()
	compare := func(a, b string) bool {
		pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		os.WriteFile(pa, []byte(a), 0o600)
		os.WriteFile(pb, []byte(b), 0o600)
		out, _ := exec.Command("diff", "-u", "-N", "--label", "A", "--label", "B", pa, pb).Output()
		var got strings.Builder
		unified(&got, a, b, "A", "B", "", "")
		want := strings.ReplaceAll(string(out), "--- A\n+++ B\n", "--- A\t\n+++ B\t\n")
		if got.String() == want {
			return true
		}
		if count(got.String(), "\n-") != count(want, "\n-") || count(got.String(), "\n+") != count(want, "\n+") {
			t.Fatalf("a=%q b=%q:\ngot:\n%s\nwant:\n%s", a, b, got.String(), want)
		}
		if patched := patch(a, got.String()); patched != b {
			t.Fatalf("a=%q b=%q: the diff gives %q:\n%s", a, b, patched, got.String())
		}
		return false
	}
	r := rand.New(rand.NewSource(2))
	pool := []string{"      - image: nginx\n", "        imagePullPolicy: Always\n", "        name: a\n", "        name: b\n",
		"        resources: {}\n", "        ports:\n", "        - containerPort: 80\n", "          protocol: TCP\n",
		"  labels:\n", "    app: web\n", "status: {}\n", "  replicas: 2\n"}
	same := 0
	for i := 0; i < 500; i++ {
		var a []string
		for k := 10 + r.Intn(30); k > 0; k-- {
			a = append(a, pool[r.Intn(len(pool))])
		}
		b := append([]string(nil), a...)
		for e := 1 + r.Intn(3); e > 0; e-- {
			at := r.Intn(len(b))
			switch r.Intn(3) {
			case 0:
				end := min(len(b), at+1+r.Intn(4))
				b = append(b[:at:at], b[end:]...)
			case 1:
				from := r.Intn(len(a))
				block := a[from:min(len(a), from+1+r.Intn(4))]
				b = append(b[:at:at], append(append([]string(nil), block...), b[at:]...)...)
			default:
				b[at] = "        image: changed\n"
			}
		}
		if compare(strings.Join(a, ""), strings.Join(b, "")) {
			same++
		}
	}
	t.Logf("YAML-like: %d of 500 the same as diff -u", same)
	if same < 480 { // 493 when written
		t.Errorf("YAML-like: only %d of 500 the same as diff -u", same)
	}
	text := func() string {
		var b strings.Builder
		for n := r.Intn(30); n > 0; n-- {
			b.WriteString(string(rune('a'+r.Intn(12))) + "\n")
		}
		return b.String()
	}
	same = 0
	for i := 0; i < 300; i++ {
		if compare(text(), text()) {
			same++
		}
	}
	t.Logf("random: %d of 300 the same as diff -u", same)
	if same < 200 { // 230 when written: GNU diff breaks ties its own way
		t.Errorf("random: only %d of 300 the same as diff -u", same)
	}
}

func count(s, sub string) int { return strings.Count(s, sub) }

// patch applies a unified diff (from unified) to a.
func patch(a, d string) string {
	x := lines(a)
	var out []string
	i := 0
	for _, l := range lines(d)[2:] {
		switch l[0] {
		case '@':
			var start int
			if f := strings.Fields(l)[1]; true {
				n, _, _ := strings.Cut(f[1:], ",")
				start = atoi(n)
				if strings.HasSuffix(f, ",0") {
					start++
				}
			}
			for i < start-1 {
				out = append(out, x[i])
				i++
			}
		case ' ':
			out = append(out, x[i])
			i++
		case '-':
			i++
		case '+':
			out = append(out, l[1:])
		}
	}
	out = append(out, x[i:]...)
	return strings.Join(out, "")
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func TestUnifiedEmptySide(t *testing.T) {
	var b strings.Builder
	unified(&b, "", "a\nb\n", "L", "M", "t0", "t1")
	if want := "--- L\tt0\n+++ M\tt1\n@@ -0,0 +1,2 @@\n+a\n+b\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	unified(&b, "a\n", "a\n", "L", "M", "t0", "t1")
	if b.Len() != 0 {
		t.Errorf("the same text: got %q", b.String())
	}
}
