package kinds

import "reconcile/engine/api"

var _ = Define(Def[*api.Endpoints]{Kind: "Endpoints", NoGeneration: true})
