package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
)

// memo is a part of a page drawn again only when its key changes: go-app
// compares a component's exported fields with those of the last render
// and, when none changed, neither renders it nor compares its elements.
// Parts that change less often than every pass (the story, the lesson's
// checks, the fault palette) are drawn this way, so that a pass costs what
// it changes. Each part has a key type of its own, so that two parts never
// take each other's place.
type memo[K comparable] struct {
	app.Compo

	Key K
	// render draws the part. It is not a field go-app compares (it is
	// unexported), and it is kept from the first render: it must read
	// what it draws from its page, not from values it captured.
	render func() app.UI
}

func (m *memo[K]) Render() app.UI {
	if ui := m.render(); ui != nil {
		return ui
	}
	return el.Div().Class("empty-part")
}

// memoize draws render's part, again only when key changes.
func memoize[K comparable](key K, render func() app.UI) app.UI {
	return &memo[K]{Key: key, render: render}
}
