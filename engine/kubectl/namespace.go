package kubectl

import (
	"errors"
	"fmt"

	"reconcile/engine/api"
)

// createNamespace runs kubectl create namespace NAME.
func (k *cmd) createNamespace() (string, error) {
	if len(k.in.Args) != 1 {
		return "", fmt.Errorf("error: exactly one NAME is required, got %d\nSee 'kubectl create namespace -h' for help and examples", len(k.in.Args))
	}
	p, err := k.newPrinter(printFormats)
	if err != nil {
		return "", err
	}
	ns := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: api.ObjectMeta{Name: k.in.Args[0]}}
	out, err := k.st.Create(ns)
	if err != nil {
		return "", err
	}
	kind, ok := api.KindOf("Namespace")
	if !ok {
		return "", errors.New("error: the server doesn't have a resource type \"namespaces\"")
	}
	return k.done(p, kind, out, "created")
}
