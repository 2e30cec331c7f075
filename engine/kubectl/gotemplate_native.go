//go:build !js

package kubectl

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"strings"
	"text/template"
)

func init() { goTemplate = parseGoTemplate }

// parseGoTemplate is kubectl's GoTemplatePrinter: the template named
// "output", the functions exists and base64decode, and missingkey=error
// when --allow-missing-template-keys=false.
func parseGoTemplate(text string, allowMissing bool) (func(doc any) (string, error), error) {
	t := template.New("output").Funcs(template.FuncMap{"exists": exists, "base64decode": base64decode})
	if !allowMissing {
		t.Option("missingkey=error")
	}
	t, err := t.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("error: error parsing template %s, %v\n", text, err)
	}
	return func(doc any) (string, error) {
		var b strings.Builder
		if err := t.Execute(&b, doc); err != nil {
			return b.String(), fmt.Errorf("error: error executing template %q: %v", text, err)
		}
		return b.String(), nil
	}, nil
}

// exists reports whether the path of keys and indexes leads somewhere in
// item, as kubectl's template function does.
func exists(item any, indices ...any) bool {
	v := reflect.ValueOf(item)
	for _, i := range indices {
		for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return false
			}
			v = v.Elem()
		}
		iv := reflect.ValueOf(i)
		switch v.Kind() {
		case reflect.Map:
			if !iv.IsValid() || !iv.Type().AssignableTo(v.Type().Key()) {
				return false
			}
			v = v.MapIndex(iv)
			if !v.IsValid() {
				return false
			}
		case reflect.Slice, reflect.Array:
			n, ok := i.(int)
			if !ok || n < 0 || n >= v.Len() {
				return false
			}
			v = v.Index(n)
		default:
			return false
		}
	}
	return true
}

func base64decode(v string) (string, error) {
	data, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return "", fmt.Errorf("base64 decode failed: %v", err)
	}
	return string(data), nil
}
