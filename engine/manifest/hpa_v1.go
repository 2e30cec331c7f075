package manifest

import (
	"gopkg.in/yaml.v3"

	"reconcile/engine/yamlpos"
)

// hpaV1 is an autoscaling/v1 HorizontalPodAutoscaler read as the API
// server converts it to the version it stores: spec.targetCPUUtilizationPercentage
// becomes a Resource metric of cpu at that average utilization. The node
// returned is a copy where it differs (the manifest's own, kept for the
// last-applied annotation, is unchanged). v1 has no spec.metrics nor
// spec.behavior: they are the unknown fields it returns.
func hpaV1(n *yaml.Node) (*yaml.Node, []unknownField) {
	spec := yamlpos.Lookup(n, "spec")
	if spec == nil || spec.Kind != yaml.MappingNode {
		return n, nil
	}
	var unknown []unknownField
	var target *yaml.Node
	newSpec := *spec
	newSpec.Content = nil
	for i := 0; i+1 < len(spec.Content); i += 2 {
		k, v := spec.Content[i], spec.Content[i+1]
		switch k.Value {
		case "metrics", "behavior":
			unknown = append(unknown, unknownField{path: "spec." + k.Value, key: k})
			continue
		case "targetCPUUtilizationPercentage":
			target = v
			continue
		}
		newSpec.Content = append(newSpec.Content, k, v)
	}
	if target == nil && unknown == nil {
		return n, nil
	}
	if target != nil {
		str := func(s string) *yaml.Node {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Line: target.Line, Column: target.Column}
		}
		mapping := func(kv ...*yaml.Node) *yaml.Node {
			return &yaml.Node{Kind: yaml.MappingNode, Content: kv, Line: target.Line, Column: target.Column}
		}
		metric := mapping(str("type"), str("Resource"), str("resource"), mapping(
			str("name"), str("cpu"), str("target"), mapping(str("type"), str("Utilization"), str("averageUtilization"), target)))
		newSpec.Content = append(newSpec.Content, str("metrics"),
			&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{metric}, Line: target.Line, Column: target.Column})
	}
	root := *n
	root.Content = make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		if c == spec {
			c = &newSpec
		}
		root.Content[i] = c
	}
	return &root, unknown
}
