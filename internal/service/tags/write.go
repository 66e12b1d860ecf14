package tags

import (
	"context"
	"errors"
	"strings"
	"time"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/refs"
	"anvil/internal/service/repos"
)

// CreateInput is POST /projects/:id/repository/tags.
type CreateInput struct {
	// TagName is the new tag's name (tag_name).
	TagName string
	// Ref is what it tags: a branch, tag or commit id (ref).
	Ref string
	// Message makes an annotated tag tagged by the caller (message); surrounding whitespace is
	// dropped, and an empty message makes a lightweight tag.
	Message string
}

// Create tags in.Ref as in.TagName in the project ref names, with GitLab's checks in its order:
// push access (403), a valid name (400 "Tag name invalid"), an existing target (400 "Target
// <ref> is invalid"), a free name (400 "Tag <name> already exists"). Name and ref are
// validated before any git process. The push is recorded like any other.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, projectRef string, in CreateInput) (*ent.Project, *git.Tag, error) {
	p, repo, err := s.open.Write(ctx, actor, projectRef)
	if err != nil {
		return nil, nil, err
	}
	if !refs.ValidTagName(in.TagName) {
		return nil, nil, apperr.Refused("Tag name invalid")
	}
	badTarget := apperr.Refused("Target " + in.Ref + " is invalid")
	if git.ValidateRevision(in.Ref) != nil {
		return nil, nil, badTarget
	}
	target, err := repo.ResolveRevision(ctx, in.Ref)
	if err != nil {
		if missing(err) || errors.Is(err, git.ErrInvalidObjectID) {
			return nil, nil, badTarget
		}
		return nil, nil, err
	}
	exists := apperr.Refused("Tag " + in.TagName + " already exists")
	if _, err := repo.Tag(ctx, in.TagName); err == nil {
		return nil, nil, exists
	}
	opts := git.CreateTagOptions{Name: in.TagName, Target: target, Message: strings.TrimSpace(in.Message)}
	if opts.Message != "" {
		opts.Tagger = refs.Signature(actor)
	}
	value, err := repo.CreateTag(ctx, opts)
	if err != nil {
		switch {
		case errors.Is(err, git.ErrReferenceExists), errors.Is(err, git.ErrStaleRef):
			return nil, nil, exists
		case errors.Is(err, git.ErrInvalidArgument):
			return nil, nil, apperr.Refused("Invalid tagger")
		}
		return nil, nil, err
	}
	s.repos.RecordRefUpdates(ctx, actor, p, repo, false, repos.RefUpdate{Old: git.ZeroOID, New: value, Ref: git.TagRef(in.TagName)})
	t, err := find(ctx, repo, in.TagName)
	if err != nil {
		return nil, nil, err
	}
	return p, t, nil
}

// Delete removes the tag name of the project ref names: 404 Tag Not Found first (an invalid
// name names no tag), then push access (403, GitLab's delete_tag), If-Unmodified-Since against
// the tagged commit's authored date (412). The ref is removed only if it still points where it
// was read.
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, projectRef, name string, unmodifiedSince *time.Time) error {
	if actor.IsAnonymous() {
		return apperr.Unauthorized()
	}
	p, repo, err := s.open.Read(ctx, actor, projectRef)
	if err != nil {
		return err
	}
	t, err := find(ctx, repo, name)
	if err != nil {
		return err
	}
	if err := s.open.Policy.Project(ctx, actor, p, authz.PushCode); err != nil {
		return err
	}
	if err := refs.CheckUnmodifiedSince(unmodifiedSince, t.Commit); err != nil {
		return err
	}
	if err := s.repos.UpdateRefs(ctx, actor, p, repo, false, git.RefUpdate{Name: git.TagRef(name), NewOID: git.ZeroOID, OldOID: t.ID}); err != nil {
		if errors.Is(err, git.ErrStaleRef) || errors.Is(err, git.ErrReferenceNotFound) {
			return apperr.Refused("Failed to remove tag")
		}
		return err
	}
	return nil
}
