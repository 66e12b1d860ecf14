package git

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"anvil/internal/git/catfile"
	"anvil/internal/git/gitcmd"
)

// TreeActionType is the kind of a TreeAction (GitLab's commit actions).
type TreeActionType string

// Tree actions.
const (
	// ActionCreate adds a file; the path must not exist.
	ActionCreate TreeActionType = "create"
	// ActionUpdate replaces a file's content, keeping its mode; the file must exist.
	ActionUpdate TreeActionType = "update"
	// ActionDelete removes a file; it must exist. Directories left empty disappear.
	ActionDelete TreeActionType = "delete"
	// ActionMove moves PreviousPath to Path, keeping the mode, and the content unless Content
	// is non-nil; Path must not exist.
	ActionMove TreeActionType = "move"
	// ActionChmod sets or clears the executable bit of a regular file.
	ActionChmod TreeActionType = "chmod"
	// ActionSubmodule points an existing submodule entry at SubmoduleCommit.
	ActionSubmodule TreeActionType = "submodule"
)

// TreeAction is one change of EditTree.
type TreeAction struct {
	Action TreeActionType
	// Path is the file's full path ("dir/file.txt").
	Path string
	// PreviousPath is the source of a move.
	PreviousPath string
	// Content is the new content of create and update (nil is an empty file). For a move, nil
	// keeps the content and non-nil (even empty) replaces it.
	Content []byte
	// Executable is chmod's target state.
	Executable bool
	// SubmoduleCommit is the submodule action's new commit.
	SubmoduleCommit ObjectID
}

// Errors of tree actions, each wrapped in an *ActionError.
var (
	ErrFileExists      = errors.New("a file with this name already exists")
	ErrDirectoryExists = errors.New("a directory with this name already exists")
	ErrFileNotFound    = errors.New("a file with this name doesn't exist")
	ErrNotSubmodule    = errors.New("not a submodule")
)

// ActionError says which action of EditTree failed and why (ErrFileExists, ErrDirectoryExists,
// ErrFileNotFound, ErrNotSubmodule, ErrInvalidPath, ErrInvalidArgument).
type ActionError struct {
	// Index is the action's position in the list.
	Index  int
	Action TreeActionType
	Path   string
	Err    error
}

// Error names the action and the reason.
func (e *ActionError) Error() string {
	return fmt.Sprintf("action %d (%s %q): %v", e.Index, e.Action, e.Path, e.Err)
}

// Unwrap returns the reason.
func (e *ActionError) Unwrap() error { return e.Err }

// EditTree applies actions in order to the tree of base (a commit or tree revision; "" is the
// empty tree) and returns the new tree's id, without a work tree or index: the touched trees
// are edited in memory and written with hash-object (two processes in all, for blobs and for
// trees). Nothing else changes in the repository; commit the tree with CommitTree.
func (r *Repository) EditTree(ctx context.Context, base string, actions []TreeAction) (ObjectID, error) {
	rootID := EmptyTreeOID
	ed := &treeEditor{}
	err := r.batch(ctx, func(b *catfile.Batch) error {
		if base != "" {
			if err := ValidateRevision(base); err != nil {
				return err
			}
			info, err := b.Info(ctx, base+"^{tree}")
			if err != nil {
				return revErr(err, base, "tree of")
			}
			rootID = ObjectID(info.OID)
		}
		ed.ctx, ed.b = ctx, b
		// An empty base is written out even without actions (see serialize).
		ed.root = &editNode{id: rootID, dirty: rootID == EmptyTreeOID}
		for i, a := range actions {
			if err := ed.apply(a); err != nil {
				var ae *ActionError
				if errors.As(err, &ae) {
					ae.Index = i
					return ae
				}
				return err
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if !ed.root.dirty {
		return rootID, nil
	}
	return r.writeEdits(ctx, ed)
}

type editEntry struct {
	mode string // six digits
	id   ObjectID
	tree *editNode // loaded subtree, for mode 040000
	blob int       // index+1 into treeEditor.blobs when the content is new, else 0
}

type editNode struct {
	id      ObjectID
	entries map[string]*editEntry
	loaded  bool
	dirty   bool
}

type treeEditor struct {
	ctx   context.Context
	b     *catfile.Batch
	root  *editNode
	blobs [][]byte
}

func (ed *treeEditor) load(n *editNode) error {
	if n.loaded {
		return nil
	}
	n.entries = map[string]*editEntry{}
	n.loaded = true
	if n.id == "" || n.id == EmptyTreeOID {
		return nil
	}
	entries, err := readTree(ed.ctx, ed.b, n.id, "")
	if err != nil {
		return err
	}
	for _, e := range entries {
		n.entries[e.Name] = &editEntry{mode: e.Mode, id: e.ID}
	}
	return nil
}

// dir returns the node of directory path components, creating missing ones when create is set.
// It fails with ErrFileExists when a component is not a directory.
func (ed *treeEditor) dir(comps []string, create bool) (*editNode, []*editNode, error) {
	n := ed.root
	chain := []*editNode{n}
	if err := ed.load(n); err != nil {
		return nil, nil, err
	}
	for _, c := range comps {
		e := n.entries[c]
		switch {
		case e == nil && !create:
			return nil, nil, ErrFileNotFound
		case e == nil:
			e = &editEntry{mode: "040000", tree: &editNode{loaded: true, entries: map[string]*editEntry{}}}
			n.entries[c] = e
		case e.mode != "040000":
			return nil, nil, ErrFileExists
		case e.tree == nil:
			e.tree = &editNode{id: e.id}
		}
		n = e.tree
		if err := ed.load(n); err != nil {
			return nil, nil, err
		}
		chain = append(chain, n)
	}
	return n, chain, nil
}

func splitPath(p string) ([]string, string) {
	comps := strings.Split(p, "/")
	return comps[:len(comps)-1], comps[len(comps)-1]
}

// lookup finds the entry at p; nil when p (or a parent directory) does not exist.
func (ed *treeEditor) lookup(p string) (*editEntry, *editNode, []*editNode, error) {
	dirs, name := splitPath(p)
	n, chain, err := ed.dir(dirs, false)
	if errors.Is(err, ErrFileNotFound) || errors.Is(err, ErrFileExists) {
		return nil, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return n.entries[name], n, chain, nil
}

func markDirty(chain []*editNode) {
	for _, n := range chain {
		n.dirty = true
	}
}

func isFileMode(mode string) bool { return mode != "040000" }

func (ed *treeEditor) addBlob(content []byte) int {
	ed.blobs = append(ed.blobs, content)
	return len(ed.blobs)
}

// put stores an entry at p, which must not exist; parent directories are created.
func (ed *treeEditor) put(p string, e *editEntry) error {
	if cur, _, _, err := ed.lookup(p); err != nil {
		return err
	} else if cur != nil {
		if isFileMode(cur.mode) {
			return ErrFileExists
		}
		return ErrDirectoryExists
	}
	dirs, name := splitPath(p)
	n, chain, err := ed.dir(dirs, true)
	if err != nil {
		return err
	}
	n.entries[name] = e
	markDirty(chain)
	return nil
}

// file returns the existing file entry at p, or ErrFileNotFound.
func (ed *treeEditor) file(p string) (*editEntry, *editNode, []*editNode, error) {
	e, n, chain, err := ed.lookup(p)
	if err != nil {
		return nil, nil, nil, err
	}
	if e == nil || !isFileMode(e.mode) {
		return nil, nil, nil, ErrFileNotFound
	}
	return e, n, chain, nil
}

func (ed *treeEditor) apply(a TreeAction) error {
	fail := func(p string, err error) error {
		var ae *ActionError
		if errors.As(err, &ae) || (!errors.Is(err, ErrFileExists) && !errors.Is(err, ErrDirectoryExists) &&
			!errors.Is(err, ErrFileNotFound) && !errors.Is(err, ErrNotSubmodule) &&
			!errors.Is(err, ErrInvalidPath) && !errors.Is(err, ErrInvalidArgument)) {
			return err
		}
		return &ActionError{Action: a.Action, Path: p, Err: err}
	}
	if err := ValidatePath(a.Path); err != nil {
		return fail(a.Path, err)
	}
	switch a.Action {
	case ActionCreate:
		if err := ed.put(a.Path, &editEntry{mode: "100644", blob: ed.addBlob(a.Content)}); err != nil {
			return fail(a.Path, err)
		}
	case ActionUpdate:
		e, _, chain, err := ed.file(a.Path)
		if err != nil {
			return fail(a.Path, err)
		}
		if e.mode == "160000" {
			return fail(a.Path, fmt.Errorf("%w: update of a submodule", ErrInvalidArgument))
		}
		e.blob, e.id = ed.addBlob(a.Content), ""
		markDirty(chain)
	case ActionDelete:
		_, n, chain, err := ed.file(a.Path)
		if err != nil {
			return fail(a.Path, err)
		}
		_, name := splitPath(a.Path)
		delete(n.entries, name)
		markDirty(chain)
	case ActionMove:
		if err := ValidatePath(a.PreviousPath); err != nil {
			return fail(a.PreviousPath, err)
		}
		e, n, chain, err := ed.file(a.PreviousPath)
		if err != nil {
			return fail(a.PreviousPath, err)
		}
		moved := *e
		if a.Content != nil {
			moved.blob, moved.id = ed.addBlob(a.Content), ""
		}
		if a.PreviousPath != a.Path {
			_, name := splitPath(a.PreviousPath)
			delete(n.entries, name)
			markDirty(chain)
			if err := ed.put(a.Path, &moved); err != nil {
				return fail(a.Path, err)
			}
		} else {
			*e = moved
			markDirty(chain)
		}
	case ActionChmod:
		e, _, chain, err := ed.file(a.Path)
		if err != nil {
			return fail(a.Path, err)
		}
		if e.mode != "100644" && e.mode != "100755" {
			return fail(a.Path, fmt.Errorf("%w: chmod of a symlink or submodule", ErrInvalidArgument))
		}
		mode := "100644"
		if a.Executable {
			mode = "100755"
		}
		if e.mode != mode {
			e.mode = mode
			markDirty(chain)
		}
	case ActionSubmodule:
		if err := a.SubmoduleCommit.Validate(); err != nil {
			return fail(a.Path, fmt.Errorf("%w: submodule commit", ErrInvalidArgument))
		}
		e, _, chain, err := ed.file(a.Path)
		if err != nil {
			return fail(a.Path, err)
		}
		if e.mode != "160000" {
			return fail(a.Path, ErrNotSubmodule)
		}
		e.id = a.SubmoduleCommit
		markDirty(chain)
	default:
		return fail(a.Path, fmt.Errorf("%w: unknown action %q", ErrInvalidArgument, a.Action))
	}
	return nil
}

// writeEdits writes the new blobs, then the changed trees bottom-up, and returns the root id.
func (r *Repository) writeEdits(ctx context.Context, ed *treeEditor) (ObjectID, error) {
	// New contents go to files in the client's private directory (not a shared /tmp): they may
	// come from private repositories.
	tmp, err := os.MkdirTemp(r.c.home, "tree-")
	if err != nil {
		return "", fmt.Errorf("edit tree: %w", err)
	}
	defer os.RemoveAll(tmp)

	blobIDs, err := r.hashObjects(ctx, tmp, "b", ed.blobs, false)
	if err != nil {
		return "", err
	}
	var trees [][]byte
	var treeIDs []ObjectID
	var serialize func(n *editNode) (ObjectID, bool)
	serialize = func(n *editNode) (ObjectID, bool) {
		if !n.dirty && n.id != "" {
			return n.id, n.id == EmptyTreeOID
		}
		type ent struct {
			name, key, mode string
			id              ObjectID
		}
		var ents []ent
		for name, e := range n.entries {
			id := e.id
			if e.blob > 0 {
				id = blobIDs[e.blob-1]
			}
			if e.mode == "040000" && e.tree != nil {
				var empty bool
				if id, empty = serialize(e.tree); empty {
					continue // a directory left empty disappears
				}
			}
			key := name
			if e.mode == "040000" {
				key += "/"
			}
			ents = append(ents, ent{name: name, key: key, mode: strings.TrimLeft(e.mode, "0"), id: id})
		}
		if len(ents) == 0 && n != ed.root {
			return EmptyTreeOID, true
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].key < ents[j].key })
		var buf bytes.Buffer
		for _, e := range ents {
			raw, _ := hex.DecodeString(string(e.id))
			buf.WriteString(e.mode + " " + e.name + "\x00")
			buf.Write(raw)
		}
		// An emptied root is written too: git knows the empty tree's id without storing it, but
		// fsck wants a commit's tree in the object store.
		id := hashObject(TypeTree, buf.Bytes())
		trees = append(trees, buf.Bytes())
		treeIDs = append(treeIDs, id)
		return id, len(ents) == 0
	}
	root, _ := serialize(ed.root)
	written, err := r.hashObjects(ctx, tmp, "t", trees, true)
	if err != nil {
		return "", err
	}
	for i := range written {
		if written[i] != treeIDs[i] {
			return "", fmt.Errorf("edit tree: git wrote tree %s, expected %s", written[i], treeIDs[i])
		}
	}
	return root, nil
}

// hashObjects writes objects with one hash-object process and returns their ids in order.
func (r *Repository) hashObjects(ctx context.Context, tmp, prefix string, contents [][]byte, trees bool) ([]ObjectID, error) {
	if len(contents) == 0 {
		return nil, nil
	}
	var paths strings.Builder
	for i, c := range contents {
		p := filepath.Join(tmp, prefix+strconv.Itoa(i))
		if err := os.WriteFile(p, c, 0o600); err != nil {
			return nil, fmt.Errorf("edit tree: %w", err)
		}
		paths.WriteString(p + "\n")
	}
	cmd := gitcmd.New("hash-object", "-w", "--no-filters", "--stdin-paths")
	if trees {
		cmd.Option("-t", "tree")
	}
	out, err := r.output(ctx, cmd, gitcmd.Stdin(strings.NewReader(paths.String())))
	if err != nil {
		return nil, fmt.Errorf("write objects: %w", err)
	}
	fields := strings.Fields(string(out))
	if len(fields) != len(contents) {
		return nil, fmt.Errorf("write objects: got %d ids for %d objects", len(fields), len(contents))
	}
	ids := make([]ObjectID, len(fields))
	for i, f := range fields {
		ids[i] = ObjectID(f)
	}
	return ids, nil
}
