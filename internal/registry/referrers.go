package registry

import (
	"context"
	"path"
	"time"

	"github.com/opencontainers/go-digest"
	v1 "github.com/opencontainers/image-spec/specs-go/v1"
)

// Referrers lists the manifests of the repository at path whose subject is dgst (the OCI
// distribution spec's referrers API, which distribution v3.1.2 does not serve), optionally
// only those of one artifact type. Each descriptor carries the referrer's media type, digest,
// size, artifact type (its own, else its configuration's media type) and annotations.
func (r *Registry) Referrers(ctx context.Context, repoPath string, dgst digest.Digest, artifactType string) ([]v1.Descriptor, error) {
	repo, err := r.repository(ctx, repoPath)
	if err != nil {
		return []v1.Descriptor{}, nil
	}
	var all []digest.Digest
	err = r.walkLinks(ctx, path.Join(repositoriesPath, repoPath, "_manifests", "revisions"), func(d digest.Digest, _ time.Time) {
		all = append(all, d)
	})
	if err != nil {
		return nil, err
	}
	out := []v1.Descriptor{}
	for _, d := range all {
		doc, err := r.manifest(ctx, repo, d)
		if err != nil {
			if isNotFound(err) {
				continue
			}
			return nil, err
		}
		if doc.Subject == nil || doc.Subject.Digest != dgst {
			continue
		}
		at := doc.ArtifactType
		if at == "" && doc.Config != nil {
			at = doc.Config.MediaType
		}
		if artifactType != "" && at != artifactType {
			continue
		}
		out = append(out, v1.Descriptor{MediaType: doc.MediaType, Digest: d, Size: doc.size, ArtifactType: at, Annotations: doc.Annotations})
	}
	return out, nil
}
