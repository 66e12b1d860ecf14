// Package repositoryapi serves a project's repository contents: the repositories API (tree,
// blobs, archive, compare, contributors, merge_base) and the repository files API.
package repositoryapi

import (
	"anvil/internal/service/repofiles"
	"anvil/rest/route"
)

type handlers struct{ svc *repofiles.Service }

// archiveSuffixes are the formats GitLab's archive route accepts after "archive."; the bare
// route is tar.gz (or the format parameter).
var archiveSuffixes = []string{"tar.gz", "tgz", "gz", "tar", "zip", "tar.bz2", "tbz", "tbz2", "tb2", "bz2"}

// Register adds the repository contents routes. Reads are open to anyone who may read the
// project's code (anonymous callers on public projects); the files, raw blob and archive routes
// also accept read_repository tokens.
func Register(t *route.Table) {
	h := &handlers{svc: t.S.Files}

	const repo = "/projects/:id/repository"
	t.GET(repo+"/tree", h.tree)
	t.GET(repo+"/blobs/:sha", h.blob, route.RepositoryScope)
	t.GET(repo+"/blobs/:sha/raw", h.rawBlob, route.RepositoryScope)
	t.GET(repo+"/archive", h.archive(""), route.RepositoryScope)
	for _, s := range archiveSuffixes {
		t.GET(repo+"/archive."+s, h.archive(s), route.RepositoryScope)
	}
	t.GET(repo+"/compare", h.compare)
	t.GET(repo+"/contributors", h.contributors)
	t.GET(repo+"/merge_base", h.mergeBase)

	const file = repo + "/files/:file_path"
	t.GET(file, h.getFile, route.RepositoryScope)
	t.GET(file+"/raw", h.rawFile, route.RepositoryScope)
	t.GET(file+"/blame", h.blame, route.RepositoryScope)
	t.POST(file, h.createFile, route.SignedIn)
	t.PUT(file, h.updateFile, route.SignedIn)
	t.DELETE(file, h.deleteFile, route.SignedIn)
}
