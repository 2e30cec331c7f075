package controller

import (
	"reconcile/engine/api"
)

// ownedStatusWriter is an API that can keep an object handed over for a
// status write without copying it (the store).
type ownedStatusWriter interface {
	UpdateStatusOwned(obj api.Object) (api.Object, error)
}

// UpdateStatusOwned is UpdateStatus, recorded as a, of an object the
// pass made for this write and does not change after (a struct of its
// own, whose status it built): an API that can keeps it rather than copy
// it.
func (ctx *Context) UpdateStatusOwned(obj api.Object, a Action) (api.Object, error) {
	w, ok := ctx.API.(ownedStatusWriter)
	if !ok {
		return ctx.UpdateStatus(obj, a)
	}
	rv := obj.Meta().ResourceVersion // the write sets it on obj itself
	out, err := w.UpdateStatusOwned(obj)
	if err != nil {
		a.Refused = err.Error()
		ctx.Actions = append(ctx.Actions, a)
		return nil, err
	}
	if out.Meta().ResourceVersion != rv && a != (Action{}) {
		ctx.Actions = append(ctx.Actions, a)
	}
	return out, nil
}

// ownedCreator is an API that can keep an object handed over for a create
// without copying it (the store).
type ownedCreator interface {
	CreateOwned(obj api.Object) (api.Object, error)
}

// CreateNew is Create of an object newObj makes for this create alone: an
// API that can keeps it rather than copy it. A refused create is described
// from a second object newObj makes, as the API may have defaulted the
// first before it refused.
func (ctx *Context) CreateNew(newObj func() api.Object, describe func(api.Object) Action) (api.Object, error) {
	w, ok := ctx.API.(ownedCreator)
	if !ok {
		return ctx.Create(newObj(), describe)
	}
	if ctx.crashing() {
		return nil, ErrCrashed
	}
	out, err := w.CreateOwned(newObj())
	if err != nil {
		a := describe(newObj())
		a.Refused = err.Error()
		ctx.Actions = append(ctx.Actions, a)
		return nil, err
	}
	ctx.Actions = append(ctx.Actions, describe(out))
	return out, nil
}

// EventMessage records an event from this controller whose message is
// written already: what Event records with a format and its arguments,
// without formatting (a ReplicaSet's SuccessfulCreate, one for every pod).
func (ctx *Context) EventMessage(obj api.Object, typ, reason, message string) {
	ctx.API.Record(ctx.component, ctx.Host, obj, typ, reason, message)
}
