package presenter

import (
	"strings"

	"anvil/ent"
	"anvil/internal/service/projects"
)

// ProjectRepositoryStorageMove is GitLab's Projects::RepositoryStorageMove entity.
type ProjectRepositoryStorageMove struct {
	ID                     int             `json:"id"`
	CreatedAt              Time            `json:"created_at"`
	State                  string          `json:"state"`
	SourceStorageName      string          `json:"source_storage_name"`
	DestinationStorageName string          `json:"destination_storage_name"`
	Project                ProjectIdentity `json:"project"`
}

// StorageMove renders a move (its project and namespace loaded). state is GitLab's human state
// name: "cleanup failed", not cleanup_failed.
func (p *Presenter) StorageMove(m *ent.ProjectRepositoryStorageMove, v *projects.View) ProjectRepositoryStorageMove {
	out := ProjectRepositoryStorageMove{
		ID: m.ID, CreatedAt: Time(m.CreatedAt), State: strings.ReplaceAll(string(m.State), "_", " "),
		SourceStorageName: m.SourceStorageName, DestinationStorageName: m.DestinationStorageName,
	}
	if pr := m.Edges.Project; pr != nil {
		out.Project = p.ProjectIdentity(pr, v)
	}
	return out
}

// StorageMoves renders a page of moves.
func (p *Presenter) StorageMoves(ms []*ent.ProjectRepositoryStorageMove, v *projects.View) []ProjectRepositoryStorageMove {
	out := make([]ProjectRepositoryStorageMove, len(ms))
	for i, m := range ms {
		out[i] = p.StorageMove(m, v)
	}
	return out
}
