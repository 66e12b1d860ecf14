package presenter

import (
	"strconv"

	"anvil/internal/registry"
	"anvil/internal/service/containerregistry"
)

// registryHost is the host image names start with.
func (p *Presenter) registryHost() string {
	if p.RegistryHost != "" {
		return p.RegistryHost
	}
	return p.host()
}

// ContainerRepository is GitLab's ContainerRegistry::Repository entity. tags_count, tags and
// size appear when asked for; delete_api_path when the caller may delete the repository.
type ContainerRepository struct {
	ID                     int             `json:"id"`
	Name                   string          `json:"name"`
	Path                   string          `json:"path"`
	ProjectID              int             `json:"project_id"`
	Location               string          `json:"location"`
	CreatedAt              Time            `json:"created_at"`
	CleanupPolicyStartedAt *Time           `json:"cleanup_policy_started_at"`
	TagsCount              *int            `json:"tags_count,omitempty"`
	Tags                   *[]ContainerTag `json:"tags,omitempty"`
	DeleteAPIPath          string          `json:"delete_api_path,omitempty"`
	Size                   *int64          `json:"size,omitempty"`
	Status                 *string         `json:"status"`
}

// ContainerRepository renders a repository with the optional fields inc asks for.
func (p *Presenter) ContainerRepository(r *containerregistry.Repository, inc containerregistry.Include) *ContainerRepository {
	out := &ContainerRepository{
		ID: r.ID, Name: r.Name, Path: r.Path, ProjectID: r.ProjectID,
		Location:               p.registryHost() + "/" + r.Path,
		CreatedAt:              Time(r.CreatedAt),
		CleanupPolicyStartedAt: TimePtr(r.ExpirationPolicyStartedAt),
	}
	if inc.TagsCount {
		n := len(r.Tags)
		out.TagsCount = &n
	}
	if inc.Tags {
		tags := p.ContainerTags(r, r.Tags)
		out.Tags = &tags
	}
	if r.CanAdmin {
		out.DeleteAPIPath = p.BaseURL + "/api/v4/projects/" + strconv.Itoa(r.ProjectID) + "/registry/repositories/" + strconv.Itoa(r.ID)
	}
	if inc.Size {
		var size int64
		if r.Size != nil {
			size = *r.Size
		}
		out.Size = &size
	}
	if r.Status != nil {
		s := string(*r.Status)
		out.Status = &s
	}
	return out
}

// ContainerRepositories renders a list of repositories.
func (p *Presenter) ContainerRepositories(rs []*containerregistry.Repository, inc containerregistry.Include) []*ContainerRepository {
	out := make([]*ContainerRepository, len(rs))
	for i, r := range rs {
		out[i] = p.ContainerRepository(r, inc)
	}
	return out
}

// ContainerTag is GitLab's ContainerRegistry::Tag entity (the list form).
type ContainerTag struct {
	Name     string `json:"name"`
	Path     string `json:"path"`
	Location string `json:"location"`
}

// ContainerTag renders a tag of r in the list form.
func (p *Presenter) ContainerTag(r *containerregistry.Repository, name string) ContainerTag {
	path := r.Path + ":" + name
	return ContainerTag{Name: name, Path: path, Location: p.registryHost() + "/" + path}
}

// ContainerTags renders tags in the list form.
func (p *Presenter) ContainerTags(r *containerregistry.Repository, names []string) []ContainerTag {
	out := make([]ContainerTag, len(names))
	for i, n := range names {
		out[i] = p.ContainerTag(r, n)
	}
	return out
}

// ContainerTagDetails is GitLab's ContainerRegistry::TagDetails entity.
type ContainerTagDetails struct {
	ContainerTag
	Revision      *string `json:"revision"`
	ShortRevision *string `json:"short_revision"`
	Digest        *string `json:"digest"`
	CreatedAt     *Time   `json:"created_at"`
	TotalSize     *int64  `json:"total_size"`
}

// ContainerTagDetails renders a tag's details.
func (p *Presenter) ContainerTagDetails(r *containerregistry.Repository, t *registry.TagInfo) *ContainerTagDetails {
	out := &ContainerTagDetails{ContainerTag: p.ContainerTag(r, t.Name), Digest: strPtrOrNil(t.Digest),
		CreatedAt: TimePtr(t.CreatedAt), TotalSize: t.TotalSize}
	if t.Revision != "" {
		short := t.Revision[:min(9, len(t.Revision))]
		out.Revision, out.ShortRevision = &t.Revision, &short
	}
	return out
}
