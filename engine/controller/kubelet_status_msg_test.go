package controller

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// TestListMessage: the message is the one fmt would write, whether the
// previous one is reused or not.
func TestListMessage(t *testing.T) {
	const what = "containers with unready status: "
	for _, tt := range []struct {
		names []string
		prev  string
		same  bool
	}{
		{[]string{"web"}, "", false},
		{[]string{"web"}, "containers with unready status: [web]", true},
		{[]string{"web", "db"}, "containers with unready status: [web]", false},
		{[]string{"web", "db"}, "containers with unready status: [web db]", true},
		{[]string{"web"}, "containers with unready status: [db]", false},
		{[]string{"web"}, "containers with unready status: [web ", false},
		{[]string{"web"}, "containers with incomplete status: [web]", false},
	} {
		want := fmt.Sprintf("containers with unready status: [%s]", strings.Join(tt.names, " "))
		got := listMessage(what, tt.names, tt.prev)
		if got != want {
			t.Errorf("listMessage(%q, %q) = %q, want %q", tt.names, tt.prev, got, want)
		}
		if reused := tt.prev != "" && unsafe.StringData(got) == unsafe.StringData(tt.prev); reused != tt.same {
			t.Errorf("listMessage(%q, %q) reused the previous message: %v, want %v", tt.names, tt.prev, reused, tt.same)
		}
	}
}
