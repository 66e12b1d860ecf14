package presenter

import (
	"net/url"
	"strconv"
	"strings"

	"anvil/ent"
)

// Snippet is GitLab's snippet entity (Entities::Snippet, also PersonalSnippet and
// ProjectSnippet): BasicSnippet's fields, then the files.
type Snippet struct {
	ID            int           `json:"id"`
	Title         string        `json:"title"`
	Description   *string       `json:"description"`
	Visibility    string        `json:"visibility"`
	Author        *UserBasic    `json:"author"`
	CreatedAt     Time          `json:"created_at"`
	UpdatedAt     Time          `json:"updated_at"`
	ProjectID     *int          `json:"project_id"`
	WebURL        string        `json:"web_url"`
	RawURL        string        `json:"raw_url"`
	SSHURLToRepo  string        `json:"ssh_url_to_repo,omitempty"`
	HTTPURLToRepo string        `json:"http_url_to_repo,omitempty"`
	FileName      string        `json:"file_name"`
	Files         []SnippetFile `json:"files"`
	Imported      bool          `json:"imported"`
	ImportedFrom  string        `json:"imported_from"`
	// RepositoryStorage is shown to administrators only.
	RepositoryStorage string `json:"repository_storage,omitempty"`
}

// SnippetFile is one file of a snippet with the URL of its raw content at the default branch.
type SnippetFile struct {
	Path   string `json:"path"`
	RawURL string `json:"raw_url"`
}

// UserAgentDetail is GitLab's user agent detail of a snippet (administrators).
type UserAgentDetail struct {
	UserAgent        string `json:"user_agent"`
	IPAddress        string `json:"ip_address"`
	AkismetSubmitted bool   `json:"akismet_submitted"`
}

// snippetPaths returns the web path of a snippet ("/-/snippets/1", or under its project) and
// the path of its repository ("snippets/1", or under its project); the project's namespace must
// be loaded for a project snippet.
func snippetPaths(sn *ent.Snippet) (web, repo string) {
	id := strconv.Itoa(sn.ID)
	if pr := sn.Edges.Project; pr != nil {
		full := ProjectFullPath(pr)
		return "/" + full + "/-/snippets/" + id, full + "/snippets/" + id
	}
	return "/-/snippets/" + id, "snippets/" + id
}

// Snippet renders a snippet; admin shows its repository storage.
func (p *Presenter) Snippet(sn *ent.Snippet, admin bool) *Snippet {
	web, repo := snippetPaths(sn)
	webURL := p.BaseURL + web
	out := &Snippet{
		ID: sn.ID, Title: sn.Title, Description: sn.Description, Visibility: string(sn.Visibility),
		Author: p.UserBasic(sn.Edges.Author), CreatedAt: Time(sn.CreatedAt), UpdatedAt: Time(sn.UpdatedAt),
		ProjectID: sn.ProjectID, WebURL: webURL, RawURL: webURL + "/raw", FileName: sn.FileName,
		Files: []SnippetFile{}, Imported: sn.ImportedFrom != "none", ImportedFrom: sn.ImportedFrom,
	}
	if sn.DiskPath != "" {
		out.SSHURLToRepo = "git@" + hostname(p.host()) + ":" + repo + ".git"
		out.HTTPURLToRepo = p.BaseURL + "/" + repo + ".git"
	}
	if len(sn.Files) > 0 {
		out.FileName = sn.Files[0]
	}
	for _, f := range sn.Files {
		out.Files = append(out.Files, SnippetFile{Path: f, RawURL: webURL + "/raw/" + sn.DefaultBranch + "/" + escapeFilePath(f)})
	}
	if admin {
		out.RepositoryStorage = sn.RepositoryStorage
	}
	return out
}

// Snippets renders a list of snippets.
func (p *Presenter) Snippets(sns []*ent.Snippet, admin bool) []*Snippet {
	out := make([]*Snippet, 0, len(sns))
	for _, sn := range sns {
		out = append(out, p.Snippet(sn, admin))
	}
	return out
}

// SnippetUserAgentDetail renders a snippet's user agent detail.
func (p *Presenter) SnippetUserAgentDetail(sn *ent.Snippet) *UserAgentDetail {
	return &UserAgentDetail{UserAgent: sn.UserAgent, IPAddress: sn.IPAddress}
}

// escapeFilePath escapes each component of a path for a URL, keeping the slashes.
func escapeFilePath(path string) string {
	parts := strings.Split(path, "/")
	for i, part := range parts {
		parts[i] = url.PathEscape(part)
	}
	return strings.Join(parts, "/")
}
