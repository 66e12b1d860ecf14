package containerregistry

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/containerrepository"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// Repository is an image repository as the API presents it.
type Repository struct {
	*ent.ContainerRepository
	// Project is the repository's project, with its namespace.
	Project *ent.Project
	// Tags are the tag names (sorted) when asked for (tags or tags_count).
	Tags []string
	// Size is the deduplicated size of its images when asked for.
	Size *int64
	// CanAdmin: the caller may delete it (delete_api_path is shown).
	CanAdmin bool
}

// Include says what a repository read adds to each repository.
type Include struct {
	Tags      bool // tags (the tag list)
	TagsCount bool // tags_count
	Size      bool // size
}

// ListProject returns a page of the image repositories of the project ref names
// (read_container_image), oldest first.
func (s *Service) ListProject(ctx context.Context, actor *authz.Actor, ref string, inc Include, page pagination.Offset) (pagination.Result[*Repository], error) {
	p, level, readable, err := s.Projects.LookupLevel(ctx, actor, ref)
	if err != nil {
		return pagination.Result[*Repository]{}, err
	}
	if err := authz.Check(actor, p, level, readable, authz.ReadContainerImage); err != nil {
		return pagination.Result[*Repository]{}, err
	}
	q := db.ClientFrom(ctx, s.client).ContainerRepository.Query().Where(containerrepository.ProjectID(p.ID))
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return pagination.Result[*Repository]{}, err
	}
	rows, err := q.Order(ent.Asc(containerrepository.FieldID)).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return pagination.Result[*Repository]{}, err
	}
	canAdmin := authz.CanProject(actor, p, level, authz.AdminContainerImage)
	items := make([]*Repository, len(rows))
	for i, r := range rows {
		items[i] = &Repository{ContainerRepository: r, Project: p, CanAdmin: canAdmin}
	}
	if err := s.include(ctx, items, inc); err != nil {
		return pagination.Result[*Repository]{}, err
	}
	return pagination.Result[*Repository]{Items: items, Total: total, Page: page}, nil
}

// ListGroup returns a page of the image repositories of the projects of the group ref names
// and its subgroups whose images the caller may read, oldest first. GitLab shows no tags here.
func (s *Service) ListGroup(ctx context.Context, actor *authz.Actor, ref string, page pagination.Offset) (pagination.Result[*Repository], error) {
	g, err := s.Groups.Find(ctx, actor, ref, authz.ReadGroup)
	if err != nil {
		return pagination.Result[*Repository]{}, err
	}
	scope, err := s.Policy.Scope(ctx, actor, authz.NoAccess)
	if err != nil {
		return pagination.Result[*Repository]{}, err
	}
	c := db.ClientFrom(ctx, s.client)
	projectIDs, err := c.Project.Query().Where(
		project.PendingDelete(false),
		project.HasNamespaceWith(authz.Subtree(g.FullPath)),
		authz.VisibleProjectsIn(actor, scope),
		authz.FeatureAvailableIn(actor, scope, authz.FeatureContainerRegistry),
	).IDs(ctx)
	if err != nil {
		return pagination.Result[*Repository]{}, err
	}
	q := c.ContainerRepository.Query().Where(containerrepository.ProjectIDIn(projectIDs...))
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return pagination.Result[*Repository]{}, err
	}
	rows, err := q.Order(ent.Asc(containerrepository.FieldID)).Offset(page.Skip()).Limit(page.Limit()).
		WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() }).All(ctx)
	if err != nil {
		return pagination.Result[*Repository]{}, err
	}
	items := make([]*Repository, len(rows))
	for i, r := range rows {
		p := r.Edges.Project
		level := authz.ProjectLevelIn(actor, scope, p)
		items[i] = &Repository{ContainerRepository: r, Project: p,
			CanAdmin: authz.CanProject(actor, p, level, authz.AdminContainerImage)}
	}
	return pagination.Result[*Repository]{Items: items, Total: total, Page: page}, nil
}

// Get returns the image repository with the given id (GET /registry/repositories/:id) if the
// caller may read its images: 404 when it does not exist or its project is hidden from the
// caller, 403 when the caller sees the project but not its registry.
func (s *Service) Get(ctx context.Context, actor *authz.Actor, id int, inc Include) (*Repository, error) {
	r, err := db.ClientFrom(ctx, s.client).ContainerRepository.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	if err != nil {
		return nil, err
	}
	repo, err := s.open(ctx, actor, strconv.Itoa(r.ProjectID), r, authz.ReadContainerImage)
	if apperr.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	if err != nil {
		return nil, err
	}
	if err := s.include(ctx, []*Repository{repo}, inc); err != nil {
		return nil, err
	}
	return repo, nil
}

// find returns the repository id of the project ref names if the caller has ability on the
// project's images: 404 Project Not Found, 403, then 404 Not Found for an unknown repository.
func (s *Service) find(ctx context.Context, actor *authz.Actor, ref string, id int, ability authz.Ability) (*Repository, error) {
	p, level, readable, err := s.Projects.LookupLevel(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	if err := authz.Check(actor, p, level, readable, ability); err != nil {
		return nil, err
	}
	r, err := db.ClientFrom(ctx, s.client).ContainerRepository.Query().
		Where(containerrepository.ID(id), containerrepository.ProjectID(p.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	if err != nil {
		return nil, err
	}
	return &Repository{ContainerRepository: r, Project: p,
		CanAdmin: authz.CanProject(actor, p, level, authz.AdminContainerImage)}, nil
}

// open checks ability on the project of r and wraps r.
func (s *Service) open(ctx context.Context, actor *authz.Actor, projectRef string, r *ent.ContainerRepository, ability authz.Ability) (*Repository, error) {
	p, level, readable, err := s.Projects.LookupLevel(ctx, actor, projectRef)
	if err != nil {
		return nil, err
	}
	if err := authz.Check(actor, p, level, readable, ability); err != nil {
		return nil, err
	}
	return &Repository{ContainerRepository: r, Project: p,
		CanAdmin: authz.CanProject(actor, p, level, authz.AdminContainerImage)}, nil
}

// include reads what inc asks for from the registry.
func (s *Service) include(ctx context.Context, items []*Repository, inc Include) error {
	for _, r := range items {
		if inc.Tags || inc.TagsCount {
			tags, err := s.Registry.Tags(ctx, r.Path)
			if err != nil {
				return err
			}
			r.Tags = tags
		}
		if inc.Size {
			size, err := s.Registry.Size(ctx, r.Path)
			if err != nil {
				return err
			}
			r.Size = &size
		}
	}
	return nil
}

// Delete schedules the deletion of a project's image repository (destroy_container_image):
// its status becomes delete_scheduled and a job removes its images and then the row. GitLab
// answers 202 Accepted.
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, ref string, id int) error {
	r, err := s.find(ctx, actor, ref, id, authz.DestroyContainerImage)
	if err != nil {
		return err
	}
	return db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		n, err := tx.ContainerRepository.Update().
			Where(containerrepository.ID(r.ID), containerrepository.StatusIsNil()).
			SetStatus(containerrepository.StatusDeleteScheduled).Save(ctx)
		if err != nil || n == 0 { // already scheduled: the job queued then does it
			return err
		}
		return s.Jobs.Enqueue(ctx, DeleteRepositoryJob{RepositoryID: r.ID})
	})
}

// DeleteRepository works a DeleteRepositoryJob: the repository's status becomes
// delete_ongoing, its images leave the registry, then its row goes. Running it again, or for a
// repository already gone, is harmless.
func (s *Service) DeleteRepository(ctx context.Context, job DeleteRepositoryJob) error {
	r, err := s.client.ContainerRepository.Get(ctx, job.RepositoryID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := s.client.ContainerRepository.UpdateOneID(r.ID).SetStatus(containerrepository.StatusDeleteOngoing).Exec(ctx); err != nil {
		return err
	}
	if err := s.Registry.DeleteRepository(ctx, r.Path); err != nil {
		return err
	}
	if err := s.client.ContainerRepository.DeleteOneID(r.ID).Exec(ctx); err != nil && !ent.IsNotFound(err) {
		return err
	}
	return s.Jobs.Enqueue(ctx, GarbageCollectJob{})
}
