package refs

import (
	"regexp"
	"strings"
)

// Glob compiles a branch name search pattern (GraphQL's branchNames searchPattern) the way GitLab matches it (a Redis set scan
// with MATCH, glob-style and case-sensitive): "*" matches any run of characters, "/" included,
// "?" one character, "[...]" a class ("[^...]" negated, "a-z" ranges), and "\" escapes the
// next character. An unterminated class is taken literally; a pattern that still does not
// compile (a reversed range such as "[z-a]") matches nothing.
func Glob(pattern string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`^`)
	runes := []rune(pattern)
	for i := 0; i < len(runes); i++ {
		switch c := runes[i]; c {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		case '\\':
			if i+1 < len(runes) {
				i++
			}
			b.WriteString(regexp.QuoteMeta(string(runes[i])))
		case '[':
			end := i + 1
			if end < len(runes) && runes[end] == '^' {
				end++
			}
			for end < len(runes) && runes[end] != ']' {
				end++
			}
			if end >= len(runes) {
				b.WriteString(regexp.QuoteMeta("["))
				continue
			}
			b.WriteString(class(runes[i+1 : end]))
			i = end
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`$`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// class turns the inside of a glob character class into a regular expression class.
func class(inner []rune) string {
	if len(inner) == 0 || (len(inner) == 1 && inner[0] == '^') {
		// "[]" and "[^]" match nothing; an empty class does not compile in Go.
		return `[^\x00-\x{10FFFF}]`
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, c := range inner {
		switch {
		case i == 0 && c == '^':
			b.WriteByte('^')
		case c == '-' && i > 0 && i < len(inner)-1:
			b.WriteByte('-')
		case strings.ContainsRune(`\[]^-`, c):
			b.WriteByte('\\')
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte(']')
	return b.String()
}
