package containerregistry

import (
	"context"

	"anvil/ent"
	"anvil/ent/containerrepository"
	"anvil/internal/apperr"
)

// OnProjectDelete is the project deletion's hook (inside its transaction): the project's
// image repositories' rows go with it, and a job removes their images from the registry once
// the deletion commits; garbage collection then reclaims the blobs.
func (s *Service) OnProjectDelete(ctx context.Context, tx *ent.Client, p *ent.Project) error {
	rows, err := tx.ContainerRepository.Query().Where(containerrepository.ProjectID(p.ID)).All(ctx)
	if err != nil || len(rows) == 0 {
		return err
	}
	paths := make([]string, len(rows))
	for i, r := range rows {
		paths[i] = r.Path
	}
	if _, err := tx.ContainerRepository.Delete().Where(containerrepository.ProjectID(p.ID)).Exec(ctx); err != nil {
		return err
	}
	return s.Jobs.Enqueue(ctx, DeleteImagesJob{Paths: paths})
}

// DeleteImages works a DeleteImagesJob: each path's images leave the registry (a path that a
// repository row names again — pushed anew since — stays). Running it again is harmless.
func (s *Service) DeleteImages(ctx context.Context, job DeleteImagesJob) error {
	for _, path := range job.Paths {
		n, err := s.client.ContainerRepository.Query().Where(containerrepository.Path(path)).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			continue
		}
		if err := s.Registry.DeleteRepository(ctx, path); err != nil {
			return err
		}
	}
	return s.Jobs.Enqueue(ctx, GarbageCollectJob{})
}

// GarbageCollect works a GarbageCollectJob: image repositories the registry holds but Anvil
// never heard of (a notification lost to a crash) get their rows, then the storage nothing
// references is reclaimed (registry.CollectGarbage, keeping anything younger than GCGrace).
func (s *Service) GarbageCollect(ctx context.Context, _ GarbageCollectJob) error {
	err := s.Registry.Repositories(ctx, func(path string) error {
		_, err := s.ensureRepository(ctx, path)
		if err != nil && !apperr.IsNotFound(err) && !ent.IsNotFound(err) {
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	stats, err := s.Registry.CollectGarbage(ctx, s.GCGrace)
	if err != nil {
		return err
	}
	if stats.Blobs+stats.Manifests+stats.LayerLinks > 0 {
		s.Log.InfoContext(ctx, "container registry garbage collected", "manifests", stats.Manifests,
			"layer_links", stats.LayerLinks, "blobs", stats.Blobs, "bytes", stats.Bytes)
	}
	return nil
}
