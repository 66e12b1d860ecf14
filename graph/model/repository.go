package model

import (
	"anvil/ent"
	"anvil/internal/git"
)

// Repository is a project's repository as GraphQL shows it. One is made only after the caller
// was allowed to read the project's code (repos.Open), so its fields need no further check; the
// operations below it (trees, blobs, commits) go through the services, which check again.
type Repository struct {
	Project *ent.Project
	// FullPath is the project's full path, which web links start with.
	FullPath string
}

// Tree is one directory of a repository at a commit, with all its entries in GitLab's order
// (directories, files, submodules). Its connections page over Entries in memory, as GitLab's
// do.
type Tree struct {
	Repository *Repository
	// Ref is the ref the tree was asked for (the commit id when none was given); web URLs use it.
	Ref string
	// Commit is the commit Ref resolved to; empty when it resolved to nothing (an unknown ref),
	// and the tree then has no entries and no last commit.
	Commit git.ObjectID
	// Path is the directory ("" for the root).
	Path      string
	Recursive bool
	Entries   []git.TreeEntry
}
