package git

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"anvil/internal/git/catfile"
	"anvil/internal/git/gitcmd"
)

// TreeEntryAt returns the entry at path in the tree of commit (or tree) rev, with its blob size.
// Path "" is the root tree itself (Name "", Type tree, Mode "040000"). A missing path fails with
// ErrPathNotFound.
func (r *Repository) TreeEntryAt(ctx context.Context, rev, path string) (*TreeEntry, error) {
	path, err := CleanPath(path)
	if err != nil {
		return nil, err
	}
	if err := ValidateRevision(rev); err != nil {
		return nil, err
	}
	var entry *TreeEntry
	err = r.batch(ctx, func(b *catfile.Batch) error {
		root, err := b.Info(ctx, rev+"^{tree}")
		if err != nil {
			return revErr(err, rev, "tree of")
		}
		entry, err = walkPath(ctx, b, ObjectID(root.OID), path)
		if err != nil || entry.Type != TypeBlob {
			return err
		}
		info, err := b.Info(ctx, string(entry.ID))
		if err != nil {
			return catErr(err, "blob size")
		}
		entry.Size = info.Size
		return nil
	})
	if err != nil {
		return nil, err
	}
	return entry, nil
}

// walkPath descends from the root tree along path, reading each tree by id (so any byte in a
// path works, newlines included).
func walkPath(ctx context.Context, b *catfile.Batch, root ObjectID, path string) (*TreeEntry, error) {
	cur := &TreeEntry{ID: root, Type: TypeTree, Mode: "040000", Size: -1}
	if path == "" {
		return cur, nil
	}
	dir := ""
	for _, name := range strings.Split(path, "/") {
		if cur.Type != TypeTree {
			return nil, fmt.Errorf("%q: %w", path, ErrPathNotFound)
		}
		entries, err := readTree(ctx, b, cur.ID, dir)
		if err != nil {
			return nil, err
		}
		var next *TreeEntry
		for i := range entries {
			if entries[i].Name == name {
				next = &entries[i]
				break
			}
		}
		if next == nil {
			return nil, fmt.Errorf("%q: %w", path, ErrPathNotFound)
		}
		cur, dir = next, joinPath(dir, name)
	}
	return cur, nil
}

// ListTreeOptions select a tree listing.
type ListTreeOptions struct {
	// Recursive lists the whole subtree, trees included (GitLab's recursive=true), in git's
	// depth-first order; otherwise only the direct entries of the directory.
	Recursive bool
	// WithSizes fills TreeEntry.Size for blobs.
	WithSizes bool
}

// ListTree lists the directory path ("" for the root) of commit (or tree) rev in git's order
// (byte order of names, directories compared as "name/"). A path that is missing, or not a
// directory, fails with ErrPathNotFound.
//
// A single directory is read through the cat-file process (no new process); a recursive
// listing runs ls-tree.
func (r *Repository) ListTree(ctx context.Context, rev, path string, opts ListTreeOptions) ([]TreeEntry, error) {
	path, err := CleanPath(path)
	if err != nil {
		return nil, err
	}
	if err := ValidateRevision(rev); err != nil {
		return nil, err
	}
	var dir *TreeEntry
	var entries []TreeEntry
	err = r.batch(ctx, func(b *catfile.Batch) error {
		root, err := b.Info(ctx, rev+"^{tree}")
		if err != nil {
			return revErr(err, rev, "tree of")
		}
		if dir, err = walkPath(ctx, b, ObjectID(root.OID), path); err != nil {
			return err
		}
		if dir.Type != TypeTree {
			return fmt.Errorf("%q is not a directory: %w", path, ErrPathNotFound)
		}
		if opts.Recursive {
			return nil
		}
		if entries, err = readTree(ctx, b, dir.ID, path); err != nil {
			return err
		}
		if opts.WithSizes {
			return fillSizes(ctx, b, entries)
		}
		return nil
	})
	if err != nil || !opts.Recursive {
		return entries, err
	}
	return r.lsTree(ctx, dir.ID, path, opts.WithSizes)
}

// fillSizes asks for the size of every blob entry in one round trip.
func fillSizes(ctx context.Context, b *catfile.Batch, entries []TreeEntry) error {
	var names []string
	var idx []int
	for i, e := range entries {
		if e.Type == TypeBlob {
			names = append(names, string(e.ID))
			idx = append(idx, i)
		}
	}
	infos, err := b.InfoMany(ctx, names)
	if err != nil {
		return catErr(err, "blob sizes")
	}
	for j, info := range infos {
		if info.OID != "" {
			entries[idx[j]].Size = info.Size
		}
	}
	return nil
}

// lsTree lists the tree with id recursively (trees included); paths are prefixed with dir.
func (r *Repository) lsTree(ctx context.Context, id ObjectID, dir string, sizes bool) ([]TreeEntry, error) {
	cmd := gitcmd.New("ls-tree", "-r", "-t", "-z", "--full-tree")
	if sizes {
		cmd.Flag("--long")
	}
	out, err := r.output(ctx, cmd.Arg(string(id)))
	if err != nil {
		return nil, fmt.Errorf("list tree: %w", err)
	}
	var entries []TreeEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			return nil, fmt.Errorf("list tree: malformed line %q", rec)
		}
		f := strings.Fields(string(meta))
		if len(f) < 3 {
			return nil, fmt.Errorf("list tree: malformed line %q", rec)
		}
		p := joinPath(dir, string(name))
		e := TreeEntry{Mode: f[0], Type: ObjectType(f[1]), ID: ObjectID(f[2]), Path: p, Size: -1}
		e.Name = p[strings.LastIndexByte(p, '/')+1:]
		if sizes && len(f) > 3 && f[3] != "-" {
			if e.Size, err = strconv.ParseInt(f[3], 10, 64); err != nil {
				return nil, fmt.Errorf("list tree: size %q", f[3])
			}
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// SortTreesFirst orders entries with directories before everything else, keeping git's order
// within each group (Gitaly's TREES_FIRST, which GitLab's tree listing is understood to use).
func SortTreesFirst(entries []TreeEntry) {
	sort.SliceStable(entries, func(i, j int) bool {
		return entries[i].Type == TypeTree && entries[j].Type != TypeTree
	})
}
