package app

import "testing"

// A drain's refusals are sentences, and may wrap on a phone, where the end
// of each (the budget that refused) would be out of sight; what is aligned
// or indented (a table, describe, YAML) keeps its lines.
func TestProseOutputsWrap(t *testing.T) {
	for _, c := range []struct{ out, class string }{
		{"node/worker-1 cordoned\nevicting pod default/web-1\nerror when evicting pods/\"web-1\" -n \"default\" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.\n", "prose"},
		{"deployment.apps/web scaled\n", "prose"},
		{"NAME      MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\nweb-pdb   3               N/A               0                     90s\n", ""},
		{"apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n", ""},
	} {
		if got := proseClass(c.out); got != c.class {
			t.Errorf("%q: class %q, want %q", c.out, got, c.class)
		}
	}
}
