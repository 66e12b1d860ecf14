package protectedbranches

import (
	"anvil/ent/predicate"
	"context"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/protectedbranch"
	"anvil/ent/schema"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// ListParams filter GET /projects/:id/protected_branches.
type ListParams struct {
	// Search (search) keeps the rules whose name contains this text, ignoring case.
	Search string
}

// Query returns the protection rules of the project ref names matching p, unordered. Reading
// them takes read access to the project's code (download_code), as in GitLab: 404 Project Not
// Found when the project is invisible, 403 when its code is not readable.
func (s *Service) Query(ctx context.Context, actor *authz.Actor, ref string, p ListParams) (*ent.ProtectedBranchQuery, error) {
	proj, err := s.projects.Find(ctx, actor, ref, authz.DownloadCode)
	if err != nil {
		return nil, err
	}
	q := db.ClientFrom(ctx, s.client).ProtectedBranch.Query().Where(protectedbranch.ProjectID(proj.ID))
	if p.Search != "" {
		q = q.Where(predicate.ProtectedBranch(db.ContainsFold(protectedbranch.FieldName, p.Search)))
	}
	return q, nil
}

// List is Query in id order, one offset page, with access level descriptions filled in.
func (s *Service) List(ctx context.Context, actor *authz.Actor, ref string, p ListParams, page pagination.Offset) (pagination.Result[*ent.ProtectedBranch], error) {
	var r pagination.Result[*ent.ProtectedBranch]
	q, err := s.Query(ctx, actor, ref, p)
	if err != nil {
		return r, err
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return r, err
	}
	rows, err := q.Order(ent.Asc(protectedbranch.FieldID)).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return r, err
	}
	if err := s.describe(ctx, rows...); err != nil {
		return r, err
	}
	return pagination.Result[*ent.ProtectedBranch]{Items: rows, Total: total, Page: page}, nil
}

// Get returns the rule named name (exactly, wildcards included) of the project ref names:
// 404 "404 Not found" when there is none.
func (s *Service) Get(ctx context.Context, actor *authz.Actor, ref, name string) (*ent.ProtectedBranch, error) {
	proj, err := s.projects.Find(ctx, actor, ref, authz.DownloadCode)
	if err != nil {
		return nil, err
	}
	pb, err := s.byName(ctx, proj.ID, name)
	if err != nil {
		return nil, err
	}
	return pb, s.describe(ctx, pb)
}

// byName finds a project's rule by exact name.
func (s *Service) byName(ctx context.Context, projectID int, name string) (*ent.ProtectedBranch, error) {
	pb, err := db.ClientFrom(ctx, s.client).ProtectedBranch.Query().
		Where(protectedbranch.ProjectID(projectID), protectedbranch.Name(name)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return pb, err
}

// roleNames are GitLab's descriptions of role rules.
var roleNames = map[int]string{
	int(authz.NoAccess):   "No one",
	int(authz.Developer):  "Developers + Maintainers",
	int(authz.Maintainer): "Maintainers",
	int(authz.Admin):      "Instance admins",
}

// Describe fills in the access level descriptions of rules read elsewhere (the approval rules
// that show their protected branches).
func (s *Service) Describe(ctx context.Context, rows ...*ent.ProtectedBranch) error {
	if len(rows) == 0 {
		return nil
	}
	return s.describe(ctx, rows...)
}

// describe fills access_level_description of every rule of rows: the role's name, or the name
// of the user or group it names (GitLab's humanize).
func (s *Service) describe(ctx context.Context, rows ...*ent.ProtectedBranch) error {
	var userIDs, groupIDs []int
	for _, pb := range rows {
		for _, l := range [][]schema.AccessRule{pb.PushAccessLevels, pb.MergeAccessLevels, pb.UnprotectAccessLevels} {
			for _, r := range l {
				if r.UserID != nil {
					userIDs = append(userIDs, *r.UserID)
				} else if r.GroupID != nil {
					groupIDs = append(groupIDs, *r.GroupID)
				}
			}
		}
	}
	c := db.ClientFrom(ctx, s.client)
	users, groups := map[int]string{}, map[int]string{}
	if len(userIDs) > 0 {
		us, err := c.User.Query().Where(user.IDIn(userIDs...)).Select(user.FieldID, user.FieldName).All(ctx)
		if err != nil {
			return err
		}
		for _, u := range us {
			users[u.ID] = u.Name
		}
	}
	if len(groupIDs) > 0 {
		gs, err := c.Namespace.Query().Where(namespace.IDIn(groupIDs...)).Select(namespace.FieldID, namespace.FieldName).All(ctx)
		if err != nil {
			return err
		}
		for _, g := range gs {
			groups[g.ID] = g.Name
		}
	}
	for _, pb := range rows {
		for _, l := range [][]schema.AccessRule{pb.PushAccessLevels, pb.MergeAccessLevels, pb.UnprotectAccessLevels} {
			for i := range l {
				l[i].Description = description(l[i], users, groups)
			}
		}
	}
	return nil
}

// description is one rule's human description.
func description(r schema.AccessRule, users, groups map[int]string) string {
	switch {
	case r.UserID != nil:
		if n, ok := users[*r.UserID]; ok {
			return n
		}
		return "User"
	case r.GroupID != nil:
		if n, ok := groups[*r.GroupID]; ok {
			return n
		}
		return "Group"
	case r.DeployKeyID != nil:
		return "Deploy key"
	}
	return roleNames[r.AccessLevel]
}
