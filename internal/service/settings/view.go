package settings

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"anvil/internal/apperr"
	"anvil/internal/authz"
)

// View is every setting's current value, decoded by kind (bool, *int, float64, *string,
// []string, map[string]int, BranchProtection, map[string]bool), with the row's timestamps.
type View struct {
	Values    map[string]any
	CreatedAt time.Time
	UpdatedAt time.Time
	// Storages are the configured repository storages (repository_storages_weighted lists
	// each, with weight 0 when it has none).
	Storages []string
}

// Read returns every setting for GET /application/settings: administrators only. As GitLab
// creates its settings row from the defaults on first read, the first read stamps created_at.
func (s *Service) Read(ctx context.Context, actor *authz.Actor) (View, error) {
	if err := requireAdmin(actor); err != nil {
		return View{}, err
	}
	snap, err := s.load(ctx)
	if err != nil {
		return View{}, err
	}
	if _, ok := snap[metaCreatedAt]; !ok {
		if err := s.write(ctx, nil); err != nil {
			return View{}, err
		}
	}
	return s.view(ctx)
}

func requireAdmin(actor *authz.Actor) error {
	switch {
	case actor.IsAnonymous():
		return apperr.Unauthorized()
	case !actor.IsAdmin():
		return apperr.Forbidden("")
	}
	return nil
}

// view decodes every setting.
func (s *Service) view(ctx context.Context) (View, error) {
	v := View{Values: make(map[string]any, len(Fields)), Storages: s.storages}
	for _, f := range Fields {
		raw, err := s.raw(ctx, f.Name)
		if err != nil {
			return View{}, err
		}
		val, err := decode(f, raw)
		if err != nil {
			return View{}, fmt.Errorf("setting %s: %w", f.Name, err)
		}
		v.Values[f.Name] = val
	}
	weights, err := s.StorageWeights(ctx)
	if err != nil {
		return View{}, err
	}
	v.Values[StorageWeightsKey] = weights
	for key, at := range map[string]*time.Time{metaCreatedAt: &v.CreatedAt, metaUpdatedAt: &v.UpdatedAt} {
		raw, err := s.raw(ctx, key)
		if err != nil {
			return View{}, err
		}
		_ = json.Unmarshal([]byte(raw), at)
	}
	return v, nil
}

// decode reads a stored JSON value as the field's kind. A value stored under an older type
// that no longer decodes falls back to the default.
func decode(f Field, raw string) (any, error) {
	var (
		out any
		err error
	)
	switch f.Kind {
	case Bool:
		var v bool
		err = json.Unmarshal([]byte(raw), &v)
		out = v
	case Int:
		var v *int
		err = json.Unmarshal([]byte(raw), &v)
		out = v
	case Float:
		var v float64
		err = json.Unmarshal([]byte(raw), &v)
		out = v
	case String:
		var v *string
		err = json.Unmarshal([]byte(raw), &v)
		out = v
	case Strings:
		v := []string{}
		err = json.Unmarshal([]byte(raw), &v)
		if v == nil {
			v = []string{}
		}
		out = v
	case Weights:
		v := map[string]int{}
		err = json.Unmarshal([]byte(raw), &v)
		out = v
	case Protection:
		v := ProtectionForLevel(2)
		err = json.Unmarshal([]byte(raw), &v)
		out = v
	case BoolMap:
		v := map[string]bool{}
		err = json.Unmarshal([]byte(raw), &v)
		out = v
	}
	if err != nil && f.Default != nil {
		b, _ := json.Marshal(f.Default)
		return decode(Field{Kind: f.Kind}, string(b))
	}
	return out, err
}
