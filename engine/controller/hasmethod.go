//go:build !js

package controller

import "reflect"

// hasMethod reports whether c has the method name, one of the optional
// interfaces' methods. Each lookup names its method as a constant: a
// lookup by a name the linker cannot see makes it keep every exported
// method of every type in the binary (megabytes of app.wasm).
func hasMethod(c any, name string) bool {
	t := reflect.TypeOf(c)
	var ok bool
	switch name {
	case "Period":
		_, ok = t.MethodByName("Period")
	case "Tick":
		_, ok = t.MethodByName("Tick")
	case "Restarted":
		_, ok = t.MethodByName("Restarted")
	case "Idle":
		_, ok = t.MethodByName("Idle")
	case "Object":
		_, ok = t.MethodByName("Object")
	case "ReportStatus":
		_, ok = t.MethodByName("ReportStatus")
	default:
		panic("controller: hasMethod of an unlisted method " + name)
	}
	return ok
}
