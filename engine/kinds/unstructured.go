package kinds

import (
	"encoding/base64"
	"fmt"

	"reconcile/engine/api"
)

// Kinds the engine stores without simulating them (as *api.Unstructured)
// get metadata validation and generation bumps on a changed spec, unless
// defined here: these carry no generation. ConfigMaps and ServiceAccounts
// are described as kubectl's describers of them do.
var (
	_ = Define(Def[*api.Unstructured]{Kind: "ConfigMap", NoGeneration: true, Describe: withEvents(describeConfigMap)})
	_ = Define(Def[*api.Unstructured]{Kind: "Secret", NoGeneration: true})
	_ = Define(Def[*api.Unstructured]{Kind: "ServiceAccount", NoGeneration: true, Describe: withEvents(describeServiceAccount)})
)

// describeConfigMap is kubectl's ConfigMapDescriber: each data key, a
// line of dashes, its value; then the binary data's sizes. (kubectl
// prints the keys in its map's order; here they are sorted.)
func describeConfigMap(w *Describer, cm *api.Unstructured) {
	w.Meta(&cm.ObjectMeta)
	w.Line(0, "\nData\n====\n")
	for _, k := range sortedKeys(cm.Data) {
		w.Line(0, "%s:\n----\n", k)
		w.Line(0, "%v\n", cm.Data[k])
		w.Line(0, "\n")
	}
	w.Line(0, "\nBinaryData\n====\n")
	bin, _ := cm.Fields["binaryData"].(map[string]any)
	for _, k := range sortedKeys(bin) {
		s, _ := bin[k].(string)
		b, _ := base64.StdEncoding.DecodeString(s)
		w.Line(0, "%s: %d bytes\n", k, len(b))
	}
	w.Line(0, "\n")
}

// describeServiceAccount is kubectl's ServiceAccountDescriber: the names
// of its image pull secrets, its mountable secrets and its token Secrets
// (a Secret of type kubernetes.io/service-account-token that names it),
// a secret not stored marked "(not found)".
func describeServiceAccount(w *Describer, sa *api.Unstructured) {
	w.Meta(&sa.ObjectMeta)
	var tokens []string
	for _, o := range w.Store.List("Secret") {
		s, ok := o.(*api.Unstructured)
		if ok && s.Namespace == sa.Namespace && s.Fields["type"] == "kubernetes.io/service-account-token" &&
			s.Annotations["kubernetes.io/service-account.name"] == sa.Name {
			tokens = append(tokens, s.Name)
		}
	}
	for _, h := range []struct {
		header string
		names  []string
	}{
		{"Image pull secrets:", secretNames(sa.Fields["imagePullSecrets"])},
		{"Mountable secrets:", secretNames(sa.Fields["secrets"])},
		{"Tokens:", tokens},
	} {
		if len(h.names) == 0 {
			w.Line(0, "%s\t<none>\n", h.header)
			continue
		}
		prefix := h.header
		for _, name := range h.names {
			missing := ""
			if w.Store.Get("Secret", sa.Namespace, name) == nil {
				missing = " (not found)"
			}
			w.Line(0, "%s\t%s%s\n", prefix, name, missing)
			prefix = ""
		}
	}
}

// secretNames are the names of a list of references ({name: …}).
func secretNames(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, r := range list {
		if m, ok := r.(map[string]any); ok {
			out = append(out, fmt.Sprint(m["name"]))
		}
	}
	return out
}
