package graph

import (
	"crypto/md5" //nolint:gosec // Gravatar addresses avatars by the MD5 of the email
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"anvil/graph/model"
	"anvil/internal/git"
)

// gidCommit is the model name of commit global ids: GitLab presents commits through
// CommitPresenter, whose name its ids carry.
const gidCommit = "CommitPresenter"

// noCommitMessage is GitLab's title of a commit without a message.
const noCommitMessage = "No commit message"

// commitOf presents a commit of repo's project as GitLab's Commit type does.
func (r *Resolver) commitOf(repo *model.Repository, c *git.Commit) *model.Commit {
	sha := string(c.ID)
	full := fullTitle(c.Message)
	title := commitTitle(full)
	webPath := "/" + repo.FullPath + "/-/commit/" + sha
	author, committer := c.Author, c.Committer
	gravatar := gravatarURL(author.Email)
	message := c.Message
	return &model.Commit{
		ID: "gid://gitlab/" + gidCommit + "/" + sha, Sha: sha, ShortID: c.ID.Short(),
		Title: &title, FullTitle: &full, Description: commitDescription(c.Message), Message: &message,
		AuthoredDate: &author.When, CommittedDate: &committer.When,
		WebURL: r.baseURL + webPath, WebPath: webPath,
		AuthorName: &author.Name, AuthorEmail: &author.Email, AuthorGravatar: &gravatar,
		CommitterName: &committer.Name, CommitterEmail: &committer.Email,
	}
}

// fullTitle is GitLab's Commit#full_title: the first line of the message, cut to 80 characters
// and an ellipsis when that line is over 100; "No commit message" for a blank message.
func fullTitle(msg string) string {
	if strings.TrimSpace(msg) == "" {
		return noCommitMessage
	}
	line, _, _ := strings.Cut(msg, "\n")
	if utf8.RuneCountInString(line) > 100 {
		return string([]rune(line)[:80]) + "…"
	}
	return line
}

// commitTitle is GitLab's Commit#title: the full title, or under 100 characters it is cut at a
// word boundary to at most 81 with an ellipsis.
func commitTitle(full string) string {
	runes := []rune(full)
	if len(runes) < 100 {
		return full
	}
	cut := string(runes[:80])
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return cut + "…"
}

// commitDescription is GitLab's Commit#description: the message after its first line, less one
// trailing newline; null for a one-line message.
func commitDescription(msg string) *string {
	_, rest, ok := strings.Cut(msg, "\n")
	if !ok {
		return nil
	}
	rest = strings.TrimSuffix(rest, "\n")
	rest = strings.TrimSuffix(rest, "\r")
	return &rest
}

// gravatarURL is GitLab's Gravatar address for an email at 40 pixels (requested at twice the
// size, as GitLab does for high-density screens).
func gravatarURL(email string) string {
	sum := md5.Sum([]byte(strings.ToLower(strings.TrimSpace(email)))) //nolint:gosec
	return "https://www.gravatar.com/avatar/" + hex.EncodeToString(sum[:]) + "?s=80&d=identicon"
}
