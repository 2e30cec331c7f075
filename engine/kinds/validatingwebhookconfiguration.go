package kinds

import "reconcile/engine/api"

var _ = Define(Def[*api.ValidatingWebhookConfiguration]{
	Kind: "ValidatingWebhookConfiguration",
	Columns: []TypedColumn[*api.ValidatingWebhookConfiguration]{Name[*api.ValidatingWebhookConfiguration](),
		{Name: "WEBHOOKS", Cell: func(v *api.ValidatingWebhookConfiguration, _ api.Time) string { return itoa(len(v.Webhooks)) }},
		Age[*api.ValidatingWebhookConfiguration](),
	},
})
