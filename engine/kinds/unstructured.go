package kinds

import "reconcile/engine/api"

// Kinds the engine stores without simulating them (as *api.Unstructured)
// get metadata validation and generation bumps on a changed spec, unless
// defined here: these carry no generation.
var (
	_ = Define(Def[*api.Unstructured]{Kind: "ConfigMap", NoGeneration: true})
	_ = Define(Def[*api.Unstructured]{Kind: "Secret", NoGeneration: true})
	_ = Define(Def[*api.Unstructured]{Kind: "ServiceAccount", NoGeneration: true})
)
