package graph

import (
	"bytes"
	"context"
	"unicode/utf8"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/service/repofiles"
)

// gidBlob is the model name of repository blob global ids (gid://gitlab/Blob/<oid>).
const gidBlob = "Blob"

// binaryProbe is how much of a file decides whether it is text, as git's own heuristic reads.
const binaryProbe = 8000

// repositoryBlobs is Repository.blobs: the files at the given paths at ref (the default branch
// when none is given), read together through the files service (repofiles.GetFiles: a fixed
// number of object reads however many paths). Paths that are not files there are left out, as
// GitLab leaves them out. Contents are only read when rawBlob or rawTextBlob is asked for.
func (r *Resolver) repositoryBlobs(ctx context.Context, repo *model.Repository, paths []string, ref *string, refType *model.RefType,
	after, before *ent.Cursor, first, last *int,
) (*model.RepositoryBlobConnection, error) {
	var found []*model.RepositoryBlob
	t, err := r.treeAt(ctx, repo, "", ref, refType, false)
	if err != nil {
		return nil, err
	}
	if t != nil && t.Commit != "" {
		webRef := str(ref)
		if webRef == "" {
			head, err := r.rootRef(ctx, repo)
			if err != nil {
				return nil, err
			}
			webRef = str(head)
		}
		withContent := nodeSelects(ctx, "rawBlob", "rawTextBlob")
		files, err := r.files.GetFiles(ctx, actor(ctx), repoRef(repo), repofiles.FilesParams{Paths: paths, Ref: string(t.Commit), Content: withContent})
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			found = append(found, r.repositoryBlob(repo, webRef, f, withContent))
		}
	}
	w, err := arrayWindow(len(found), after, before, first, last)
	if err != nil {
		return nil, err
	}
	conn := &model.RepositoryBlobConnection{Edges: []*model.RepositoryBlobEdge{}, Nodes: []*model.RepositoryBlob{}, PageInfo: w.pageInfo()}
	for i := w.start; i < w.end; i++ {
		conn.Nodes = append(conn.Nodes, found[i])
		conn.Edges = append(conn.Edges, &model.RepositoryBlobEdge{Cursor: cursorAt(i), Node: found[i]})
	}
	return conn, nil
}

// repositoryBlob presents a file as GitLab's RepositoryBlob.
func (r *Resolver) repositoryBlob(repo *model.Repository, ref string, f *repofiles.File, withContent bool) *model.RepositoryBlob {
	name, size := f.Name, int(f.Size)
	mode := "100644"
	if f.Executable {
		mode = "100755"
	}
	web, raw, edit := webPath(repo, "blob", ref, f.Path), webPath(repo, "raw", ref, f.Path), webPath(repo, "edit", ref, f.Path)
	external := false
	b := &model.RepositoryBlob{
		ID: "gid://gitlab/" + gidBlob + "/" + string(f.BlobID), Oid: string(f.BlobID), Path: f.Path, Name: &name, Mode: &mode,
		WebPath: &web, RawPath: &raw, EditBlobPath: &edit, Size: &size, RawSize: &size, StoredExternally: &external,
	}
	if withContent && f.Content != nil {
		content := string(f.Content)
		b.RawBlob = &content
		if !isBinary(f.Content) {
			b.RawTextBlob = &content
		}
	}
	return b
}

// isBinary tells binary content from text the way git does: a NUL byte early on. Content that
// is not UTF-8 cannot be shown as text either.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binaryProbe)], 0) >= 0 || !utf8.Valid(data)
}
