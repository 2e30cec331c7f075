package app

// Version is the build's version (set by the wasm package from its
// -X main.version flag); the page footer shows it.
var Version = "dev"
