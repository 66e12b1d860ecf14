package projects

import (
	"context"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/routes"
)

// LookupLevelFollowing is LookupLevel that also finds a project by an old full path it was
// renamed or transferred from (GitLab's follow_redirects): git over HTTP serves the old URL of a
// moved project as its new one. A live project at the path always wins.
func (s *Service) LookupLevelFollowing(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, authz.Level, bool, error) {
	p, level, readable, err := s.LookupLevel(ctx, actor, ref)
	if !apperr.IsNotFound(err) || !strings.Contains(ref, "/") {
		return p, level, readable, err
	}
	id, ok, rerr := routes.Resolve(ctx, db.ClientFrom(ctx, s.client), routes.Project, ref)
	if rerr != nil {
		return nil, authz.NoAccess, false, rerr
	}
	if !ok {
		return nil, authz.NoAccess, false, err
	}
	return s.LookupLevel(ctx, actor, strconv.Itoa(id))
}

// Moved reports the id of the project an old full path ref now names, when no project lives at
// ref and the actor may read the moved one. The REST API answers requests by such a path as
// GitLab does: a GET is redirected to the project's id, anything else refused.
func (s *Service) Moved(ctx context.Context, actor *authz.Actor, ref string) (int, bool, error) {
	if !strings.Contains(ref, "/") {
		return 0, false, nil
	}
	if _, err := s.Lookup(ctx, ref); !apperr.IsNotFound(err) {
		return 0, false, err
	}
	id, ok, err := routes.Resolve(ctx, db.ClientFrom(ctx, s.client), routes.Project, ref)
	if err != nil || !ok {
		return 0, false, err
	}
	p, err := s.Lookup(ctx, strconv.Itoa(id))
	if apperr.IsNotFound(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	_, readable, err := s.policy.ProjectLevel(ctx, actor, p)
	if err != nil || !readable {
		return 0, false, err
	}
	return p.ID, true, nil
}
