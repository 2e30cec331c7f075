package controller

import "reconcile/engine/api"

// ownedStatusWriter is an API that can keep an object handed over for a
// status write without copying it (the store).
type ownedStatusWriter interface {
	UpdateStatusOwned(obj api.Object) (api.Object, error)
}

// UpdateStatusOwned is UpdateStatus, recorded as text, of an object the
// pass made for this write and does not change after (a struct of its
// own, whose status it built): an API that can keeps it rather than copy
// it.
func (ctx *Context) UpdateStatusOwned(obj api.Object, text string) (api.Object, error) {
	w, ok := ctx.API.(ownedStatusWriter)
	if !ok {
		return ctx.UpdateStatus(obj, text)
	}
	rv := obj.Meta().ResourceVersion // the write sets it on obj itself
	out, err := w.UpdateStatusOwned(obj)
	if err != nil {
		ctx.Actions = append(ctx.Actions, text+" → refused: "+err.Error())
		return nil, err
	}
	if out.Meta().ResourceVersion != rv && text != "" {
		ctx.Actions = append(ctx.Actions, text)
	}
	return out, nil
}
