package app

// The playground's work as a file: exported, imported, and the bytes of a
// slot set aside, downloaded.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
)

// exportFile offers the work as a JSON file to download.
func (p *Playground) exportFile(ctx app.Context) {
	if p.ses == nil {
		return
	}
	guard(&p.alert, "Export", func() {
		st := p.state()
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		if err := enc.Encode(st); err != nil {
			panic(err)
		}
		name := "reconcile-" + p.slot + ".json"
		download(name, "application/json", b.String())
		p.notice = fmt.Sprintf("Exported %s: pass %d, digest %s. Import it here or in any browser to carry on from the same state.", name, p.view.N, shortDigest(st.Digest))
	})
}

// downloadSetAside offers a file set aside, its bytes as they were kept.
func (p *Playground) downloadSetAside(ctx app.Context, name string) {
	ctx.Async(func() {
		var data []byte
		st, err := storage()
		if err == nil {
			var found bool
			if data, found, err = st.read(name); err == nil && !found {
				err = fmt.Errorf("%s is no longer kept", name)
			}
		}
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				p.alert = "Cannot download it: " + err.Error()
				p.focus(ctx, "play-alert")
				return
			}
			download(path.Base(name)+".txt", "text/plain", string(data))
			p.notice = fmt.Sprintf("Downloaded %s: %d bytes, as they were kept.", path.Base(name), len(data))
		})
	})
}

// download makes the browser save text as a file called name.
func download(name, mime, text string) {
	if !app.IsClient {
		return
	}
	w := app.Window()
	blob := w.Get("Blob").New([]any{text}, map[string]any{"type": mime})
	href := w.Get("URL").Call("createObjectURL", blob)
	a := w.Get("document").Call("createElement", "a")
	a.Set("href", href)
	a.Set("download", name)
	a.Get("style").Set("display", "none")
	w.Get("document").Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	w.Call("setTimeout", w.Get("URL").Get("revokeObjectURL").Call("bind", w.Get("URL"), href), 10_000)
}

// importFile reads the file chosen in the import control and, when it is
// a playground state that replays, makes it this page's work.
func (p *Playground) importFile(ctx app.Context, input app.Value) {
	files := input.Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	file := files.Index(0)
	name := file.Get("name").String()
	input.Set("value", "")
	if size := file.Get("size").Int(); size > session.MaxStateBytes {
		p.alert = fmt.Sprintf("Nothing was imported: %s is %d bytes; the limit is %d bytes (3 × MaxFileSize).", name, size, session.MaxStateBytes)
		p.focus(ctx, "play-alert")
		return
	}
	var ok, fail app.Func
	release := func() { ok.Release(); fail.Release() }
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		text := args[0].String()
		release()
		ctx.Dispatch(func(ctx app.Context) { p.imported(ctx, name, []byte(text)) })
		return nil
	})
	fail = app.FuncOf(func(this app.Value, args []app.Value) any {
		msg := "cannot read it"
		if len(args) > 0 {
			msg = args[0].Call("toString").String()
		}
		release()
		ctx.Dispatch(func(ctx app.Context) {
			p.alert = "Nothing was imported: " + name + ": " + msg
			p.focus(ctx, "play-alert")
		})
		return nil
	})
	file.Call("text").Call("then", ok, fail)
}

// imported makes an imported file this page's work.
func (p *Playground) imported(ctx app.Context, name string, data []byte) {
	p.alert = ""
	if p.failOn == "import" {
		guard(&p.alert, "Import", func() { panic("a deliberate failure, for the tests") })
		p.focus(ctx, "play-alert")
		return
	}
	w, err := session.Restore("the file "+name, data)
	if err != nil {
		p.alert = "Nothing was imported: " + err.Error()
		p.focus(ctx, "play-alert")
		return
	}
	p.undo = p.state()
	p.work(w)
	p.notice = fmt.Sprintf("Imported %s: pass %d, digest %s.", name, p.view.N, shortDigest(p.view.Digest))
	if w.Differs {
		p.notice += " It was saved by another version of Reconcile and replays to a different trace."
	} else if w.State.Digest != "" {
		p.notice += " The same digest as when it was exported."
	}
	p.notice += " Undo brings back the work it replaced."
	p.save(ctx)
	p.focus(ctx, "play-notice")
}
