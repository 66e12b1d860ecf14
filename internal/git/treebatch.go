package git

import (
	"context"
	"fmt"
	"strings"

	"anvil/internal/git/catfile"
)

// TreeEntriesAt returns the entry at each path of the tree of commit (or tree) rev, in order,
// with blob sizes: nil where a path does not exist (or is not a usable path). It reads through
// the cat-file process one round trip per directory level, however many paths are asked for
// (GraphQL's repository blobs ask for dozens at once), instead of one walk per path.
func (r *Repository) TreeEntriesAt(ctx context.Context, rev string, paths []string) ([]*TreeEntry, error) {
	if err := ValidateRevision(rev); err != nil {
		return nil, err
	}
	clean := make([]string, len(paths))
	ok := make([]bool, len(paths))
	for i, p := range paths {
		c, err := CleanPath(p)
		if err != nil || c == "" {
			continue
		}
		clean[i], ok[i] = c, true
	}
	out := make([]*TreeEntry, len(paths))
	err := r.batch(ctx, func(b *catfile.Batch) error {
		root, err := b.Info(ctx, rev+"^{tree}")
		if err != nil {
			return revErr(err, rev, "tree of")
		}
		dirs, err := readDirs(ctx, b, ObjectID(root.OID), dirsOf(clean, ok))
		if err != nil {
			return err
		}
		var sizeNames []string
		var sizeIdx []int
		for i, p := range clean {
			if !ok[i] {
				continue
			}
			dir, name := splitDir(p)
			entries, found := dirs[dir]
			if !found {
				continue
			}
			for j := range entries {
				if entries[j].Name == name {
					e := entries[j]
					out[i] = &e
					if e.Type == TypeBlob {
						sizeNames = append(sizeNames, string(e.ID))
						sizeIdx = append(sizeIdx, i)
					}
					break
				}
			}
		}
		infos, err := b.InfoMany(ctx, sizeNames)
		if err != nil {
			return catErr(err, "blob sizes")
		}
		for j, info := range infos {
			if info.OID != "" {
				out[sizeIdx[j]].Size = info.Size
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// dirsOf lists the directories whose listings the paths need, parents before children.
func dirsOf(paths []string, ok []bool) []string {
	seen := map[string]bool{"": true}
	out := []string{""}
	for i, p := range paths {
		if !ok[i] {
			continue
		}
		dir, _ := splitDir(p)
		var chain []string
		for d := dir; d != "" && !seen[d]; d, _ = splitDir(d) {
			seen[d] = true
			chain = append(chain, d)
		}
		for k := len(chain) - 1; k >= 0; k-- {
			out = append(out, chain[k])
		}
	}
	return out
}

// splitDir splits a clean path into its directory ("" at the root) and last component.
func splitDir(p string) (string, string) {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i], p[i+1:]
	}
	return "", p
}

// readDirs reads the listings of dirs (parents listed before their children, "" first) under
// the tree root, one cat-file round trip per depth. A directory that does not exist (or is not
// a directory) has no listing.
func readDirs(ctx context.Context, b *catfile.Batch, root ObjectID, dirs []string) (map[string][]TreeEntry, error) {
	listings := map[string][]TreeEntry{}
	ids := map[string]ObjectID{"": root}
	byDepth := map[int][]string{}
	maxDepth := 0
	for _, d := range dirs {
		depth := 0
		if d != "" {
			depth = strings.Count(d, "/") + 1
		}
		byDepth[depth] = append(byDepth[depth], d)
		maxDepth = max(maxDepth, depth)
	}
	for depth := 0; depth <= maxDepth; depth++ {
		var names, level []string
		for _, d := range byDepth[depth] {
			if d != "" {
				parent, name := splitDir(d)
				for _, e := range listings[parent] {
					if e.Name == name && e.Type == TypeTree {
						ids[d] = e.ID
						break
					}
				}
			}
			if id, ok := ids[d]; ok {
				names = append(names, string(id))
				level = append(level, d)
			}
		}
		objs, err := b.ReadMany(ctx, names, -1)
		if err != nil {
			return nil, catErr(err, "read trees")
		}
		for i, o := range objs {
			if o.Missing || o.Type != string(TypeTree) {
				return nil, fmt.Errorf("read tree %s: %w", names[i], ErrObjectNotFound)
			}
			entries, err := ParseTree(level[i], o.Data)
			if err != nil {
				return nil, err
			}
			listings[level[i]] = entries
		}
	}
	return listings, nil
}

// FlatPaths returns, for each directory directly in the directory dir of commit (or tree) rev,
// its flat path as Gitaly computes it: the path reached by descending while a directory holds
// nothing but one directory, at most depth levels below it. Each level costs one cat-file round
// trip for all the directories still descending. A dir that is missing or not a directory fails
// with ErrPathNotFound.
func (r *Repository) FlatPaths(ctx context.Context, rev, dir string, depth int) (map[string]string, error) {
	dir, err := CleanPath(dir)
	if err != nil {
		return nil, err
	}
	if err := ValidateRevision(rev); err != nil {
		return nil, err
	}
	out := map[string]string{}
	err = r.batch(ctx, func(b *catfile.Batch) error {
		root, err := b.Info(ctx, rev+"^{tree}")
		if err != nil {
			return revErr(err, rev, "tree of")
		}
		top, err := walkPath(ctx, b, ObjectID(root.OID), dir)
		if err != nil {
			return err
		}
		if top.Type != TypeTree {
			return fmt.Errorf("%q is not a directory: %w", dir, ErrPathNotFound)
		}
		entries, err := readTree(ctx, b, top.ID, dir)
		if err != nil {
			return err
		}
		// Each walk follows one directory of dir down: its current tree and flat path.
		type walk struct {
			start, flat string
			tree        ObjectID
		}
		var walks []*walk
		for _, e := range entries {
			if e.Type == TypeTree {
				out[e.Path] = e.Path
				walks = append(walks, &walk{start: e.Path, flat: e.Path, tree: e.ID})
			}
		}
		for range depth {
			if len(walks) == 0 {
				break
			}
			names := make([]string, len(walks))
			for i, w := range walks {
				names[i] = string(w.tree)
			}
			objs, err := b.ReadMany(ctx, names, -1)
			if err != nil {
				return catErr(err, "read trees")
			}
			next := walks[:0]
			for i, o := range objs {
				if o.Missing || o.Type != string(TypeTree) {
					return fmt.Errorf("read tree %s: %w", names[i], ErrObjectNotFound)
				}
				kids, err := ParseTree(walks[i].flat, o.Data)
				if err != nil {
					return err
				}
				if len(kids) != 1 || kids[0].Type != TypeTree {
					continue
				}
				w := walks[i]
				w.flat, w.tree = kids[0].Path, kids[0].ID
				out[w.start] = w.flat
				next = append(next, w)
			}
			walks = next
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReadBlobs reads the blobs with ids, in order, in one cat-file round trip, keeping at most
// limit bytes of each (everything when limit is negative). An id that is not a blob fails with
// ErrObjectNotFound.
func (r *Repository) ReadBlobs(ctx context.Context, ids []ObjectID, limit int64) ([]*Blob, error) {
	names := make([]string, len(ids))
	for i, id := range ids {
		if err := id.Validate(); err != nil {
			return nil, err
		}
		names[i] = string(id)
	}
	var objs []catfile.Object
	err := r.batch(ctx, func(b *catfile.Batch) (err error) {
		objs, err = b.ReadMany(ctx, names, limit)
		return err
	})
	if err != nil {
		return nil, catErr(err, "read blobs")
	}
	out := make([]*Blob, len(objs))
	for i, o := range objs {
		if o.Missing || o.Type != string(TypeBlob) {
			return nil, fmt.Errorf("read blob %s: %w", ids[i], ErrObjectNotFound)
		}
		out[i] = &Blob{ID: ObjectID(o.OID), Size: o.Size, Data: o.Data, Truncated: o.Truncated}
	}
	return out, nil
}
