package manifest

import (
	"strings"

	"gopkg.in/yaml.v3"

	"reconcile/engine/validation"
	"reconcile/engine/yamlpos"
)

// AtValue returns the position of the problem the API server reports at
// field with the value bad: the field's node, found as the YAML writes it
// (the API server names a template's labels "spec.template.labels"; the
// YAML holds them in spec.template.metadata.labels), and within a mapping
// such as labels, the entry whose value (or key) is bad.
func (d Decoded) AtValue(field string, bad any) yamlpos.Pos {
	for _, meta := range []string{"labels", "annotations"} {
		if strings.HasSuffix(field, "template."+meta) {
			field = strings.TrimSuffix(field, meta) + "metadata." + meta
		}
	}
	n := yamlpos.NodeAt(d.Node, field)
	if s, ok := bad.(string); ok && n.Kind == yaml.MappingNode {
		if ps, err := yamlpos.Pairs(n, d.Source); err == nil {
			for _, p := range ps {
				if v := yamlpos.Resolve(p.Value); v.Kind == yaml.ScalarNode && v.Value == s {
					return d.Source.Of(v)
				}
			}
			for _, p := range ps {
				if k := yamlpos.Resolve(p.Key); k.Value == s {
					return d.Source.Of(k)
				}
			}
		}
	}
	return d.Source.Of(n)
}

// Invalid places each cause of the API server's refusal of the object (an
// Invalid error) at the field it names, as AtValue finds it, in kubectl's
// words for that one cause ("The Deployment \"web\" is invalid:
// spec.replicas: Invalid value: -1: ..."). The scenario loader and the
// playground's editor place refusals with it, so both point at one place.
func (d Decoded) Invalid(e *validation.Error) yamlpos.ErrorList {
	var out yamlpos.ErrorList
	for _, c := range e.Causes {
		one := validation.Error{Kind: e.Kind, Group: e.Group, Name: e.Name, Causes: validation.ErrorList{c}}
		out = append(out, &yamlpos.Error{Pos: d.AtValue(c.Field, c.BadValue), Msg: one.Error()})
	}
	return out
}
