package main

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"flag"
	"fmt"
	"html"
	"io"
	"path/filepath"
	"strings"

	"reconcile/app/session"
	"reconcile/engine/limits"
)

// shareCommand prints a playground share link for a scenario file, and
// the iframe that embeds it: the way a course page embeds a scenario that
// is not bundled. The link holds the file in its fragment (/play#z=…,
// docs/playground.md), which never reaches a server.
func shareCommand(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("share", flag.ContinueOnError)
	flags.SetOutput(stderr)
	site := flags.String("site", "https://reconcile.example", "the address the playground is served from")
	files, err := parseInterspersed(flags, args)
	if err != nil {
		return exitBadInput
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reconcile share: "+format+"\n", a...)
		return exitBadInput
	}
	if len(files) != 1 {
		return bad("want exactly one FILE, got %d\n%s", len(files), usage)
	}
	text, err := readLimited(files[0])
	if err != nil {
		return bad("%v", err)
	}
	sc, ok := load(files[0], stderr)
	if !ok {
		return exitBadInput
	}
	name := filepath.Base(files[0])
	st := &session.State{Format: session.StateFormat, Version: session.StateVersion, File: name, Scenario: string(text),
		Desired: session.ManifestsText(sc, string(text)), Futures: []session.Future{{}}}
	data, err := st.Encode()
	if err != nil {
		return bad("%s: %v", files[0], err)
	}
	if len(data) > limits.MaxShareBytes {
		return bad("%s: the link would hold %d bytes; a share link holds at most %d (MaxShareBytes): bundle the lesson instead", files[0], len(data), limits.MaxShareBytes)
	}
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	w.Write(data)
	w.Close()
	link := strings.TrimRight(*site, "/") + "/play?embed=1#z=" + base64.RawURLEncoding.EncodeToString(z.Bytes())
	title := sc.Title
	if title == "" {
		title = sc.ID
	}
	fmt.Fprintln(stdout, link)
	fmt.Fprintf(stdout, "<iframe src=\"%s\"\n        title=\"%s · Reconcile\" loading=\"lazy\"\n        width=\"100%%\" height=\"560\" style=\"border:0;max-width:100%%\"></iframe>\n",
		html.EscapeString(link), html.EscapeString(title))
	return exitOK
}
