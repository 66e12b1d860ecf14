package groupapi

import (
	"sort"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/pagination"
	"anvil/internal/service/groups"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/presenter"
)

// optInt reads an optional integer, treating an empty value as absent (as Grape coerces "").
func optInt(b *params.Binder, name string) *int {
	if s := b.String(name); s == nil || *s == "" {
		return nil
	}
	return b.Int(name)
}

// bindSettings reads the group settings POST and PUT accept. emails_disabled is the older
// spelling of emails_enabled and wins when both are given, as in GitLab.
func bindSettings(b *params.Binder) groups.Settings {
	s := groups.Settings{
		ProjectCreationLevel:  b.Enum("project_creation_level", groups.ProjectCreationLevels...),
		SubgroupCreationLevel: b.Enum("subgroup_creation_level", groups.SubgroupCreationLevels...),
		RequestAccessEnabled:  b.Bool("request_access_enabled"),
		ShareWithGroupLock:    b.Bool("share_with_group_lock"),
		RequireTwoFactorAuth:  b.Bool("require_two_factor_authentication"),
		TwoFactorGracePeriod:  optInt(b, "two_factor_grace_period"),
		LFSEnabled:            b.Bool("lfs_enabled"),
		EmailsEnabled:         b.Bool("emails_enabled"),
		MentionsDisabled:      b.Bool("mentions_disabled"),
		DefaultBranch:         b.String("default_branch"),
		AutoDevopsEnabled:     b.Bool("auto_devops_enabled"),
		MembershipLock:        b.Bool("membership_lock"),
		SharedRunnersSetting:  b.Enum("shared_runners_setting", groups.SharedRunnersSettings...),
	}
	if d := b.Bool("emails_disabled"); d != nil {
		enabled := !*d
		s.EmailsEnabled = &enabled
	}
	return s
}

// bindList reads the parameters shared by GET /groups, /subgroups and /descendant_groups.
func bindList(b *params.Binder, a *authz.Actor) (groups.ListParams, groups.Order, pagination.Page, presenter.GroupOptions, error) {
	p := groups.ListParams{
		AllAvailable: b.Bool("all_available"),
		Owned:        b.BoolDefault("owned", false),
		TopLevelOnly: b.BoolDefault("top_level_only", false),
		Search:       b.StringDefault("search", ""),
		SkipGroups:   b.Ints("skip_groups"),
		// custom_attributes filters for administrators; the service ignores it for others.
		CustomAttributes: b.Hash("custom_attributes"),
	}
	if v := b.Enum("visibility", groups.Visibilities...); v != nil {
		p.Visibility = *v
	}
	if l := b.Int("min_access_level"); l != nil {
		if !authz.ValidMemberLevel(*l) {
			b.Fail("min_access_level does not have a valid value")
		}
		p.MinAccessLevel = *l
	}
	o := groups.Order{By: "name", Sort: "asc"}
	if v := b.Enum("order_by", "name", "path", "id", "similarity"); v != nil {
		o.By = *v
	}
	if v := b.Enum("sort", "asc", "desc"); v != nil {
		o.Sort = *v
	}
	opts := presenter.GroupOptions{
		Statistics:       b.BoolDefault("statistics", false) && a.IsAdmin(),
		CustomAttributes: b.BoolDefault("with_custom_attributes", false) && a.IsAdmin(),
	}
	page := httpx.BindPage(b, "cursor")
	return p, o, page, opts, b.Err()
}

// saveErrorOrder is the order GitLab's model reports attributes in.
var saveErrorOrder = []string{"parent_id", "name", "path", "description", "visibility_level",
	"two_factor_grace_period", "shared_runners_enabled", "allow_descendants_override_disabled_shared_runners",
	"share_with_group_lock"}

// failedToSave turns a validation error of POST /groups into GitLab's message, which prints the
// model errors as a Ruby hash: {"message":"Failed to save group {:path=>[\"has already been taken\"]}"}.
func failedToSave(err error) error {
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.KindValidation {
		return err
	}
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		for i, o := range saveErrorOrder {
			if o == k {
				return i
			}
		}
		return len(saveErrorOrder)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if rank(keys[i]) != rank(keys[j]) {
			return rank(keys[i]) < rank(keys[j])
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		msgs := make([]string, len(e.Fields[k]))
		for j, m := range e.Fields[k] {
			msgs[j] = rubyString(m)
		}
		parts[i] = ":" + k + "=>[" + strings.Join(msgs, ", ") + "]"
	}
	return apperr.Refused("Failed to save group {" + strings.Join(parts, ", ") + "}")
}

// rubyString is Ruby's String#inspect for the messages GitLab produces.
func rubyString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`, "#{", `\#{`)
	return `"` + r.Replace(s) + `"`
}
