package app

// The browser's events the playground listens to beyond the keyboard: the
// page hidden or left, another tab's save of the same slot, a share link
// opened on a page already showing /play.

import (
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
)

// onLeave calls hidden on the UI goroutine when the page is hidden
// (another tab, a minimised window), and left at once, in the event, when
// the page is left (a reload, a link followed, the tab closed: pagehide):
// then nothing run later would still run. It returns a func that stops
// listening. On the server it does nothing.
func onLeave(ctx app.Context, hidden func(ctx app.Context), left func()) (stop func()) {
	if !app.IsClient {
		return func() {}
	}
	w := app.Window()
	doc := w.Get("document")
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		switch {
		case len(args) > 0 && args[0].Get("type").String() == "pagehide":
			left()
		case doc.Get("hidden").Truthy():
			ctx.Dispatch(hidden)
		}
		return nil
	})
	doc.Call("addEventListener", "visibilitychange", fn)
	w.Call("addEventListener", "pagehide", fn)
	return func() {
		doc.Call("removeEventListener", "visibilitychange", fn)
		w.Call("removeEventListener", "pagehide", fn)
		fn.Release()
	}
}

// tabID names this page among the site's tabs that may save one slot.
var tabID = strconv.FormatInt(time.Now().UnixNano(), 36)

// savedKey is the localStorage key a tab sets when it has saved slot: the
// other tabs of the site hear of it (a storage event).
func savedKey(slot string) string { return "reconcile.saved." + slot }

// announceSave tells the site's other tabs that this one saved slot.
func announceSave(slot string) {
	if !app.IsClient {
		return
	}
	defer func() { _ = recover() }() // a storage refused tells no one
	app.Window().Get("localStorage").Call("setItem", savedKey(slot), tabID+" "+strconv.FormatInt(time.Now().UnixNano(), 36))
}

// onOtherSave calls f on the UI goroutine with the slot another tab of the
// site has saved, and returns a func that stops listening. On the server
// it does nothing.
func onOtherSave(ctx app.Context, f func(ctx app.Context, slot string)) (stop func()) {
	if !app.IsClient {
		return func() {}
	}
	w := app.Window()
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		if len(args) == 0 {
			return nil
		}
		key, value := args[0].Get("key"), args[0].Get("newValue")
		if key.Type() != app.TypeString || value.Type() != app.TypeString {
			return nil
		}
		slot, ok := strings.CutPrefix(key.String(), savedKey(""))
		if ok && !strings.HasPrefix(value.String(), tabID+" ") {
			ctx.Dispatch(func(ctx app.Context) { f(ctx, slot) })
		}
		return nil
	})
	w.Call("addEventListener", "storage", fn)
	return func() {
		w.Call("removeEventListener", "storage", fn)
		fn.Release()
	}
}

// unsavedKey is the localStorage key of a slot's work that a page left
// before its save was written.
func unsavedKey(slot string) string { return "reconcile.unsaved." + slot }

// keepUnsaved keeps data, a slot's work, in localStorage, at once: a page
// being left runs nothing more, and an IndexedDB write takes several turns
// of the event loop. The next page that opens the slot saves it there
// (takeUnsaved). A storage that is full or refused keeps nothing.
func keepUnsaved(slot string, data []byte) {
	defer func() { _ = recover() }() // setItem throws when the storage is full
	app.Window().Get("localStorage").Call("setItem", unsavedKey(slot), string(data))
}

// takeUnsaved returns and forgets the work of slot a page left unsaved
// (keepUnsaved), if any, within MaxStateBytes.
func takeUnsaved(slot string) (data []byte, ok bool) {
	if !app.IsClient {
		return nil, false
	}
	defer func() {
		if recover() != nil {
			data, ok = nil, false
		}
	}()
	ls := app.Window().Get("localStorage")
	v := ls.Call("getItem", unsavedKey(slot))
	if v.IsNull() || v.IsUndefined() {
		return nil, false
	}
	ls.Call("removeItem", unsavedKey(slot))
	s := v.String()
	if s == "" || len(s) > session.MaxStateBytes {
		return nil, false
	}
	return []byte(s), true
}

// onShareHash calls f on the UI goroutine when a share link is opened on a
// page already showing /play (only the fragment changes, so the browser
// does not load the page again), and returns a func that stops listening.
func onShareHash(ctx app.Context, f func(ctx app.Context, fragment string)) (stop func()) {
	if !app.IsClient {
		return func() {}
	}
	w := app.Window()
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		if h := strings.TrimPrefix(w.Get("location").Get("hash").String(), "#"); strings.HasPrefix(h, shareFragment) {
			ctx.Dispatch(func(ctx app.Context) { f(ctx, h) })
		}
		return nil
	})
	w.Call("addEventListener", "hashchange", fn)
	return func() {
		w.Call("removeEventListener", "hashchange", fn)
		fn.Release()
	}
}
