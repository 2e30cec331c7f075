package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/limits"
)

// pastedLength is how long, in bytes, the editor's text would be once a
// paste or a drop of in bytes went in: value bytes, of which the selection
// from start to end is replaced (a drop replaces nothing). It reports
// whether that is over MaxFileSize.
func pastedLength(value, start, end, in int, drop bool) (int, bool) {
	n := value + in
	if !drop && end > start {
		n -= end - start
	}
	return n, n > limits.MaxFileSize
}

// listenPaste refuses a paste or a drop into the text area id that would
// make its text longer than MaxFileSize, before the browser puts it in:
// the refusal must be made while the event is dispatched, and costs the
// sizes read, never the text itself copied. A browser takes about a minute
// and gigabytes to lay out a text area of 2 MB of short lines (measured:
// 42 s before the page read it, 16 s more for Apply to refuse it), and
// Apply would refuse it anyway. refused is called on the UI goroutine with
// the length refused. It returns a func that stops listening; on the
// server it does nothing.
func listenPaste(ctx app.Context, id string, refused func(ctx app.Context, n int)) (stop func()) {
	if !app.IsClient {
		return func() {}
	}
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		if len(args) == 0 {
			return nil
		}
		e := args[0]
		t := e.Get("target")
		if !t.Truthy() || t.Get("id").String() != id {
			return nil
		}
		drop := e.Get("type").String() == "drop"
		data := e.Get("clipboardData")
		if drop {
			data = e.Get("dataTransfer")
		}
		if !data.Truthy() {
			return nil
		}
		value := t.Get("value")
		start, end := t.Get("selectionStart").Int(), t.Get("selectionEnd").Int()
		if end > start && !drop {
			// The selection's bytes: start and end count UTF-16 units.
			end = start + utf8Size(app.Window().Get("String").New(value).Call("substring", start, end))
		}
		n, over := pastedLength(utf8Size(value), start, end, utf8Size(data.Call("getData", "text")), drop)
		if over {
			e.Call("preventDefault")
			ctx.Dispatch(func(ctx app.Context) { refused(ctx, n) })
		}
		return nil
	})
	w := app.Window()
	w.Call("addEventListener", "paste", fn, true)
	w.Call("addEventListener", "drop", fn, true)
	return func() {
		w.Call("removeEventListener", "paste", fn, true)
		w.Call("removeEventListener", "drop", fn, true)
		fn.Release()
	}
}

// utf8Size is the UTF-8 bytes of the JavaScript string s, counted by the
// browser: the string is never copied into Go. A string longer than
// MaxFileSize in UTF-16 units is over it in bytes too, and its units are
// returned: encoding 12 MB to count its bytes (a Blob of it) takes the
// browser over a second.
func utf8Size(s app.Value) int {
	w := app.Window()
	if n := w.Get("String").New(s).Get("length").Int(); n == 0 || n > limits.MaxFileSize {
		return n
	}
	parts := w.Get("Array").New()
	parts.Call("push", s)
	return w.Get("Blob").New(parts).Get("size").Int()
}

// pasteRefusal says why a paste or a drop was refused.
func pasteRefusal(n int) string {
	return fmt.Sprintf("Nothing was pasted: it would make the desired state %d bytes or more; the limit is %d bytes (MaxFileSize, 1 MiB). "+
		"Paste less, or apply it in parts.", n, limits.MaxFileSize)
}
