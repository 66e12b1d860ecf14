package settings

import (
	"context"
	"sort"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/authz"
)

// Input is a PUT's parameters by the name they were sent under (a setting's own name, its
// placeholder alias or a deprecated synonym), each decoded by InputKind: bool, int, float64,
// string, []string, map[string]int, BranchProtection, map[string]bool, or nil for JSON null.
type Input map[string]any

// changes are an Input resolved onto settings.
type changes struct {
	values map[string]any    // setting → value
	param  map[string]string // setting → the parameter name that set it
	legacy Input             // the housekeeping parameters that are not settings
}

// Update applies a PUT /application/settings: administrators only. Rules are checked as GitLab
// checks them: first the parameters (a flag that requires others, allowed values: 400
// {"error": ...}), then the resulting settings (ranges, lengths, formats, restricted
// visibility: 400 {"message": {attribute: [...]}}). Nothing is written unless all pass.
func (s *Service) Update(ctx context.Context, actor *authz.Actor, in Input) (View, error) {
	if err := requireAdmin(actor); err != nil {
		return View{}, err
	}
	c, err := resolve(in)
	if err != nil {
		return View{}, err
	}
	if err := c.checkParams(); err != nil {
		return View{}, err
	}
	c.applyBranchProtectionLevel()
	current, err := s.view(ctx)
	if err != nil {
		return View{}, err
	}
	if err := s.checkModel(c, current); err != nil {
		return View{}, err
	}
	if err := s.write(ctx, c.values); err != nil {
		return View{}, err
	}
	return s.view(ctx)
}

// resolve maps parameter names onto settings. A setting's own name wins over its placeholder
// alias; a deprecated synonym wins over both (GitLab copies it over the new name).
func resolve(in Input) (changes, error) {
	c := changes{values: map[string]any{}, param: map[string]string{}, legacy: Input{}}
	names := make([]string, 0, len(in))
	for name := range in {
		names = append(names, name)
	}
	sort.Strings(names)
	rank := func(name string, f Field, deprecated bool) int {
		switch {
		case deprecated:
			return 3
		case name == f.Name:
			return 2
		}
		return 1
	}
	ranks := map[string]int{}
	for _, name := range names {
		if _, ok := legacyInputs[name]; ok {
			c.legacy[name] = in[name]
			continue
		}
		f, deprecated, ok := Lookup(name)
		if !ok {
			continue
		}
		r := rank(name, f, deprecated)
		if r < ranks[f.Name] {
			continue
		}
		v, err := normalize(f, name, in[name])
		if err != nil {
			return c, err
		}
		ranks[f.Name] = r
		c.values[f.Name], c.param[f.Name] = v, name
	}
	return c, nil
}

// normalize turns JSON null into the setting's empty value: null for nullable settings, an
// empty list for lists; a setting that cannot be empty rejects it.
func normalize(f Field, param string, v any) (any, error) {
	if v != nil {
		if f.Name == RestrictedVisibilityLevels {
			return visibilityNames(v.([]string)), nil
		}
		return v, nil
	}
	switch {
	case f.Kind == Strings:
		return []string{}, nil
	case f.Default == nil && (f.Kind == Int || f.Kind == String):
		return nil, nil
	}
	return nil, apperr.Invalid(param)
}

// visibilityNames accepts GitLab's level numbers beside the names.
func visibilityNames(levels []string) []string {
	out := make([]string, len(levels))
	for i, l := range levels {
		switch l {
		case "0":
			l = "private"
		case "10":
			l = "internal"
		case "20":
			l = "public"
		}
		out[i] = l
	}
	return out
}

// checkParams runs the parameter rules: required companions of enabled flags, allowed values,
// the housekeeping parameters. Every failure is named, joined as Grape joins them.
func (c changes) checkParams() error {
	var msgs []string
	for _, f := range Fields {
		v, ok := c.values[f.Name]
		if !ok {
			continue
		}
		if enabled(v) {
			for _, r := range f.Requires {
				if rv, ok := c.values[r]; !ok || rv == nil {
					msgs = append(msgs, spell(r, c.param[f.Name], f.Name)+" is missing")
				}
			}
		}
		if !allowed(f, v) {
			msgs = append(msgs, c.param[f.Name]+" does not have a valid value")
		}
	}
	msgs = append(msgs, c.checkHousekeeping()...)
	if len(msgs) > 0 {
		return apperr.BadParam(strings.Join(msgs, ", "))
	}
	return nil
}

// enabled reports whether a flag turns on its requirements: true, or a non-empty text
// (external_auth_client_cert needs its key once set).
func enabled(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		return x != ""
	}
	return false
}

// spell names a required setting the way the flag was spelled: a flag sent under its
// placeholder alias or a deprecated synonym asks for its companions in the same spelling.
func spell(required, flagParam, flagName string) string {
	if flagParam == flagName {
		return required
	}
	if alias := aliasOf(flagName); alias == flagParam {
		if a := aliasOf(required); a != "" {
			return a
		}
		return required
	}
	for syn, real := range Synonyms {
		if real == required && strings.HasPrefix(syn, commonPrefix(flagParam, syn)) &&
			len(commonPrefix(flagParam, syn)) > len(commonPrefix(flagName, required)) {
			return syn
		}
	}
	return required
}

func commonPrefix(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[:i]
}

// allowed checks a value against the setting's allowed values (Grape's values:).
func allowed(f Field, v any) bool {
	if f.Kind == Protection {
		p := v.(BranchProtection)
		for _, r := range append(append([]AccessLevelRef{}, p.AllowedToPush...), p.AllowedToMerge...) {
			if !containsInt(protectionLevels, r.AccessLevel) {
				return false
			}
		}
		return true
	}
	if len(f.Values) == 0 || v == nil || f.Kind == Strings {
		return true
	}
	switch x := v.(type) {
	case string:
		return contains(f.Values, x)
	case int:
		return contains(f.Values, itoa(x))
	}
	return true
}

// checkHousekeeping applies GitLab's housekeeping parameters: enabling housekeeping needs
// housekeeping_optimize_repository_period or the three deprecated periods together, never
// both; the deprecated incremental repack period becomes the optimize period.
func (c changes) checkHousekeeping() []string {
	const (
		optimize    = "housekeeping_optimize_repository_period"
		incremental = "housekeeping_incremental_repack_period"
	)
	_, full := c.legacy["housekeeping_full_repack_period"]
	_, gc := c.legacy["housekeeping_gc_period"]
	incValue, inc := c.legacy[incremental]
	_, opt := c.values[optimize]
	if inc && !opt && incValue != nil {
		c.values[optimize], c.param[optimize] = incValue, incremental
	}
	if on, _ := c.values["housekeeping_enabled"].(bool); !on {
		return nil
	}
	var msgs []string
	if (full || gc || inc) && !(full && gc && inc) {
		msgs = append(msgs, "housekeeping_full_repack_period, housekeeping_gc_period, "+incremental+" provide all or none of parameters")
	}
	switch {
	case inc && opt:
		msgs = append(msgs, incremental+", "+optimize+" are mutually exclusive")
	case !inc && !opt:
		msgs = append(msgs, incremental+", "+optimize+" are missing, exactly one parameter must be provided")
	}
	return msgs
}

// applyBranchProtectionLevel turns the deprecated default_branch_protection into
// default_branch_protection_defaults (unless that was sent too); only the object is stored.
func (c changes) applyBranchProtectionLevel() {
	level, ok := c.values[DefaultBranchProtection]
	if !ok {
		return
	}
	delete(c.values, DefaultBranchProtection)
	if _, both := c.values["default_branch_protection_defaults"]; both {
		return
	}
	c.values["default_branch_protection_defaults"] = ProtectionForLevel(level.(int))
	c.param["default_branch_protection_defaults"] = DefaultBranchProtection
}
