package containerregistry

import (
	"context"
	"errors"
	"regexp"
	"sort"
	"time"

	"anvil/ent"
	"anvil/ent/containerrepository"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/registry"
)

// CleanupParams are the rules of a bulk tag deletion (DELETE .../tags), in GitLab's names.
type CleanupParams struct {
	// NameRegexDelete (name_regex_delete, or the deprecated name_regex) selects the tags to
	// delete: an RE2 expression matched against the whole name.
	NameRegexDelete string `json:"name_regex_delete"`
	// NameRegexKeep (name_regex_keep) keeps the tags it matches whole, whatever else says.
	NameRegexKeep string `json:"name_regex_keep,omitempty"`
	// KeepN (keep_n) keeps that many of the newest matching tags.
	KeepN *int `json:"keep_n,omitempty"`
	// OlderThan (older_than) deletes only tags older than this span ("1h", "7d", "1month").
	OlderThan string `json:"older_than,omitempty"`
}

// cleanupLimitMessage is GitLab's refusal of a second bulk deletion within the hour.
const cleanupLimitMessage = "This request has already been made. You can run this at most once an hour for a given container repository"

// cleanupInterval is how often a repository may be cleaned up through the API.
const cleanupInterval = time.Hour

// Validate checks the expressions (400 "<param> is an invalid regexp") and the span.
func (p CleanupParams) Validate(deleteParam string) error {
	if _, err := regexp.Compile(p.NameRegexDelete); err != nil {
		return apperr.BadParam(deleteParam + " is an invalid regexp")
	}
	if _, err := regexp.Compile(p.NameRegexKeep); err != nil {
		return apperr.BadParam("name_regex_keep is an invalid regexp")
	}
	if p.OlderThan != "" {
		if _, err := ParseSpan(p.OlderThan); err != nil {
			return apperr.Invalid("older_than")
		}
	}
	if p.KeepN != nil && *p.KeepN < 0 {
		return apperr.Invalid("keep_n")
	}
	return nil
}

// Cleanup schedules the deletion of a project repository's tags by p's rules
// (admin_container_image): at most once an hour per repository (GitLab's 400 otherwise),
// worked in the background. GitLab answers 202 Accepted.
func (s *Service) Cleanup(ctx context.Context, actor *authz.Actor, ref string, id int, p CleanupParams) error {
	r, err := s.find(ctx, actor, ref, id, authz.AdminContainerImage)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	return db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		n, err := tx.ContainerRepository.Update().Where(containerrepository.ID(r.ID),
			containerrepository.Or(containerrepository.BulkDeleteRequestedAtIsNil(),
				containerrepository.BulkDeleteRequestedAtLTE(now.Add(-cleanupInterval)))).
			SetBulkDeleteRequestedAt(now).Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return errCleanupLimit()
		}
		return s.Jobs.Enqueue(ctx, CleanupTagsJob{RepositoryID: r.ID, Params: p})
	})
}

// CleanupTags works a CleanupTagsJob: it reads the repository's tags and their creation dates
// from the registry and deletes those p's rules select. Deleting a tag that is already gone is
// harmless, so the job may run again.
func (s *Service) CleanupTags(ctx context.Context, job CleanupTagsJob) error {
	r, err := s.client.ContainerRepository.Get(ctx, job.RepositoryID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	path := r.Path
	names, err := s.Registry.Tags(ctx, path)
	if err != nil {
		return err
	}
	tags := make([]registry.TagInfo, 0, len(names))
	for _, name := range names {
		t, err := s.Registry.Tag(ctx, path, name)
		if errors.Is(err, registry.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		tags = append(tags, *t)
	}
	doomed, err := TagsToDelete(tags, job.Params, time.Now())
	if err != nil {
		return err
	}
	for _, name := range doomed {
		if err := s.Registry.DeleteTag(ctx, path, name); err != nil && !errors.Is(err, registry.ErrNotFound) {
			return err
		}
	}
	if len(doomed) > 0 {
		s.Log.InfoContext(ctx, "container repository tags deleted", "repository_id", r.ID, "path", path, "count", len(doomed))
	}
	return nil
}

// TagsToDelete applies GitLab's cleanup rules (Projects::ContainerRepository::CleanupTagsService)
// to tags, in its order: the tag "latest" is never deleted; a tag is a candidate when the
// delete expression matches its whole name and the keep expression does not; the KeepN newest
// candidates (by the image's creation date, a tag without one counting as newest) stay; of the
// rest, with OlderThan, only those created before now minus the span go. The names are
// returned sorted.
func TagsToDelete(tags []registry.TagInfo, p CleanupParams, now time.Time) ([]string, error) {
	del, err := regexp.Compile(`\A(?:` + p.NameRegexDelete + `)\z`)
	if err != nil {
		return nil, err
	}
	var keep *regexp.Regexp
	if p.NameRegexKeep != "" {
		if keep, err = regexp.Compile(`\A(?:` + p.NameRegexKeep + `)\z`); err != nil {
			return nil, err
		}
	}
	var cands []registry.TagInfo
	for _, t := range tags {
		if t.Name == "latest" || !del.MatchString(t.Name) || (keep != nil && keep.MatchString(t.Name)) {
			continue
		}
		cands = append(cands, t)
	}
	if p.KeepN != nil {
		created := func(t registry.TagInfo) time.Time {
			if t.CreatedAt == nil {
				return now
			}
			return *t.CreatedAt
		}
		sort.SliceStable(cands, func(i, j int) bool { return created(cands[i]).After(created(cands[j])) })
		cands = cands[min(*p.KeepN, len(cands)):]
	}
	if p.OlderThan != "" {
		span, err := ParseSpan(p.OlderThan)
		if err != nil {
			return nil, err
		}
		limit := now.Add(-span)
		kept := cands[:0]
		for _, t := range cands {
			if t.CreatedAt != nil && t.CreatedAt.Before(limit) {
				kept = append(kept, t)
			}
		}
		cands = kept
	}
	names := make([]string, len(cands))
	for i, t := range cands {
		names[i] = t.Name
	}
	sort.Strings(names)
	return names, nil
}

// errCleanupLimit is the refusal of a second bulk deletion within the hour.
func errCleanupLimit() error { return apperr.Refused(cleanupLimitMessage) }
