package gittest

import (
	"context"
	"strings"
	"testing"
	"time"

	"anvil/internal/git"
)

// SubmoduleCommit is the commit a Write's Submodule points at (it need not exist).
const SubmoduleCommit = "1234567890123456789012345678901234567890"

// Write is one commit to write into an existing repository through the git layer, as tests of
// the API write into the repositories the server owns (Spec builds whole repositories instead).
type Write struct {
	// Base is the commit whose tree the change starts from ("": the empty tree).
	Base git.ObjectID
	// Parents are the commit's parents (none: a root commit).
	Parents []git.ObjectID
	// Files are created or replaced (path → content); a "+x" suffix on the path makes the file
	// executable. Deletes are removed.
	Files   map[string]string
	Deletes []string
	// Author signs the commit as author and committer (zero: Author), at Epoch (zero: this
	// package's Epoch) plus Minute minutes.
	Author git.Signature
	Epoch  time.Time
	Minute int
	// Message is the commit message (empty: "commit by <author name>").
	Message string
	// Submodule adds a gitlink with this path pointing at SubmoduleCommit.
	Submodule string
}

// WriteCommit writes the commit w describes and returns its id; no ref moves (SetRef).
func WriteCommit(tb testing.TB, r *git.Repository, w Write) git.ObjectID {
	tb.Helper()
	ctx := context.Background()
	var actions []git.TreeAction
	for p, content := range w.Files {
		executable := strings.HasSuffix(p, "+x")
		p = strings.TrimSuffix(p, "+x")
		action := git.ActionCreate
		if w.Base != "" {
			if _, err := r.TreeEntryAt(ctx, string(w.Base), p); err == nil {
				action = git.ActionUpdate
			}
		}
		actions = append(actions, git.TreeAction{Action: action, Path: p, Content: []byte(content)})
		if executable {
			actions = append(actions, git.TreeAction{Action: git.ActionChmod, Path: p, Executable: true})
		}
	}
	for _, p := range w.Deletes {
		actions = append(actions, git.TreeAction{Action: git.ActionDelete, Path: p})
	}
	tree, err := r.EditTree(ctx, string(w.Base), actions)
	if err != nil {
		tb.Fatalf("edit tree: %v", err)
	}
	if w.Submodule != "" {
		// The git layer cannot add a gitlink; write the tree with the git CLI (tests only).
		listing := Git(tb, r.Path(), nil, "ls-tree", string(tree))
		listing += "160000 commit " + SubmoduleCommit + "\t" + w.Submodule + "\n"
		tree = git.ObjectID(strings.TrimSpace(Git(tb, r.Path(), []byte(listing), "mktree", "--missing")))
	}
	sig := w.Author
	if sig.Name == "" {
		sig = Author
	}
	epoch := w.Epoch
	if epoch.IsZero() {
		epoch = Epoch
	}
	sig.When = epoch.Add(time.Duration(w.Minute) * time.Minute)
	msg := w.Message
	if msg == "" {
		msg = "commit by " + sig.Name + "\n"
	}
	id, err := r.CommitTree(ctx, git.CommitTreeOptions{Tree: tree, Parents: w.Parents, Message: msg, Author: sig, Committer: sig})
	if err != nil {
		tb.Fatalf("commit tree: %v", err)
	}
	return id
}

// SetRef points the ref name (refs/...) at id, whatever it pointed at.
func SetRef(tb testing.TB, r *git.Repository, name string, id git.ObjectID) {
	tb.Helper()
	if err := r.UpdateRef(context.Background(), name, id, ""); err != nil {
		tb.Fatalf("update %s: %v", name, err)
	}
}
