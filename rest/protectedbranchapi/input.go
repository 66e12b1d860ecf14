package protectedbranchapi

import (
	"fmt"
	"slices"

	"anvil/internal/apperr"
	"anvil/internal/service/protectedbranches"
	"anvil/rest/params"
)

// createInput binds POST /projects/:id/protected_branches: name (required), push_access_level,
// merge_access_level, unprotect_access_level, allow_force_push, code_owner_approval_required
// and the allowed_to_push / allowed_to_merge / allowed_to_unprotect arrays.
func createInput(b *params.Binder) (protectedbranches.CreateInput, error) {
	b.Require("name")
	in := protectedbranches.CreateInput{
		Name:                      b.StringDefault("name", ""),
		PushAccessLevel:           level(b, "push_access_level", protectedbranches.PushLevels),
		MergeAccessLevel:          level(b, "merge_access_level", protectedbranches.MergeLevels),
		UnprotectAccessLevel:      level(b, "unprotect_access_level", protectedbranches.UnprotectLevels),
		AllowForcePush:            b.BoolDefault("allow_force_push", false),
		CodeOwnerApprovalRequired: b.BoolDefault("code_owner_approval_required", false),
		AllowedToPush:             entries(b, "allowed_to_push", protectedbranches.PushLevels, true),
		AllowedToMerge:            entries(b, "allowed_to_merge", protectedbranches.MergeLevels, false),
		AllowedToUnprotect:        entries(b, "allowed_to_unprotect", protectedbranches.UnprotectLevels, false),
	}
	return in, b.Err()
}

// updateInput binds PATCH /projects/:id/protected_branches/:name: allow_force_push,
// code_owner_approval_required and the allowed_to_* arrays (entries with id change or, with
// _destroy, remove existing ones).
func updateInput(b *params.Binder) (protectedbranches.UpdateInput, error) {
	in := protectedbranches.UpdateInput{
		AllowForcePush:            b.Bool("allow_force_push"),
		CodeOwnerApprovalRequired: b.Bool("code_owner_approval_required"),
		AllowedToPush:             entries(b, "allowed_to_push", protectedbranches.PushLevels, true),
		AllowedToMerge:            entries(b, "allowed_to_merge", protectedbranches.MergeLevels, false),
		AllowedToUnprotect:        entries(b, "allowed_to_unprotect", protectedbranches.UnprotectLevels, false),
	}
	return in, b.Err()
}

// level reads an access level restricted to allowed (Grape's values: check).
func level(b *params.Binder, name string, allowed []int) *int {
	v := b.Int(name)
	if v != nil && !slices.Contains(allowed, *v) {
		b.Fail(name + " does not have a valid value")
		return nil
	}
	return v
}

// entries reads an allowed_to_* array of {access_level | user_id | group_id | deploy_key_id,
// id, _destroy} hashes; errors name the element as Grape does (allowed_to_push[0][user_id]).
// deploy_key_id is only declared for push entries.
func entries(b *params.Binder, name string, allowed []int, push bool) []protectedbranches.AccessInput {
	objs := b.Objects(name)
	if objs == nil {
		return nil
	}
	out := make([]protectedbranches.AccessInput, 0, len(objs))
	for i, m := range objs {
		key := func(k string) string { return fmt.Sprintf("%s[%d][%s]", name, i, k) }
		tree := params.Tree{}
		for k, v := range m {
			tree[key(k)] = v
		}
		sb := params.NewBinder(tree, nil)
		e := protectedbranches.AccessInput{
			ID:          sb.Int(key("id")),
			AccessLevel: level(sb, key("access_level"), allowed),
			UserID:      sb.Int(key("user_id")),
			GroupID:     sb.Int(key("group_id")),
			Destroy:     sb.BoolDefault(key("_destroy"), false),
		}
		if push {
			e.DeployKeyID = sb.Int(key("deploy_key_id"))
		}
		if err := sb.Err(); err != nil {
			if ae, ok := apperr.As(err); ok {
				b.Fail(ae.Message)
			}
			continue
		}
		out = append(out, e)
	}
	return out
}
