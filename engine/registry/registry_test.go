package registry

import (
	"crypto/sha256"
	"fmt"
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
