package app

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// An address the page cannot read (a malformed %-escape: /play#%,
// /#%zz) would reach go-app's router as no URL at all, and the page would
// stop at its start. RepairAddress, called before the app runs, reads the
// address first and, when it does not parse, puts a readable one in its
// place (without the fragment, or the site's root), keeping what was wrong
// to say on the page. It watches later changes of the address the same
// way, before the router sees them.

// addressProblem is what was wrong with the address, until a page says it.
var addressProblem string

// addressHeard is told of a problem found while a page is showing.
var addressHeard func(msg string)

// RepairAddress checks the address now and at every change of it.
func RepairAddress() {
	if !app.IsClient {
		return
	}
	repairAddress()
	w := app.Window()
	f := app.FuncOf(func(this app.Value, args []app.Value) any {
		if msg := repairAddress(); msg != "" && addressHeard != nil {
			addressHeard(msg)
		}
		return nil
	})
	// Registered before go-app's own listeners, so they run first.
	w.Call("addEventListener", "popstate", f)
	w.Call("addEventListener", "hashchange", f)
}

// repairAddress replaces an unreadable address and returns why, or "".
func repairAddress() string {
	loc := app.Window().Get("location")
	href := loc.Get("href").String()
	fixed, msg := readableAddress(href, loc.Get("origin").String())
	if msg == "" {
		return ""
	}
	app.Window().Get("history").Call("replaceState", nil, "", fixed)
	addressProblem = msg
	return msg
}

// readableAddress returns href when it parses; otherwise href without
// its fragment, or origin's root, and why.
func readableAddress(href, origin string) (string, string) {
	_, err := url.Parse(href)
	if err == nil {
		return href, ""
	}
	why := err.Error()
	if e, ok := err.(*url.Error); ok {
		why = e.Err.Error()
	}
	if i := strings.IndexByte(href, '#'); i >= 0 {
		if _, err := url.Parse(href[:i]); err == nil {
			return href[:i], fmt.Sprintf("This address could not be read (%s in the part after #), so that part was ignored.", why)
		}
	}
	return origin + "/", fmt.Sprintf("This address could not be read (%s), so this page opened the site's start instead.", why)
}

// takeAddressProblem returns what was wrong with the address, once.
func takeAddressProblem() string {
	msg := addressProblem
	addressProblem = ""
	return msg
}

// hearAddress shows in alert what was wrong with the address the page
// opened at, and with any address it is given later.
func (s *stage) hearAddress(ctx app.Context, alert *string) {
	if msg := takeAddressProblem(); msg != "" {
		*alert = msg
	}
	addressHeard = func(msg string) {
		ctx.Dispatch(func(ctx app.Context) {
			*alert = takeAddressProblem()
		})
	}
}
