package presenter

import (
	"strings"
	"unicode/utf8"

	"anvil/ent"
	"anvil/internal/git"
	"anvil/internal/service/repofiles"
)

// DiffEntry is GitLab's Diff entity: one changed file of a comparison or commit.
type DiffEntry struct {
	// Diff is the patch from the first hunk header; empty when collapsed or too large.
	Diff        string `json:"diff"`
	Collapsed   bool   `json:"collapsed"`
	TooLarge    bool   `json:"too_large"`
	NewPath     string `json:"new_path"`
	OldPath     string `json:"old_path"`
	AMode       string `json:"a_mode"`
	BMode       string `json:"b_mode"`
	NewFile     bool   `json:"new_file"`
	RenamedFile bool   `json:"renamed_file"`
	DeletedFile bool   `json:"deleted_file"`
	// GeneratedFile marks generated files (gitattributes); Anvil marks none.
	GeneratedFile bool `json:"generated_file"`
}

// DiffEntryOf renders one changed file. unidiff adds the "--- a/x" and "+++ b/x" header lines
// GitLab adds with unidiff=true; a patch that is not UTF-8 is replaced by GitLab's binary notice.
func DiffEntryOf(f git.DiffFile, collapsed, unidiff bool) DiffEntry {
	d := DiffEntry{
		Diff: f.Patch, Collapsed: collapsed, TooLarge: f.TooLarge, NewPath: f.NewPath, OldPath: f.OldPath,
		AMode: diffMode(f.OldMode), BMode: diffMode(f.NewMode),
		NewFile: f.NewFile(), RenamedFile: f.RenamedFile(), DeletedFile: f.DeletedFile(),
	}
	if !utf8.ValidString(d.Diff) {
		d.Diff = "Binary files " + f.OldPath + " and " + f.NewPath + " differ\n"
		return d
	}
	if unidiff && d.Diff != "" && !strings.HasPrefix(d.Diff, "Binary files ") {
		oldHeader, newHeader := "a/"+f.OldPath, "b/"+f.NewPath
		if d.NewFile {
			oldHeader = "/dev/null"
		}
		if d.DeletedFile {
			newHeader = "/dev/null"
		}
		d.Diff = "--- " + oldHeader + "\n+++ " + newHeader + "\n" + d.Diff
	}
	return d
}

// diffMode renders a mode as Gitaly's integer in octal: a missing side is "0".
func diffMode(m string) string {
	if strings.Trim(m, "0") == "" {
		return "0"
	}
	return m
}

// Comparison is GitLab's Compare entity (GET /projects/:id/repository/compare).
type Comparison struct {
	// Commit is the newest commit of the range, or null when the range is empty.
	Commit         *Commit     `json:"commit"`
	Commits        []Commit    `json:"commits"`
	Diffs          []DiffEntry `json:"diffs"`
	CompareTimeout bool        `json:"compare_timeout"`
	CompareSameRef bool        `json:"compare_same_ref"`
	WebURL         string      `json:"web_url"`
}

// Comparison renders a comparison; unidiff asks for unified diff headers. Commits are listed
// without trailers, as GitLab lists them.
func (p *Presenter) Comparison(c *repofiles.Comparison, unidiff bool) Comparison {
	out := Comparison{
		Commits: make([]Commit, len(c.Commits)), Diffs: make([]DiffEntry, len(c.Diffs)),
		CompareTimeout: c.Overflow, CompareSameRef: c.SameRef,
		WebURL: p.ProjectWebURL(c.Project) + "/-/compare/" + string(c.Base) + "..." + string(c.Head),
	}
	for i, commit := range c.Commits {
		out.Commits[i] = p.Commit(c.Project, commit, false)
	}
	if n := len(out.Commits); n > 0 {
		out.Commit = &out.Commits[n-1]
	}
	for i, d := range c.Diffs {
		out.Diffs[i] = DiffEntryOf(d.DiffFile, d.Collapsed, unidiff)
	}
	return out
}

// MergeBaseCommit renders the commit of GET /projects/:id/repository/merge_base (GitLab reads it
// without trailers).
func (p *Presenter) MergeBaseCommit(proj *ent.Project, c *git.Commit) Commit {
	return p.Commit(proj, c, false)
}
