package snippets

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
)

// FileAction is one entry of files[] (GitLab's snippet actions): create, update, delete or
// move a file of the snippet's repository.
type FileAction struct {
	// Action is create, update, delete or move (POST's files[] are all creates).
	Action string
	// FilePath is the file's path; a create without one gets a generated name
	// ("snippetfile1.txt").
	FilePath string
	// PreviousPath is the source of a move (and, for an update, must equal FilePath).
	PreviousPath string
	// Content is the file's content (create and update; a move may replace it).
	Content *string
}

// Actions are the values of files[][action].
var Actions = []string{"create", "update", "delete", "move"}

// errInvalidFiles is GitLab's refusal of inconsistent snippet actions.
var errInvalidFiles = apperr.Unprocessable("Snippet files have invalid data")

// validAction reports whether a satisfies GitLab's SnippetInputAction rules: a known action;
// content for create and update; a path for everything but create; the previous path of a
// move, different from the new one; an update in place.
func validAction(a FileAction) bool {
	hasContent := a.Content != nil && *a.Content != ""
	switch a.Action {
	case "create":
		return hasContent
	case "update":
		return hasContent && a.FilePath != "" && (a.PreviousPath == "" || a.PreviousPath == a.FilePath)
	case "delete":
		return a.FilePath != ""
	case "move":
		return a.FilePath != "" && a.PreviousPath != "" && a.PreviousPath != a.FilePath
	}
	return false
}

// treeActions turns file actions into tree edits, naming the unnamed created files as GitLab
// does (snippetfileN.txt, N counting from the number of files already there plus one, skipping
// names in use).
func treeActions(actions []FileAction, existing []string) ([]git.TreeAction, error) {
	taken := map[string]bool{}
	for _, p := range existing {
		taken[p] = true
	}
	n := len(existing)
	out := make([]git.TreeAction, 0, len(actions))
	for _, a := range actions {
		if !validAction(a) {
			return nil, errInvalidFiles
		}
		path := strings.TrimSpace(a.FilePath)
		if a.Action == "create" && path == "" {
			for {
				n++
				path = fmt.Sprintf("snippetfile%d.txt", n)
				if !taken[path] {
					break
				}
			}
		}
		taken[path] = true
		ta := git.TreeAction{Action: git.TreeActionType(a.Action), Path: path, PreviousPath: a.PreviousPath}
		if a.Content != nil {
			ta.Content = []byte(*a.Content)
		}
		out = append(out, ta)
	}
	return out, nil
}

// repositoryError is GitLab's answer when the files cannot be committed (a file created twice,
// updated or deleted but missing, a bad path, no file left): "Repository Error creating the
// snippet" (or updating), without the reason, as GitLab words its snippet commit errors.
// Anything else is no refusal and is returned as it is.
func repositoryError(creating bool, err error) error {
	var ae *git.ActionError
	if !errors.As(err, &ae) && !errors.Is(err, errNoFiles) && !errors.Is(err, git.ErrInvalidPath) {
		return err
	}
	msg := "Error updating the snippet"
	if creating {
		msg = "Error creating the snippet"
	}
	return apperr.Validation(map[string][]string{"repository": {msg}})
}

// errNoFiles refuses a change that would leave the snippet without files.
var errNoFiles = errors.New("snippet without files")

// commitFiles writes one commit of actions on the snippet's default branch (created by the
// first commit), moving the branch only from the value it had (a concurrent change of the same
// snippet makes one of them fail), and returns the files at the new commit in git's order.
func commitFiles(ctx context.Context, repo *git.Repository, sn *ent.Snippet, actor *authz.Actor, message string, actions []git.TreeAction) ([]string, error) {
	ref := git.BranchRef(sn.DefaultBranch)
	old, exists, err := repo.BranchTip(ctx, sn.DefaultBranch)
	if err != nil {
		return nil, err
	}
	base, parents, expect := "", []git.ObjectID(nil), git.ZeroOID
	if exists {
		base, parents, expect = string(old), []git.ObjectID{old}, old
	}
	tree, err := repo.EditTree(ctx, base, actions)
	if err != nil {
		return nil, err
	}
	files, err := listFiles(ctx, repo, string(tree))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errNoFiles
	}
	sig := signature(actor)
	id, err := repo.CommitTree(ctx, git.CommitTreeOptions{Tree: tree, Parents: parents, Message: message, Author: sig, Committer: sig})
	if err != nil {
		return nil, err
	}
	if err := repo.UpdateRef(ctx, ref, id, expect); err != nil {
		if errors.Is(err, git.ErrStaleRef) || errors.Is(err, git.ErrReferenceExists) {
			return nil, apperr.Refused("Could not update " + ref + ". Please refresh and try again.")
		}
		return nil, err
	}
	return files, nil
}

// listFiles lists the paths of the files of tree (or commit) rev in git's order.
func listFiles(ctx context.Context, repo *git.Repository, rev string) ([]string, error) {
	entries, err := repo.ListTree(ctx, rev, "", git.ListTreeOptions{Recursive: true})
	if err != nil {
		return nil, err
	}
	files := []string{}
	for _, e := range entries {
		if e.Type == git.TypeBlob {
			files = append(files, e.Path)
		}
	}
	return files, nil
}

// signature is the commit identity of the actor: its name and commit email (or email), now.
func signature(actor *authz.Actor) git.Signature {
	u := actor.User
	email := u.Email
	if u.CommitEmail != "" {
		email = u.CommitEmail
	}
	return git.Signature{Name: u.Name, Email: email, When: time.Now().UTC()}
}
