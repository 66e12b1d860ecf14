package presenter

import (
	"strings"
	"unicode/utf8"

	"anvil/ent"
	"anvil/internal/git"
	"anvil/internal/service/projects"
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
	Commit         *compareCommit  `json:"commit"`
	Commits        []compareCommit `json:"commits"`
	Diffs          []DiffEntry     `json:"diffs"`
	CompareTimeout bool            `json:"compare_timeout"`
	CompareSameRef bool            `json:"compare_same_ref"`
	WebURL         string          `json:"web_url"`
}

// Comparison renders a comparison; unidiff asks for unified diff headers.
func (p *Presenter) Comparison(c *repofiles.Comparison, unidiff bool) Comparison {
	projectURL := p.BaseURL + "/" + projects.FullPath(c.Project)
	out := Comparison{
		Commits: make([]compareCommit, len(c.Commits)), Diffs: make([]DiffEntry, len(c.Diffs)),
		CompareTimeout: c.Overflow, CompareSameRef: c.SameRef,
		WebURL: projectURL + "/-/compare/" + string(c.Base) + "..." + string(c.Head),
	}
	for i, commit := range c.Commits {
		out.Commits[i] = p.compareCommitOf(commit, projectURL)
	}
	if n := len(out.Commits); n > 0 {
		out.Commit = &out.Commits[n-1]
	}
	for i, d := range c.Diffs {
		out.Diffs[i] = DiffEntryOf(d.DiffFile, d.Collapsed, unidiff)
	}
	return out
}

// compareCommit is GitLab's Commit entity as a comparison lists it.
// TODO(commits): switch to the Commit presenter of commit.go once it exists.
type compareCommit struct {
	ID               string              `json:"id"`
	ShortID          string              `json:"short_id"`
	CreatedAt        gitDate             `json:"created_at"`
	ParentIDs        []string            `json:"parent_ids"`
	Title            string              `json:"title"`
	Message          string              `json:"message"`
	AuthorName       string              `json:"author_name"`
	AuthorEmail      string              `json:"author_email"`
	AuthoredDate     gitDate             `json:"authored_date"`
	CommitterName    string              `json:"committer_name"`
	CommitterEmail   string              `json:"committer_email"`
	CommittedDate    gitDate             `json:"committed_date"`
	Trailers         map[string]string   `json:"trailers"`
	ExtendedTrailers map[string][]string `json:"extended_trailers"`
	WebURL           string              `json:"web_url"`
}

func (p *Presenter) compareCommitOf(c *git.Commit, projectURL string) compareCommit {
	parents := make([]string, len(c.Parents))
	for i, id := range c.Parents {
		parents[i] = string(id)
	}
	trailers, extended := c.TrailerMap(), c.ExtendedTrailers()
	if trailers == nil {
		trailers = map[string]string{}
	}
	if extended == nil {
		extended = map[string][]string{}
	}
	return compareCommit{
		ID: string(c.ID), ShortID: c.ID.Short(), CreatedAt: gitDate(c.Committer.When), ParentIDs: parents,
		Title: c.Subject(), Message: c.Message,
		AuthorName: c.Author.Name, AuthorEmail: c.Author.Email, AuthoredDate: gitDate(c.Author.When),
		CommitterName: c.Committer.Name, CommitterEmail: c.Committer.Email, CommittedDate: gitDate(c.Committer.When),
		Trailers: trailers, ExtendedTrailers: extended,
		WebURL: projectURL + "/-/commit/" + string(c.ID),
	}
}

// MergeBaseCommit renders the commit of GET /projects/:id/repository/merge_base.
func (p *Presenter) MergeBaseCommit(proj *ent.Project, c *git.Commit) any {
	return p.compareCommitOf(c, p.BaseURL+"/"+projects.FullPath(proj))
}
