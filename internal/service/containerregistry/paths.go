package containerregistry

import (
	"context"
	"strings"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/service/projects"

	"github.com/distribution/reference"
)

// maxPathComponents bounds the project lookups one image path may cost (GitLab's registry
// paths are at most a few levels below the project).
const maxPathComponents = 24

// validPath reports whether path is an image path the registry accepts (lower case, its
// grammar) with at least a namespace and a project (GitLab's ContainerRegistry::Path#valid?).
func validPath(path string) bool {
	if _, err := reference.WithName(path); err != nil {
		return false
	}
	n := strings.Count(path, "/") + 1
	return n >= 2 && n <= maxPathComponents
}

// ImagePath is the registry path of a project's repository: the project's full path in lower
// case, and the repository's name below it when it has one.
func ImagePath(p *ent.Project, name string) string {
	base := strings.ToLower(projects.FullPath(p))
	if name == "" {
		return base
	}
	return base + "/" + name
}

// projectOf finds the project an image path belongs to: the one whose full path is the
// longest leading part of it (GitLab's repository_project), and the repository's name below
// it. Not found when no project matches.
func (s *Service) projectOf(ctx context.Context, path string) (*ent.Project, string, error) {
	if !validPath(path) {
		return nil, "", apperr.NotFound("Project")
	}
	parts := strings.Split(path, "/")
	for n := len(parts); n >= 2; n-- {
		p, err := s.Projects.Lookup(ctx, strings.Join(parts[:n], "/"))
		if apperr.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		return p, strings.Join(parts[n:], "/"), nil
	}
	return nil, "", apperr.NotFound("Project")
}
