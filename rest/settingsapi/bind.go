package settingsapi

import (
	"math"
	"strconv"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/service/settings"
	"anvil/rest/httpx"
	"anvil/rest/params"

	"github.com/gin-gonic/gin"
)

// bind reads every parameter PUT /application/settings accepts (query, form or JSON), each by
// its setting's type; a value of the wrong type is 400 "<name> is invalid". As GitLab, at least
// one parameter must be given.
func bind(c *gin.Context) (settings.Input, error) {
	b, err := httpx.Bind(c)
	if err != nil {
		return nil, err
	}
	tree := b.Tree()
	names := settings.InputNames()
	in := settings.Input{}
	for _, name := range names {
		raw, ok := tree[name]
		if !ok {
			continue
		}
		kind, _ := settings.InputKind(name)
		if raw == nil || (raw == "" && (kind == settings.Int || kind == settings.Float || kind == settings.Bool)) {
			in[name] = nil // JSON null, or an empty scalar Grape coerces to nil
			continue
		}
		if v, ok := read(b, name, kind); ok {
			in[name] = v
		}
	}
	if err := b.Err(); err != nil {
		return nil, err
	}
	if len(in) == 0 {
		return nil, apperr.BadParam(strings.Join(names, ", ") + " are missing, at least one parameter must be provided")
	}
	return in, nil
}

// read decodes one parameter; false when it was invalid (recorded on the binder).
func read(b *params.Binder, name string, kind settings.Kind) (any, bool) {
	switch kind {
	case settings.Bool:
		return deref(b.Bool(name))
	case settings.Int:
		return deref(b.Int(name))
	case settings.String:
		return deref(b.String(name))
	case settings.Float:
		s := b.String(name)
		if s == nil {
			return nil, false
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(*s), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			b.Fail(name + " is invalid")
			return nil, false
		}
		return f, true
	case settings.Strings:
		v := b.Strings(name)
		return v, v != nil
	case settings.Weights:
		return weights(b, name)
	case settings.BoolMap:
		return boolMap(b, name)
	case settings.Protection:
		return protection(b, name)
	}
	return nil, false
}

func deref[T any](p *T) (any, bool) {
	if p == nil {
		return nil, false
	}
	return *p, true
}

// weights reads repository_storages_weighted: storage name → integer weight.
func weights(b *params.Binder, name string) (any, bool) {
	h := b.Hash(name)
	if h == nil {
		return nil, false
	}
	out := make(map[string]int, len(h))
	for k, v := range h {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			b.Fail(name + " is invalid")
			return nil, false
		}
		out[k] = n
	}
	return out, true
}

// boolMap reads an object of booleans (kroki_formats).
func boolMap(b *params.Binder, name string) (any, bool) {
	h := b.Hash(name)
	if h == nil {
		return nil, false
	}
	sub := params.NewBinder(toTree(h), nil)
	out := make(map[string]bool, len(h))
	for k := range h {
		if v := sub.Bool(k); v != nil {
			out[k] = *v
		}
	}
	if sub.Err() != nil {
		b.Fail(name + " is invalid")
		return nil, false
	}
	return out, true
}

func toTree(h map[string]string) params.Tree {
	t := params.Tree{}
	for k, v := range h {
		t[k] = v
	}
	return t
}

// protection reads default_branch_protection_defaults: allowed_to_push and allowed_to_merge
// as arrays of {access_level}, allow_force_push and developer_can_initial_push booleans.
// Attributes left out take the fully protected default's values.
func protection(b *params.Binder, name string) (any, bool) {
	m, ok := b.Tree()[name].(map[string]any)
	if !ok {
		b.Fail(name + " is invalid")
		return nil, false
	}
	sub := params.NewBinder(params.Tree(m), nil)
	p := settings.ProtectionForLevel(2)
	for _, list := range []struct {
		key string
		dst *[]settings.AccessLevelRef
	}{{"allowed_to_push", &p.AllowedToPush}, {"allowed_to_merge", &p.AllowedToMerge}} {
		if !sub.Has(list.key) {
			continue
		}
		objs := sub.Objects(list.key)
		refs := make([]settings.AccessLevelRef, 0, len(objs))
		for i, o := range objs {
			level := params.NewBinder(params.Tree(o), nil).Int("access_level")
			if level == nil {
				param := name + "[" + list.key + "][" + strconv.Itoa(i) + "][access_level]"
				b.Fail(param + " is missing")
				return nil, false
			}
			refs = append(refs, settings.AccessLevelRef{AccessLevel: *level})
		}
		*list.dst = refs
	}
	if v := sub.Bool("allow_force_push"); v != nil {
		p.AllowForcePush = *v
	}
	if v := sub.Bool("developer_can_initial_push"); v != nil {
		p.DeveloperCanInitialPush = *v
	}
	if sub.Err() != nil {
		b.Fail(name + " is invalid")
		return nil, false
	}
	return p, true
}
