package presenter

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"time"

	"anvil/internal/git"
	"anvil/internal/service/repofiles"
)

// FileMeta is GitLab's blob_data of the files API: the metadata of GET and HEAD
// /projects/:id/repository/files/:file_path, also sent as X-Gitlab-* headers.
type FileMeta struct {
	FileName        string `json:"file_name"`
	FilePath        string `json:"file_path"`
	Size            int64  `json:"size"`
	Encoding        string `json:"encoding"`
	ContentSHA256   string `json:"content_sha256"`
	Ref             string `json:"ref"`
	BlobID          string `json:"blob_id"`
	CommitID        string `json:"commit_id"`
	LastCommitID    string `json:"last_commit_id"`
	ExecuteFilemode bool   `json:"execute_filemode"`
}

// File is GET /projects/:id/repository/files/:file_path: the metadata and the Base64 content.
type File struct {
	FileMeta
	Content string `json:"content"`
}

// FileMetaOf renders a file's metadata.
func FileMetaOf(f *repofiles.File) FileMeta {
	return FileMeta{
		FileName: f.Name, FilePath: f.Path, Size: f.Size, Encoding: "base64", ContentSHA256: f.SHA256,
		Ref: f.Ref, BlobID: string(f.BlobID), CommitID: string(f.CommitID),
		LastCommitID: string(f.LastCommitID), ExecuteFilemode: f.Executable,
	}
}

// FileOf renders a file with its content (which must be loaded).
func FileOf(f *repofiles.File) File {
	return File{FileMeta: FileMetaOf(f), Content: base64.StdEncoding.EncodeToString(f.Content)}
}

// Headers returns the metadata as GitLab's set_http_headers sends it: X-Gitlab-File-Name,
// X-Gitlab-File-Path, X-Gitlab-Size, ... (each key capitalized word by word).
func (m FileMeta) Headers() [][2]string {
	return [][2]string{
		{"X-Gitlab-File-Name", m.FileName},
		{"X-Gitlab-File-Path", m.FilePath},
		{"X-Gitlab-Size", strconv.FormatInt(m.Size, 10)},
		{"X-Gitlab-Encoding", m.Encoding},
		{"X-Gitlab-Content-Sha256", m.ContentSHA256},
		{"X-Gitlab-Ref", m.Ref},
		{"X-Gitlab-Blob-Id", m.BlobID},
		{"X-Gitlab-Commit-Id", m.CommitID},
		{"X-Gitlab-Last-Commit-Id", m.LastCommitID},
		{"X-Gitlab-Execute-Filemode", strconv.FormatBool(m.ExecuteFilemode)},
	}
}

// FileInfo is the answer to a file change (POST and PUT .../files/:file_path).
type FileInfo struct {
	FilePath string `json:"file_path"`
	Branch   string `json:"branch"`
}

// BlameCommit is GitLab's BlameRangeCommit.
type BlameCommit struct {
	ID             string   `json:"id"`
	ParentIDs      []string `json:"parent_ids"`
	Message        string   `json:"message"`
	AuthoredDate   gitDate  `json:"authored_date"`
	AuthorName     string   `json:"author_name"`
	AuthorEmail    string   `json:"author_email"`
	CommittedDate  gitDate  `json:"committed_date"`
	CommitterName  string   `json:"committer_name"`
	CommitterEmail string   `json:"committer_email"`
}

// BlameRange is one entry of GET .../files/:file_path/blame: a commit and the consecutive
// lines it last changed.
type BlameRange struct {
	Commit BlameCommit `json:"commit"`
	Lines  []string    `json:"lines"`
}

// BlameRanges renders a blame (never null).
func BlameRanges(ranges []git.BlameRange) []BlameRange {
	out := make([]BlameRange, len(ranges))
	for i, r := range ranges {
		c := r.Commit
		parents := make([]string, len(c.Parents))
		for j, id := range c.Parents {
			parents[j] = string(id)
		}
		lines := r.Lines
		if lines == nil {
			lines = []string{}
		}
		out[i] = BlameRange{Lines: lines, Commit: BlameCommit{
			ID: string(c.ID), ParentIDs: parents, Message: c.Message,
			AuthoredDate: gitDate(c.Author.When), AuthorName: c.Author.Name, AuthorEmail: c.Author.Email,
			CommittedDate: gitDate(c.Committer.When), CommitterName: c.Committer.Name, CommitterEmail: c.Committer.Email,
		}}
	}
	return out
}

// gitDate is a commit date as GitLab renders it: with milliseconds, in the time zone the
// commit recorded ("2015-11-14T10:12:49.000+02:00").
type gitDate time.Time

// MarshalJSON renders the date.
func (d gitDate) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Time(d).Format("2006-01-02T15:04:05.000-07:00"))
}
