package refs

import (
	"regexp"
	"strings"
)

// Search keeps the items whose name matches term as GitLab's ref finders do: case-insensitive;
// a term with "^", "$" or "*" is a pattern (the first "^" and "$" keep their regular
// expression meaning, every "*" matches any run of characters, everything else is literal);
// any other term matches names containing it, and the name equal to it (ignoring case) comes
// first (ExactFirst). An empty term keeps everything. The order is otherwise kept.
func Search[T any](items []T, name func(T) string, term string) []T {
	if term == "" {
		return items
	}
	pattern := regexp.QuoteMeta(strings.ToLower(term))
	if isPattern(term) {
		pattern = strings.Replace(pattern, `\^`, "^", 1)
		pattern = strings.ReplaceAll(pattern, `\*`, ".*?")
		pattern = strings.Replace(pattern, `\$`, "$", 1)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		// Every other metacharacter is quoted, so this cannot happen; match nothing.
		return nil
	}
	var out []T
	for _, it := range items {
		if re.MatchString(strings.ToLower(name(it))) {
			out = append(out, it)
		}
	}
	return ExactFirst(out, name, term)
}

// isPattern reports whether a search term uses GitLab's pattern operators.
func isPattern(term string) bool { return strings.ContainsAny(term, "^$*") }

// ExactFirst moves the first item named term (ignoring case) to the front, as GitLab does for
// plain (non-pattern) searches; other terms leave items as they are.
func ExactFirst[T any](items []T, name func(T) string, term string) []T {
	if term == "" || isPattern(term) {
		return items
	}
	for i, it := range items {
		if strings.EqualFold(name(it), term) {
			if i > 0 {
				copy(items[1:i+1], items[:i])
				items[0] = it
			}
			break
		}
	}
	return items
}
