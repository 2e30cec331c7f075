package app

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/limits"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A share link carries the learner's work in the URL fragment, which never
// reaches a server: /play#z= followed by the base64url (no padding) of the
// raw DEFLATE of the state's JSON (session.State: the scenario's YAML, the
// desired state, the inputs and the pass; the console history is left
// out). Opened anywhere, it replays to the same pass and the same digest.
//
// A shared payload is read like any other input, with limits first: the
// fragment's length, then the inflated size (read through a limit, so a
// deflate bomb stops at the limit), then the state's form, then the
// scenario loader. It is shown as text only and never run as code.

// shareFragment is what a share link's fragment starts with.
const shareFragment = "z="

// maxShareBytes bounds a share link's payload once inflated.
const maxShareBytes = limits.MaxShareBytes

// maxShareEncoded bounds the fragment itself: the base64url of a payload
// that deflate could not shrink at all, and then some.
const maxShareEncoded = (maxShareBytes+maxShareBytes/8)*4/3 + 16

// errShareTooLarge is returned for a state or a link beyond the limits.
var errShareTooLarge = errors.New("too large to share")

// encodeShare turns a state into a share link's fragment (without "#").
func encodeShare(st *session.State) (string, error) {
	s := *st
	s.History = nil
	data, err := s.Encode()
	if err != nil {
		return "", err
	}
	if len(data) > maxShareBytes {
		return "", fmt.Errorf("%w: this work is %d bytes; a share link holds at most %d bytes (64 KiB). Export it as a file instead",
			errShareTooLarge, len(data), maxShareBytes)
	}
	z, err := deflateRaw(data)
	if err != nil {
		return "", err
	}
	return shareFragment + base64.RawURLEncoding.EncodeToString(z), nil
}

// decodeShare reads a share link's fragment (with or without "#") into the
// state's JSON, within the limits. It does not check the state: see
// decodeState.
func decodeShare(fragment string) ([]byte, error) {
	fragment = strings.TrimPrefix(fragment, "#")
	if !strings.HasPrefix(fragment, shareFragment) {
		return nil, errors.New("this link holds no shared work: its fragment does not start with #z=")
	}
	enc := strings.TrimPrefix(fragment, shareFragment)
	if len(enc) > maxShareEncoded {
		return nil, fmt.Errorf("%w: the link's fragment is %d characters; the limit is %d (a payload of at most %d bytes, 64 KiB)",
			errShareTooLarge, len(enc), maxShareEncoded, maxShareBytes)
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(enc, "="))
	if err != nil {
		return nil, fmt.Errorf("this share link is damaged (not base64url): %v", err)
	}
	data, err := inflateRaw(raw, maxShareBytes+1)
	if err != nil {
		return nil, fmt.Errorf("this share link is damaged (not deflate data): %v", err)
	}
	if len(data) > maxShareBytes {
		return nil, fmt.Errorf("%w: the link's payload inflates to more than %d bytes, the limit (64 KiB)", errShareTooLarge, maxShareBytes)
	}
	return data, nil
}

func (p *Player) onCopyEmbed(ctx app.Context, e app.Event) {
	if p.sc == nil {
		return
	}
	q := url.Values{}
	if p.ses != nil {
		momentQuery(q, p.ses)
	}
	p.embedCode = embedSnippet(siteOrigin(), p.id, p.sc.Title, q)
	p.copied = "Copying…"
	copyText(p.ctx, p.embedCode, func(ctx app.Context, ok bool) {
		if ok {
			p.copied = "Copied to the clipboard. Paste it into your course page."
		} else {
			p.copied = "Select the code below and copy it."
		}
	})
}

// renderShare offers the embed code and shows the trace digest.
func (p *Player) renderShare() app.UI {
	return el.Section().Class("share").Aria("labelledby", "share-title").Body(
		el.H2().ID("share-title").Text("Share"),
		el.P().Body(
			app.Text("The address bar links to this exact pass. "),
			el.Button().Attr("type", "button").Class("quiet").Text("Copy embed code").OnClick(p.onCopyEmbed),
		),
		app.If(p.embedCode != "", func() app.UI {
			return el.Div().Class("embed-code").Body(
				el.P().Aria("live", "polite").Text(p.copied),
				el.Label().Attr("for", "embed-code").Text("Embed code"),
				el.Textarea().ID("embed-code").Attr("readonly", true).Attr("rows", 3).Text(p.embedCode),
			)
		}),
		el.Details().Class("digest").Body(
			el.Summary().Text("Trace digest"),
			el.P().Body(
				app.Text("The same lesson, the same inputs and the same pass give the same digest, here and in the command line: "),
				el.Code().DataSet("digest", p.view.Digest).DataSet("pass", p.view.N).Text(orDash(p.view.Digest)),
			),
		),
	)
}
