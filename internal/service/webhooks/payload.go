package webhooks

import (
	"crypto/md5" //nolint:gosec // avatar URLs use MD5 of the email, as GitLab's default avatar service does
	"encoding/hex"
	"net/url"
	"strings"
	"time"

	"anvil/ent"
)

// ProjectData is the project object of hook payloads (GitLab's Project#hook_attrs).
type ProjectData struct {
	ID                int     `json:"id"`
	Name              string  `json:"name"`
	Description       string  `json:"description"`
	WebURL            string  `json:"web_url"`
	AvatarURL         *string `json:"avatar_url"`
	GitSSHURL         string  `json:"git_ssh_url"`
	GitHTTPURL        string  `json:"git_http_url"`
	Namespace         string  `json:"namespace"`
	VisibilityLevel   int     `json:"visibility_level"`
	PathWithNamespace string  `json:"path_with_namespace"`
	DefaultBranch     string  `json:"default_branch"`
	CIConfigPath      *string `json:"ci_config_path"`
	Homepage          string  `json:"homepage"`
	URL               string  `json:"url"`
	SSHURL            string  `json:"ssh_url"`
	HTTPURL           string  `json:"http_url"`
}

// RepositoryData is the repository object of push payloads.
type RepositoryData struct {
	Name            string `json:"name"`
	URL             string `json:"url"`
	Description     string `json:"description"`
	Homepage        string `json:"homepage"`
	GitHTTPURL      string `json:"git_http_url"`
	GitSSHURL       string `json:"git_ssh_url"`
	VisibilityLevel int    `json:"visibility_level"`
}

// visibilityLevels are GitLab's numeric visibility levels.
var visibilityLevels = map[string]int{"private": 0, "internal": 10, "public": 20}

// projectData is p's payload object; its namespace edge must be loaded.
func (s *Service) projectData(p *ent.Project) ProjectData {
	full := p.Edges.Namespace.FullPath + "/" + p.Path
	web := strings.TrimRight(s.ExternalURL, "/") + "/" + full
	ssh := "git@" + s.host() + ":" + full + ".git"
	var avatar, ci *string
	if p.AvatarURL != "" {
		avatar = &p.AvatarURL
	}
	if p.CiConfigPath != "" {
		ci = &p.CiConfigPath
	}
	return ProjectData{
		ID: p.ID, Name: p.Name, Description: p.Description, WebURL: web, AvatarURL: avatar,
		GitSSHURL: ssh, GitHTTPURL: web + ".git", Namespace: p.Edges.Namespace.Name,
		VisibilityLevel: visibilityLevels[string(p.Visibility)], PathWithNamespace: full,
		DefaultBranch: p.DefaultBranch, CIConfigPath: ci, Homepage: web, URL: ssh, SSHURL: ssh,
		HTTPURL: web + ".git",
	}
}

// repositoryData is p's repository object.
func (s *Service) repositoryData(pd ProjectData) RepositoryData {
	return RepositoryData{Name: pd.Name, URL: pd.URL, Description: pd.Description, Homepage: pd.Homepage,
		GitHTTPURL: pd.GitHTTPURL, GitSSHURL: pd.GitSSHURL, VisibilityLevel: pd.VisibilityLevel}
}

// host is the instance's host name.
func (s *Service) host() string {
	u, err := url.Parse(s.ExternalURL)
	if err != nil || u.Hostname() == "" {
		return "localhost"
	}
	return u.Hostname()
}

// UserData is the user object of hook payloads (GitLab's User#hook_attrs).
type UserData struct {
	ID        int    `json:"id"`
	Name      string `json:"name"`
	Username  string `json:"username"`
	AvatarURL string `json:"avatar_url"`
	Email     string `json:"email"`
}

// userData is u's payload object.
func userData(u *ent.User) UserData {
	return UserData{ID: u.ID, Name: u.Name, Username: u.Username, AvatarURL: avatarURL(u), Email: webhookEmail(u)}
}

// webhookEmail is the email payloads show: the public one, else GitLab's placeholder.
func webhookEmail(u *ent.User) string {
	if u.PublicEmail != "" {
		return u.PublicEmail
	}
	return "[REDACTED]"
}

// avatarURL is the user's avatar, or the identicon of the email.
func avatarURL(u *ent.User) string {
	if u.AvatarURL != "" {
		return u.AvatarURL
	}
	sum := md5.Sum([]byte(strings.ToLower(strings.TrimSpace(u.Email)))) //nolint:gosec
	return "https://www.gravatar.com/avatar/" + hex.EncodeToString(sum[:]) + "?s=80&d=identicon"
}

// timestamp is GitLab's time format in payloads ("2024-03-04T05:06:07+02:00").
func timestamp(t time.Time) string { return t.Format(time.RFC3339) }

// hookTime is the UTC time format of issue and system payloads ("2024-03-04 05:06:07 UTC").
func hookTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }
