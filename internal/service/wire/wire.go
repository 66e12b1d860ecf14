// Package wire checks, when a service is built, that it was given every collaborator: a rule
// that depends on a collaborator (branch protection, repository clean-up) must never be
// skipped because the collaborator was left out.
package wire

import (
	"fmt"
	"reflect"
)

// Dep names one collaborator of a service.
type Dep struct {
	Name  string
	Value any
}

// D is a Dep.
func D(name string, value any) Dep { return Dep{Name: name, Value: value} }

// Require panics, naming the service and the collaborator, when a collaborator is nil: an
// untyped nil, or a nil pointer, func, map, channel or interface inside an interface.
func Require(service string, deps ...Dep) {
	for _, d := range deps {
		if IsNil(d.Value) {
			panic(fmt.Sprintf("%s: built without its %s", service, d.Name))
		}
	}
}

// IsNil reports whether v is nil or holds a nil pointer, func, map, channel, slice or
// interface.
func IsNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Map, reflect.Chan, reflect.Interface, reflect.Slice:
		return rv.IsNil()
	}
	return false
}
