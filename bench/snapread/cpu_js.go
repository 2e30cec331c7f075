//go:build js

package main

import (
	"syscall/js"
	"time"
)

// cpuTime is the CPU time Node's process has used (user and system, all
// its threads: V8's compilers too).
func cpuTime() time.Duration {
	u := js.Global().Get("process").Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond
}
