package namespaces

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"anvil/ent/namespace"
	"anvil/internal/db"
)

// maxSuggestionTries bounds the numbered suggestions tried before giving up on a suggestion.
const maxSuggestionTries = 1000

// Exists reports whether a namespace with this path (any case) exists under the parent
// parentID, or at the top level when parentID is nil, as GET /namespaces/:id/exists answers;
// when it does, suggests holds a free path: the path cleaned up with the first free number
// appended (GitLab's Namespace.clean_path). Every signed-in user may ask.
func (s *Service) Exists(ctx context.Context, path string, parentID *int) (bool, []string, error) {
	c := db.ClientFrom(ctx, s.client)
	under := namespace.ParentIDIsNil()
	if parentID != nil {
		under = namespace.ParentID(*parentID)
	}
	exists, err := c.Namespace.Query().Where(under, namespace.PathEqualFold(path)).Exist(ctx)
	if err != nil || !exists {
		return exists, []string{}, err
	}
	base := cleanPath(path)
	taken := func(candidate string) (bool, error) {
		return c.Namespace.Query().Where(under, namespace.Or(namespace.PathEqualFold(candidate), namespace.NameEqualFold(candidate))).Exist(ctx)
	}
	for n := 0; n <= maxSuggestionTries; n++ {
		candidate := base
		if n > 0 {
			candidate += strconv.Itoa(n)
		}
		used, err := taken(candidate)
		if err != nil {
			return true, nil, err
		}
		if !used {
			return true, []string{candidate}, nil
		}
	}
	return true, []string{}, nil
}

var (
	invalidPathChars = regexp.MustCompile(`[^a-zA-Z0-9_.\-]+`)
	repeatedSpecials = regexp.MustCompile(`[_.\-]{2,}`)
)

// cleanPath turns any text into a valid namespace path as GitLab's path slugs do: characters a
// path may not hold become '-', runs of special characters collapse, and the path may neither
// start nor end with one, nor end in .git or .atom.
func cleanPath(s string) string {
	s = invalidPathChars.ReplaceAllString(s, "-")
	s = repeatedSpecials.ReplaceAllStringFunc(s, func(run string) string { return run[:1] })
	for {
		trimmed := strings.TrimSuffix(strings.TrimSuffix(s, ".git"), ".atom")
		trimmed = strings.Trim(trimmed, "_.-")
		if trimmed == s {
			break
		}
		s = trimmed
	}
	if s == "" {
		return "blank"
	}
	return s
}
