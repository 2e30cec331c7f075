package assertion

import (
	"errors"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"deployment/web status.availableReplicas == 5",
		"rs/web-* status.conditions[type=ReplicaFailure].message contains \"quota\"",
		"deploy/web status.observedGeneration >= metadata.generation",
		"pods{app=web,phase=Running,ready,!terminating} == 5",
		"node/worker-1 metadata.labels[kubernetes.io/hostname] != 'x'",
		"pod/p metadata.creationTimestamp < 1m30s",
		"pods{ == 1", "a/b c[", "x/y a.b[0][1].c == d",
	} {
		f.Add(s)
	}
	objects := sampleObjects()
	f.Fuzz(func(t *testing.T, text string) {
		a, err := Parse(text, []string{"Service"})
		if err != nil {
			var ae *Error
			if !errors.As(err, &ae) || ae.Offset < 0 || ae.Offset > len(text) {
				t.Fatalf("error %v: want an *Error with an offset within the text", err)
			}
			return
		}
		if a.Count {
			return
		}
		for _, o := range objects {
			if o.GetTypeMeta().Kind == a.Kind {
				a.Path.Lookup(o) // must not panic
				if a.Value.Path != nil {
					a.Value.Path.Lookup(o)
				}
			}
		}
	})
}
