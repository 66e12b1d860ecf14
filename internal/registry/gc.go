package registry

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/distribution/distribution/v3"
	"github.com/distribution/distribution/v3/registry/storage"
	storagedriver "github.com/distribution/distribution/v3/registry/storage/driver"
	"github.com/distribution/reference"
	"github.com/opencontainers/go-digest"
)

// Storage layout of distribution's v2 storage (registry/storage/paths.go).
const (
	rootPath         = "/docker/registry/v2"
	repositoriesPath = rootPath + "/repositories"
	blobsPath        = rootPath + "/blobs"
)

// GCStats counts what a garbage collection removed.
type GCStats struct {
	Manifests  int   // untagged manifests removed from their repositories
	LayerLinks int   // repository links to blobs removed
	Blobs      int   // blobs removed
	Bytes      int64 // their size
}

// CollectGarbage reclaims the storage nothing references: a mark of everything reachable from
// tags, then a sweep. Kept are the manifests tags point to and what they reference (image
// indexes' images, configurations, layers), the manifests whose subject is kept (signatures,
// SBOMs and other referrers), and — so that pushes in progress never lose what they uploaded
// before their manifest — every manifest, repository layer link and blob younger than grace,
// with what those reference. Untagged manifests older than grace are removed (GitLab's online
// garbage collection does the same after its review delay), then unreferenced layer links and
// blobs. Upload sessions are left to distribution's upload purger. distribution's own
// MarkAndSweep cannot keep young content, hence this walk (docs/ARCHITECTURE.md).
func (r *Registry) CollectGarbage(ctx context.Context, grace time.Duration) (GCStats, error) {
	r.gcMu.Lock()
	defer r.gcMu.Unlock()
	var stats GCStats
	start := time.Now()
	young := func(t time.Time) bool { return start.Sub(t) < grace }
	marked := map[digest.Digest]bool{}
	type manifestRef struct {
		repo string
		dgst digest.Digest
	}
	type layerLink struct {
		repo string
		dgst digest.Digest
		old  bool
	}
	var unreferenced []manifestRef
	var links []layerLink

	err := r.Repositories(ctx, func(name string) error {
		named, err := reference.WithName(name)
		if err != nil {
			return nil
		}
		repo, err := r.ns.Repository(ctx, named)
		if err != nil {
			return err
		}
		keep, drop, err := r.markRepository(ctx, name, repo, young, marked)
		if err != nil {
			return fmt.Errorf("mark %s: %w", name, err)
		}
		_ = keep
		for _, d := range drop {
			unreferenced = append(unreferenced, manifestRef{name, d})
		}
		return r.walkLinks(ctx, path.Join(repositoriesPath, name, "_layers"), func(d digest.Digest, mod time.Time) {
			if young(mod) {
				marked[d] = true
			}
			links = append(links, layerLink{repo: name, dgst: d, old: !young(mod)})
		})
	})
	if err != nil {
		return stats, err
	}

	vacuum := storage.NewVacuum(ctx, r.driver)
	for _, m := range unreferenced {
		if marked[m.dgst] { // another repository's tag references the same manifest
			continue
		}
		if err := vacuum.RemoveManifest(m.repo, m.dgst, r.allTags(ctx, m.repo)); err != nil && !isNotFound(err) {
			return stats, err
		}
		stats.Manifests++
	}
	for _, l := range links {
		if marked[l.dgst] || !l.old {
			continue
		}
		if err := vacuum.RemoveLayer(l.repo, l.dgst); err != nil && !isNotFound(err) {
			return stats, err
		}
		stats.LayerLinks++
	}
	err = r.driver.Walk(ctx, blobsPath, func(fi storagedriver.FileInfo) error {
		if fi.IsDir() || path.Base(fi.Path()) != "data" {
			return nil
		}
		d, err := digest.Parse(path.Base(path.Dir(path.Dir(path.Dir(fi.Path())))) + ":" + path.Base(path.Dir(fi.Path())))
		if err != nil || marked[d] || young(fi.ModTime()) {
			return nil
		}
		if err := vacuum.RemoveBlob(d.String()); err != nil && !isNotFound(err) {
			return err
		}
		stats.Blobs++
		stats.Bytes += fi.Size()
		return nil
	})
	if err != nil && !isNotFound(err) {
		return stats, err
	}
	return stats, nil
}

// markRepository marks what the repository's kept manifests reference and returns the
// manifests it does not keep.
func (r *Registry) markRepository(ctx context.Context, name string, repo distribution.Repository, young func(time.Time) bool, marked map[digest.Digest]bool) (keep, drop []digest.Digest, err error) {
	docs := map[digest.Digest]*manifestDoc{}
	kept := map[digest.Digest]bool{}
	var all []digest.Digest
	err = r.walkLinks(ctx, path.Join(repositoriesPath, name, "_manifests", "revisions"), func(d digest.Digest, mod time.Time) {
		all = append(all, d)
		if young(mod) {
			kept[d] = true
		}
	})
	if err != nil {
		return nil, nil, err
	}
	tags := repo.Tags(ctx)
	for _, t := range r.allTags(ctx, name) {
		desc, err := tags.Get(ctx, t)
		if err == nil {
			kept[desc.Digest] = true
		} else if !isNotFound(err) {
			return nil, nil, err
		}
	}
	read := func(d digest.Digest) *manifestDoc {
		if doc, ok := docs[d]; ok {
			return doc
		}
		doc, err := r.manifest(ctx, repo, d)
		if err != nil {
			doc = nil
		}
		docs[d] = doc
		return doc
	}
	// Referrers of kept manifests are kept too, until nothing more is added.
	for changed := true; changed; {
		changed = false
		for _, d := range all {
			if kept[d] {
				continue
			}
			if doc := read(d); doc != nil && doc.Subject != nil && kept[doc.Subject.Digest] {
				kept[d] = true
				changed = true
			}
		}
	}
	var mark func(d digest.Digest, depth int)
	mark = func(d digest.Digest, depth int) {
		if depth > 8 {
			return
		}
		marked[d] = true
		doc := read(d)
		if doc == nil {
			return
		}
		if doc.Config != nil {
			marked[doc.Config.Digest] = true
		}
		for _, l := range doc.Layers {
			marked[l.Digest] = true
		}
		for _, m := range doc.Manifests {
			kept[m.Digest] = true
			mark(m.Digest, depth+1)
		}
	}
	for d := range kept {
		mark(d, 0)
	}
	for _, d := range all {
		if kept[d] {
			keep = append(keep, d)
		} else {
			drop = append(drop, d)
		}
	}
	return keep, drop, nil
}

// walkLinks calls fn with the digest and modification time of every link file under dir
// (<dir>/<algorithm>/<hex>/link); a missing dir has none.
func (r *Registry) walkLinks(ctx context.Context, dir string, fn func(digest.Digest, time.Time)) error {
	err := r.driver.Walk(ctx, dir, func(fi storagedriver.FileInfo) error {
		if fi.IsDir() || path.Base(fi.Path()) != "link" {
			return nil
		}
		hexDir := path.Dir(fi.Path())
		d, err := digest.Parse(path.Base(path.Dir(hexDir)) + ":" + path.Base(hexDir))
		if err != nil {
			return nil
		}
		fn(d, fi.ModTime())
		return nil
	})
	if isNotFound(err) {
		return nil
	}
	return err
}

// allTags lists the tags of the repository named name (none when it has no tags directory).
func (r *Registry) allTags(ctx context.Context, name string) []string {
	entries, err := r.driver.List(ctx, path.Join(repositoriesPath, name, "_manifests", "tags"))
	if err != nil {
		return nil
	}
	tags := make([]string, 0, len(entries))
	for _, e := range entries {
		tags = append(tags, path.Base(strings.TrimSuffix(e, "/")))
	}
	return tags
}
