package registry

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"time"

	"github.com/distribution/distribution/v3"
	"github.com/distribution/distribution/v3/registry/storage"
	"github.com/distribution/reference"
	"github.com/opencontainers/go-digest"
	v1 "github.com/opencontainers/image-spec/specs-go/v1"
)

// ErrNotFound: the image repository or the tag does not exist.
var ErrNotFound = errors.New("registry: not found")

// TagInfo is what the API shows of a tag beyond its name: the manifest it points to, and for
// an image manifest its configuration (revision), creation date and layers' size. An index
// (multi-platform image) has no configuration of its own: those fields are empty.
type TagInfo struct {
	Name string
	// Digest is the manifest's digest ("sha256:...").
	Digest string
	// Revision is the hex digest of the image configuration (GitLab's revision).
	Revision string
	// CreatedAt is the configuration's "created" date.
	CreatedAt *time.Time
	// TotalSize is the sum of the layers' sizes.
	TotalSize *int64
}

// manifestDoc is the part of any manifest (Docker schema 2, OCI image, index) Anvil reads.
type manifestDoc struct {
	MediaType    string            `json:"mediaType"`
	ArtifactType string            `json:"artifactType"`
	Annotations  map[string]string `json:"annotations"`
	Config       *v1.Descriptor    `json:"config"`
	Layers       []v1.Descriptor   `json:"layers"`
	Manifests    []v1.Descriptor   `json:"manifests"`
	Subject      *v1.Descriptor    `json:"subject"`
	size         int64
}

// repository opens the image repository at path (never an error for a missing one: its reads
// answer ErrNotFound).
func (r *Registry) repository(ctx context.Context, path string) (distribution.Repository, error) {
	named, err := reference.WithName(path)
	if err != nil {
		return nil, ErrNotFound
	}
	return r.ns.Repository(ctx, named)
}

// Tags returns the names of the tags of the repository at path, sorted; none for a repository
// that does not exist.
func (r *Registry) Tags(ctx context.Context, path string) ([]string, error) {
	repo, err := r.repository(ctx, path)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	tags, err := repo.Tags(ctx).All(ctx)
	if err != nil {
		if isNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	sort.Strings(tags)
	return tags, nil
}

// Tag reads one tag's details; ErrNotFound when the tag does not exist.
func (r *Registry) Tag(ctx context.Context, path, tag string) (*TagInfo, error) {
	repo, err := r.repository(ctx, path)
	if err != nil {
		return nil, err
	}
	desc, err := repo.Tags(ctx).Get(ctx, tag)
	if err != nil {
		if isNotFound(err) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	info := &TagInfo{Name: tag, Digest: desc.Digest.String()}
	doc, err := r.manifest(ctx, repo, desc.Digest)
	if err != nil {
		if isNotFound(err) {
			return info, nil // a tag whose manifest is gone shows its digest only
		}
		return nil, err
	}
	if doc.Config == nil {
		return info, nil
	}
	var total int64
	for _, l := range doc.Layers {
		total += l.Size
	}
	info.TotalSize = &total
	info.Revision = doc.Config.Digest.Encoded()
	raw, err := repo.Blobs(ctx).Get(ctx, doc.Config.Digest)
	if err != nil {
		if isNotFound(err) {
			return info, nil
		}
		return nil, err
	}
	var cfg struct {
		Created *time.Time `json:"created"`
	}
	if json.Unmarshal(raw, &cfg) == nil && cfg.Created != nil {
		t := cfg.Created.UTC()
		info.CreatedAt = &t
	}
	return info, nil
}

// manifest reads and decodes a manifest of repo.
func (r *Registry) manifest(ctx context.Context, repo distribution.Repository, dgst digest.Digest) (*manifestDoc, error) {
	ms, err := repo.Manifests(ctx)
	if err != nil {
		return nil, err
	}
	m, err := ms.Get(ctx, dgst)
	if err != nil {
		return nil, err
	}
	_, payload, err := m.Payload()
	if err != nil {
		return nil, err
	}
	var doc manifestDoc
	if err := json.Unmarshal(payload, &doc); err != nil {
		return nil, err
	}
	if mt, _, _ := m.Payload(); doc.MediaType == "" {
		doc.MediaType = mt
	}
	doc.size = int64(len(payload))
	return &doc, nil
}

// DeleteTag removes a tag (the manifest and its blobs stay until garbage collection);
// ErrNotFound when there is no such tag.
func (r *Registry) DeleteTag(ctx context.Context, path, tag string) error {
	repo, err := r.repository(ctx, path)
	if err != nil {
		return err
	}
	tags := repo.Tags(ctx)
	if _, err := tags.Get(ctx, tag); err != nil {
		if isNotFound(err) {
			return ErrNotFound
		}
		return err
	}
	if err := tags.Untag(ctx, tag); err != nil && !isNotFound(err) {
		return err
	}
	return nil
}

// DeleteRepository removes the image repository at path: its tags, manifests, layer links and
// uploads (nested repositories under path stay). Blobs nothing else references are reclaimed
// by the next garbage collection. Removing a repository that is gone is no error.
func (r *Registry) DeleteRepository(ctx context.Context, path string) error {
	if _, err := reference.WithName(path); err != nil {
		return nil
	}
	return storage.NewVacuum(ctx, r.driver).RemoveRepository(path)
}

// Size is the deduplicated size of the repository's tagged images: each blob (layers and
// configurations, through indexes to their images) counted once.
func (r *Registry) Size(ctx context.Context, path string) (int64, error) {
	repo, err := r.repository(ctx, path)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	tags, err := r.Tags(ctx, path)
	if err != nil {
		return 0, err
	}
	seen := map[digest.Digest]bool{}
	var size int64
	var walk func(d digest.Digest, depth int) error
	walk = func(d digest.Digest, depth int) error {
		if seen[d] || depth > 4 {
			return nil
		}
		seen[d] = true
		doc, err := r.manifest(ctx, repo, d)
		if err != nil {
			if isNotFound(err) {
				return nil
			}
			return err
		}
		blobs := doc.Layers
		if doc.Config != nil {
			blobs = append(blobs, *doc.Config)
		}
		for _, b := range blobs {
			if !seen[b.Digest] {
				seen[b.Digest] = true
				size += b.Size
			}
		}
		for _, m := range doc.Manifests {
			if err := walk(m.Digest, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, tag := range tags {
		desc, err := repo.Tags(ctx).Get(ctx, tag)
		if err != nil {
			if isNotFound(err) {
				continue
			}
			return 0, err
		}
		if err := walk(desc.Digest, 0); err != nil {
			return 0, err
		}
	}
	return size, nil
}

// Repositories calls fn with the path of every image repository in storage.
func (r *Registry) Repositories(ctx context.Context, fn func(path string) error) error {
	en, ok := r.ns.(distribution.RepositoryEnumerator)
	if !ok {
		return errors.New("registry storage cannot enumerate repositories")
	}
	err := en.Enumerate(ctx, fn)
	if isNotFound(err) {
		return nil
	}
	return err
}
