package containerregistry

import (
	"context"
	"errors"
	"sort"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/pagination"
	"anvil/internal/registry"
)

// TagPage is a page request of a tag listing: offset pages, or keyset pages after the tag
// named Last (pagination=keyset) in name order, descending when Desc.
type TagPage struct {
	Offset pagination.Offset
	Keyset bool
	Last   string
	Desc   bool
}

// TagList is one page of a repository's tag names.
type TagList struct {
	Repository *Repository
	pagination.Result[string]
}

// ListTags returns a page of the tag names of a project's image repository
// (read_container_image), in name order.
func (s *Service) ListTags(ctx context.Context, actor *authz.Actor, ref string, id int, page TagPage) (*TagList, error) {
	r, err := s.find(ctx, actor, ref, id, authz.ReadContainerImage)
	if err != nil {
		return nil, err
	}
	tags, err := s.Registry.Tags(ctx, r.Path)
	if err != nil {
		return nil, err
	}
	if !page.Keyset {
		start := min(page.Offset.Skip(), len(tags))
		end := min(start+page.Offset.Limit(), len(tags))
		return &TagList{Repository: r, Result: pagination.Result[string]{Items: tags[start:end], Total: len(tags), Page: page.Offset}}, nil
	}
	if page.Desc {
		sort.Sort(sort.Reverse(sort.StringSlice(tags)))
	}
	start := 0
	if page.Last != "" {
		start = sort.Search(len(tags), func(i int) bool {
			if page.Desc {
				return tags[i] < page.Last
			}
			return tags[i] > page.Last
		})
	}
	k := pagination.KeysetAt(nil, page.Offset.PerPage)
	rest := tags[start:]
	res := pagination.KeysetPage(k, rest[:min(len(rest), k.KeysetLimit())], "last", func(last string) string { return last })
	return &TagList{Repository: r, Result: res}, nil
}

// GetTag returns the details of a tag of a project's image repository (read_container_image):
// 404 Tag Not Found when there is no such tag.
func (s *Service) GetTag(ctx context.Context, actor *authz.Actor, ref string, id int, name string) (*Repository, *registry.TagInfo, error) {
	r, err := s.find(ctx, actor, ref, id, authz.ReadContainerImage)
	if err != nil {
		return nil, nil, err
	}
	t, err := s.Registry.Tag(ctx, r.Path, name)
	if errors.Is(err, registry.ErrNotFound) {
		return nil, nil, apperr.NotFound("Tag")
	}
	if err != nil {
		return nil, nil, err
	}
	return r, t, nil
}

// DeleteTag deletes a tag of a project's image repository (destroy_container_image); the
// manifest and its blobs stay until garbage collection, as in GitLab. 404 Tag Not Found when
// there is no such tag.
func (s *Service) DeleteTag(ctx context.Context, actor *authz.Actor, ref string, id int, name string) error {
	r, err := s.find(ctx, actor, ref, id, authz.DestroyContainerImage)
	if err != nil {
		return err
	}
	err = s.Registry.DeleteTag(ctx, r.Path, name)
	if errors.Is(err, registry.ErrNotFound) {
		return apperr.NotFound("Tag")
	}
	return err
}
