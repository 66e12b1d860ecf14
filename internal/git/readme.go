package git

import (
	"context"
	"path"
	"regexp"
	"slices"
	"strings"
)

// readmeName matches the names GitLab treats as a README: "readme" in any case, with or
// without one extension.
var readmeName = regexp.MustCompile(`(?i)^readme(\.[a-z0-9_-]+)?$`)

// markupExtensions are the README formats GitLab renders; it prefers them to plain text.
var markupExtensions = []string{".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".rdoc", ".adoc",
	".asciidoc", ".asc", ".rst", ".org", ".textile", ".creole", ".wiki", ".mediawiki", ".pod", ".ipynb"}

// ReadmePath returns the path of the README at the root of rev ("" when there is none): a
// rendered format before plain text, then git's order.
func (r *Repository) ReadmePath(ctx context.Context, rev string) (string, error) {
	entries, err := r.ListTree(ctx, rev, "", ListTreeOptions{})
	if err != nil {
		return "", err
	}
	plain := ""
	for _, e := range entries {
		if e.Type != "blob" || !readmeName.MatchString(e.Name) {
			continue
		}
		if slices.Contains(markupExtensions, strings.ToLower(path.Ext(e.Name))) {
			return e.Name, nil
		}
		if plain == "" {
			plain = e.Name
		}
	}
	return plain, nil
}
