package registry

import (
	"crypto/sha256"
	"fmt"
	"reflect"
	"testing"
)

func TestDigestOf(t *testing.T) {
	for _, s := range []string{"", "nginx:1.27", "docker.io/library/nginx:1.27", "shop/web:1.0+push", "日本"} {
		if got, want := DigestOf(s), fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(s))); got != want {
			t.Errorf("DigestOf(%q) = %s, want %s", s, got, want)
		}
	}
	if got := DigestOf("nginx:1.27"); len(got) != 71 || got[:7] != "sha256:" {
		t.Errorf("DigestOf(nginx:1.27) = %q, want sha256: and 64 hex digits", got)
	}
}

func BenchmarkDigestOf(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		DigestOf("docker.io/library/nginx:1.27")
	}
}

// An unlisted reference is looked up from a memo after its first lookup:
// the memo gives what Default gives, and a push or a probe fault on the
// tag still shows at the next lookup (of the tag and of its short name).
func TestImageMemoFollowsChanges(t *testing.T) {
	r := New(nil)
	for _, ref := range []string{"shop/web:1.0", "shop/web", "shop/web:latest"} {
		for i := 0; i < 2; i++ {
			if got, want := r.Image(ref), Default(ref); !reflect.DeepEqual(got, want) {
				t.Fatalf("lookup %d of %s = %+v, want Default's %+v", i, ref, got, want)
			}
		}
	}
	before := r.Image("shop/web").Digest
	r.Push("shop/web", "")
	if got, want := r.Image("shop/web").Digest, DigestOf(before+"+push"); got != want {
		t.Fatalf("after a push, shop/web has digest %s, want %s", got, want)
	}
	if got := r.Image("shop/web:latest").Digest; got != DigestOf(before+"+push") {
		t.Fatalf("after a push of shop/web, shop/web:latest has digest %s", got)
	}
	c := r.Clone()
	r.SetProbe("shop/web:1.0", "readiness", false)
	if r.Image("shop/web:1.0").Ready {
		t.Fatal("after a readiness fault, shop/web:1.0 is still ready")
	}
	if !c.Image("shop/web:1.0").Ready {
		t.Fatal("a clone made before the fault sees it")
	}
	if got, want := c.Image("other:2"), Default("other:2"); !reflect.DeepEqual(got, want) {
		t.Fatalf("a clone's first lookup of other:2 = %+v, want %+v", got, want)
	}
}
