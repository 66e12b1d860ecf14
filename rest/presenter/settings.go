package presenter

import (
	"encoding/json"
	"strconv"
	"strings"

	"anvil/internal/service/settings"
)

// ApplicationSettings renders GET/PUT /application/settings: every setting under GitLab's name
// and, where the spec spells it with a placeholder, under that name too; the deprecated names
// GitLab still returns; derived fields (default_branch_protection, the housekeeping periods).
// Write-only secrets are left out (or null where GitLab lists the key).
func ApplicationSettings(v settings.View) map[string]any {
	out := make(map[string]any, 2*len(settings.Fields))
	for _, f := range settings.Fields {
		if f.WriteOnly {
			continue
		}
		val := settingValue(f, v.Values[f.Name])
		if f.NullOnRead {
			val = nil
		}
		out[f.Name] = val
		if f.Alias != "" {
			out[f.Alias] = val
		}
	}
	for alias, name := range settings.ReadAliases {
		out[alias] = out[name]
	}
	protection, _ := v.Values["default_branch_protection_defaults"].(settings.BranchProtection)
	out[settings.DefaultBranchProtection] = settings.LevelForProtection(protection)
	out["default_branch_protection_defaults"] = protectionJSON(protection)
	out["repository_storages_weighted"] = storageWeights(v)
	period := out["housekeeping_optimize_repository_period"]
	out["housekeeping_full_repack_period"] = period
	out["housekeeping_gc_period"] = period
	out["housekeeping_incremental_repack_period"] = period
	out["housekeeping_bitmaps_enabled"] = true
	out["id"] = 1
	out["created_at"] = Time(v.CreatedAt)
	out["updated_at"] = Time(v.UpdatedAt)
	return out
}

// settingValue renders one value: numbers keep a decimal point (GitLab's float columns),
// decimals are strings as Rails encodes them ("1.0"), optional values are null.
func settingValue(f settings.Field, v any) any {
	switch x := v.(type) {
	case *int:
		if x == nil {
			return nil
		}
		return *x
	case *string:
		if x == nil {
			return nil
		}
		return *x
	case float64:
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		if f.Decimal {
			return s
		}
		return json.Number(s)
	}
	return v
}

// protectionJSON is default_branch_protection_defaults as GitLab returns it;
// developer_can_initial_push appears when it is set.
func protectionJSON(p settings.BranchProtection) map[string]any {
	levels := func(l []settings.AccessLevelRef) []map[string]int {
		out := make([]map[string]int, 0, len(l))
		for _, r := range l {
			out = append(out, map[string]int{"access_level": r.AccessLevel})
		}
		return out
	}
	out := map[string]any{
		"allowed_to_push":  levels(p.AllowedToPush),
		"allow_force_push": p.AllowForcePush,
		"allowed_to_merge": levels(p.AllowedToMerge),
	}
	if p.DeveloperCanInitialPush {
		out["developer_can_initial_push"] = true
	}
	return out
}

// storageWeights lists every configured storage with its weight (0 when it has none), as
// GitLab's repository_storages_with_default_weight.
func storageWeights(v settings.View) map[string]int {
	weights, _ := v.Values["repository_storages_weighted"].(map[string]int)
	if len(v.Storages) == 0 {
		return weights
	}
	out := make(map[string]int, len(v.Storages))
	for _, name := range v.Storages {
		out[name] = weights[name]
	}
	return out
}
