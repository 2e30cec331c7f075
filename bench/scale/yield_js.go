//go:build js

package scale

import "time"

func init() { yield = func() { time.Sleep(time.Millisecond) } }
