// Package protectedbranches holds branch protection: the operations of GitLab's protected
// branches API (/projects/:id/protected_branches), and the checks every ref update must pass
// whether it arrives by git push or through the branches, commits and files APIs (CanPush,
// CanForcePush, CanDelete, CheckPush).
package protectedbranches

import (
	"context"
	"strings"

	"anvil/ent"
	"anvil/ent/protectedbranch"
	"anvil/ent/pushevent"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/projects"
	"anvil/internal/service/settings"
	"anvil/internal/service/wire"
)

// Service is the protected branch service.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	projects *projects.Service
	settings *settings.Service
	// externalURL is the instance's base URL, named in some push refusals.
	externalURL string
}

// New returns the protected branch service; externalURL is the instance's base URL.
func New(client *ent.Client, policy *authz.Policy, p *projects.Service, st *settings.Service, externalURL string) *Service {
	wire.Require("protectedbranches", wire.D("client", client), wire.D("policy", policy),
		wire.D("projects", p), wire.D("settings", st))
	return &Service{client: client, policy: policy, projects: p, settings: st, externalURL: externalURL}
}

// OnProjectDelete is a projects.DeleteHook: a project's protection rules and push records go
// with it, inside the deletion's transaction.
func (s *Service) OnProjectDelete(ctx context.Context, c *ent.Client, p *ent.Project) error {
	if _, err := c.ProtectedBranch.Delete().Where(protectedbranch.ProjectID(p.ID)).Exec(ctx); err != nil {
		return err
	}
	_, err := c.PushEvent.Delete().Where(pushevent.ProjectID(p.ID)).Exec(ctx)
	return err
}

// rules returns a project's protection rules in id order.
func (s *Service) rules(ctx context.Context, projectID int) ([]*ent.ProtectedBranch, error) {
	return db.ClientFrom(ctx, s.client).ProtectedBranch.Query().
		Where(protectedbranch.ProjectID(projectID)).Order(ent.Asc(protectedbranch.FieldID)).All(ctx)
}

// Match reports whether the protected branch name pattern (where each '*' stands for any run
// of characters, slashes included, as in GitLab) matches the branch name.
func Match(pattern, branch string) bool {
	if !strings.Contains(pattern, "*") {
		return pattern == branch
	}
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(branch, parts[0]) {
		return false
	}
	rest := branch[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, mid)
		if i < 0 {
			return false
		}
		rest = rest[i+len(mid):]
	}
	return len(rest) >= len(last) && strings.HasSuffix(rest, last)
}

// matching returns the rules among rules whose name matches branch.
func matching(rules []*ent.ProtectedBranch, branch string) []*ent.ProtectedBranch {
	var out []*ent.ProtectedBranch
	for _, r := range rules {
		if Match(r.Name, branch) {
			out = append(out, r)
		}
	}
	return out
}
