package app

import (
	"fmt"
	"slices"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/sim"
)

// The parts of the cluster pane that most passes leave as they were are
// components of their own, as the node cards are: go-app compares their
// fields with the last render's and, when none changed, neither builds nor
// compares their elements. At scale a pass's reading of the cluster pane
// allocated a quarter of its bytes in these two lists.

// controlPlane is the cluster pane's list of controllers.
type controlPlane struct {
	app.Compo

	Controllers []sim.ControllerState
	Acting      string // "kubelet on worker-3" names a node's kubelet
}

func (c *controlPlane) Render() app.UI { return renderControlPlane(c.Controllers, c.Acting) }

// otherObjects lists the objects of the kinds the pane draws no shape for.
type otherObjects struct {
	app.Compo

	Others []api.Ref
	More   int
	// Selected is the inspected object when it is one of Others (else
	// zero, so that inspecting another object changes nothing here).
	Selected api.Ref
	Picker   picker
}

// newOtherObjects is the list of the cluster v's other objects, selected
// being the inspected object.
func newOtherObjects(v session.Cluster, selected api.Ref, pk picker) *otherObjects {
	o := &otherObjects{Others: v.Others, More: v.MoreOthers, Picker: pk}
	if slices.Contains(v.Others, selected) {
		o.Selected = selected
	}
	return o
}

func (o *otherObjects) Render() app.UI {
	return el.Div().Class("others").Body(
		el.H3().Text("Other objects"),
		el.Ul().Body(app.Range(o.Others).Slice(func(i int) app.UI {
			return el.Li().Body(objButton(o.Others[i], o.Selected, "other", o.Picker.onPick, app.Text(o.Others[i].String())))
		})),
		app.If(o.More > 0, func() app.UI {
			return el.P().Class("muted").Text(fmt.Sprintf("and %d more", o.More))
		}),
	)
}
