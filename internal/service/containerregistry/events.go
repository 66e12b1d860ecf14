package containerregistry

import (
	"context"
	"strings"

	"anvil/ent"
	"anvil/ent/containerrepository"
	"anvil/internal/apperr"
	"anvil/internal/db"
)

// Event is one registry notification Anvil acts on: a manifest pushed to, or deleted from, an
// image repository.
type Event struct {
	Action     string // "push" or "delete"
	Repository string // the image path
	MediaType  string // the target's media type
	Tag        string
	Digest     string
}

// manifestTypes are the media types of manifests (blob events carry octet-stream).
func isManifest(mediaType string) bool {
	return strings.Contains(mediaType, "manifest") || strings.Contains(mediaType, "image.index")
}

// RecordEvents applies the registry's notifications: a pushed manifest makes its image
// repository appear in the project's registry (once). Events about paths no project owns, and
// repeated deliveries, change nothing.
func (s *Service) RecordEvents(ctx context.Context, events []Event) error {
	for _, e := range events {
		if e.Action != "push" || !isManifest(e.MediaType) {
			continue
		}
		if _, err := s.ensureRepository(ctx, e.Repository); err != nil && !apperr.IsNotFound(err) && !ent.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// ensureRepository returns the row of the image repository at path, creating it when the
// path belongs to a project (GitLab's find_or_create_from_path).
func (s *Service) ensureRepository(ctx context.Context, path string) (*ent.ContainerRepository, error) {
	p, name, err := s.projectOf(ctx, path)
	if err != nil {
		return nil, err
	}
	c := db.ClientFrom(ctx, s.client)
	find := func() (*ent.ContainerRepository, error) {
		return c.ContainerRepository.Query().Where(containerrepository.Path(path)).Only(ctx)
	}
	r, err := find()
	if err == nil || !ent.IsNotFound(err) {
		return r, err
	}
	r, err = c.ContainerRepository.Create().SetProjectID(p.ID).SetName(name).SetPath(path).Save(ctx)
	if ent.IsConstraintError(err) { // a concurrent delivery created it
		return find()
	}
	return r, err
}
