package todos

import (
	"regexp"
	"strings"
)

// A mention is GitLab's user reference: "@" and a username (letters, digits, "_", "-", ".";
// not ending in "."), not preceded by a word character, so that an e-mail address mentions
// nobody. A group's path ("@group", "@group/subgroup") mentions the group's members.
var mentionPattern = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])@([A-Za-z0-9_.][A-Za-z0-9_.\-]*[A-Za-z0-9_\-]|[A-Za-z0-9_])((?:/[A-Za-z0-9_.\-]+)*)`)

// leadingMentions is a line's opening run of mentions (after indentation), separated by
// blanks and commas: the users it names are addressed directly.
var leadingMentions = regexp.MustCompile(`^[ \t]*(?:@[A-Za-z0-9_.\-/]+[ \t,]*)+`)

// fencedCode and inlineCode are Markdown code, where "@name" is text, not a mention.
var (
	fencedCode = regexp.MustCompile("(?ms)^[ \t]*(```|~~~).*?^[ \t]*(```|~~~)[ \t]*$")
	inlineCode = regexp.MustCompile("`[^`\n]*`")
)

// Mentions are the usernames and group paths a text mentions, lowercased, each once: addressed
// lists those a line begins with (GitLab's directly addressed users), mentioned the others.
type Mentions struct {
	Addressed []string
	Mentioned []string
}

// ParseMentions reads the mentions of text (a title, a description, a comment).
func ParseMentions(text string) Mentions {
	text = fencedCode.ReplaceAllString(text, "")
	text = inlineCode.ReplaceAllString(text, "")
	var out Mentions
	seen := map[string]bool{}
	add := func(list *[]string, s string) {
		for _, m := range mentionPattern.FindAllStringSubmatch(s, -1) {
			name := strings.ToLower(m[1] + m[2])
			if !seen[name] {
				seen[name] = true
				*list = append(*list, name)
			}
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if lead := leadingMentions.FindString(line); lead != "" {
			add(&out.Addressed, lead)
		}
	}
	add(&out.Mentioned, text)
	return out
}

// All is every username of m.
func (m Mentions) All() []string { return append(append([]string{}, m.Addressed...), m.Mentioned...) }
