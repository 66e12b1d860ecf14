package presenter

import (
	"encoding/base64"

	"anvil/internal/git"
)

// Blob is GET /projects/:id/repository/blobs/:sha: the content, always Base64.
type Blob struct {
	Size     int64  `json:"size"`
	Encoding string `json:"encoding"`
	Content  string `json:"content"`
	SHA      string `json:"sha"`
}

// BlobOf renders a blob read in full.
func BlobOf(b *git.Blob) Blob {
	return Blob{Size: b.Size, Encoding: "base64", Content: base64.StdEncoding.EncodeToString(b.Data), SHA: string(b.ID)}
}
