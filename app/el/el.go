// Package el makes the playground's HTML elements. Each is one of
// go-app's two generic element kinds (app.Elem, app.ElemSelfClosing) with
// its tag, in place of go-app's typed constructors (app.Div, app.Span, …):
// every typed element is a type of its own with its own copy of each
// method called on it (Class, Body, OnClick, …) and its own interface and
// method types, which the browser's binary carries, element by element.
// Attributes the typed elements have methods for (type, href, disabled,
// value, …) are set with Attr: go-app sets them the same way.
package el

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// A is <a>.
func A() app.HTMLElem { return app.Elem("a") }

// Article is <article>.
func Article() app.HTMLElem { return app.Elem("article") }

// B is <b>.
func B() app.HTMLElem { return app.Elem("b") }

// Button is <button>.
func Button() app.HTMLElem { return app.Elem("button") }

// Caption is <caption>.
func Caption() app.HTMLElem { return app.Elem("caption") }

// Code is <code>.
func Code() app.HTMLElem { return app.Elem("code") }

// Dd is <dd>.
func Dd() app.HTMLElem { return app.Elem("dd") }

// Details is <details>.
func Details() app.HTMLElem { return app.Elem("details") }

// Div is <div>.
func Div() app.HTMLElem { return app.Elem("div") }

// Dl is <dl>.
func Dl() app.HTMLElem { return app.Elem("dl") }

// Dt is <dt>.
func Dt() app.HTMLElem { return app.Elem("dt") }

// FigCaption is <figcaption>.
func FigCaption() app.HTMLElem { return app.Elem("figcaption") }

// Figure is <figure>.
func Figure() app.HTMLElem { return app.Elem("figure") }

// Footer is <footer>.
func Footer() app.HTMLElem { return app.Elem("footer") }

// Form is <form>.
func Form() app.HTMLElem { return app.Elem("form") }

// H1 is <h1>.
func H1() app.HTMLElem { return app.Elem("h1") }

// H2 is <h2>.
func H2() app.HTMLElem { return app.Elem("h2") }

// H3 is <h3>.
func H3() app.HTMLElem { return app.Elem("h3") }

// Header is <header>.
func Header() app.HTMLElem { return app.Elem("header") }

// Img is <img>.
func Img() app.HTMLElemSelfClosing { return app.ElemSelfClosing("img") }

// Input is <input>.
func Input() app.HTMLElemSelfClosing { return app.ElemSelfClosing("input") }

// Label is <label>.
func Label() app.HTMLElem { return app.Elem("label") }

// Li is <li>.
func Li() app.HTMLElem { return app.Elem("li") }

// Main is <main>.
func Main() app.HTMLElem { return app.Elem("main") }

// Nav is <nav>.
func Nav() app.HTMLElem { return app.Elem("nav") }

// Ol is <ol>.
func Ol() app.HTMLElem { return app.Elem("ol") }

// Option is <option>.
func Option() app.HTMLElem { return app.Elem("option") }

// P is <p>.
func P() app.HTMLElem { return app.Elem("p") }

// Pre is <pre>.
func Pre() app.HTMLElem { return app.Elem("pre") }

// Progress is <progress>.
func Progress() app.HTMLElem { return app.Elem("progress") }

// Section is <section>.
func Section() app.HTMLElem { return app.Elem("section") }

// Select is <select>.
func Select() app.HTMLElem { return app.Elem("select") }

// Span is <span>.
func Span() app.HTMLElem { return app.Elem("span") }

// Strong is <strong>.
func Strong() app.HTMLElem { return app.Elem("strong") }

// Summary is <summary>.
func Summary() app.HTMLElem { return app.Elem("summary") }

// Table is <table>.
func Table() app.HTMLElem { return app.Elem("table") }

// TBody is <tbody>.
func TBody() app.HTMLElem { return app.Elem("tbody") }

// Td is <td>.
func Td() app.HTMLElem { return app.Elem("td") }

// Textarea is <textarea>.
func Textarea() app.HTMLElem { return app.Elem("textarea") }

// Th is <th>.
func Th() app.HTMLElem { return app.Elem("th") }

// THead is <thead>.
func THead() app.HTMLElem { return app.Elem("thead") }

// Tr is <tr>.
func Tr() app.HTMLElem { return app.Elem("tr") }

// Ul is <ul>.
func Ul() app.HTMLElem { return app.Elem("ul") }

// Flag is the value Attr takes for a boolean attribute (selected, checked,
// open): the attribute when on, none when off. HTML reads an attribute
// that is there as true whatever its value, and go-app writes
// Attr("selected", false) into the prerendered page as selected="false",
// every option of a list selected (the last one shown). go-app leaves out
// an attribute whose value is empty, and takes away in the browser one
// that an update leaves out. Disabled takes a bool as it is: written
// disabled="false", a control of the prerendered page stays disabled until
// the page's binary runs (the browser's go-app sets the property), and
// nothing answers a click before then.
func Flag(on bool) any {
	if on {
		return true
	}
	return ""
}
