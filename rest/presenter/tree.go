package presenter

import "anvil/internal/git"

// TreeEntry is GitLab's TreeObject: one entry of GET /projects/:id/repository/tree.
type TreeEntry struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"` // tree, blob or commit (a submodule)
	Path string `json:"path"`
	// Mode is six octal digits: "040000" for a directory, "100644" for a file.
	Mode string `json:"mode"`
}

// TreeEntries renders a tree listing (never null).
func TreeEntries(entries []git.TreeEntry) []TreeEntry {
	out := make([]TreeEntry, len(entries))
	for i, e := range entries {
		out[i] = TreeEntry{ID: string(e.ID), Name: e.Name, Type: string(e.Type), Path: e.Path, Mode: e.Mode}
	}
	return out
}
