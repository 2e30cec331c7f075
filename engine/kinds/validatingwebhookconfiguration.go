package kinds

import "reconcile/engine/api"

var _ = Define(Def[*api.ValidatingWebhookConfiguration]{Kind: "ValidatingWebhookConfiguration"})
