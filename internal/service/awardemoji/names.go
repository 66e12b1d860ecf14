package awardemoji

import (
	"strings"
	"sync"

	"github.com/kyokomi/emoji/v2"
)

// Names: GitLab validates an award's name against its emoji index (the TanukiEmoji gem's alpha
// codes, plus a group's custom emoji, which Anvil does not have). No Go module ships that index;
// github.com/kyokomi/emoji/v2 carries the standard shortcodes of gemoji, Emoji One (where
// GitLab's names come from) and Unicode's CLDR names, maintained with Unicode's releases, so a
// name GitLab accepts is accepted here. Its set is a little wider (CLDR spellings such as
// thumbs_up), which only lets through names GitLab would refuse, never the reverse.

var (
	namesOnce sync.Once
	names     map[string]bool
)

// Valid reports whether name (without colons) is a known emoji shortcode.
func Valid(name string) bool {
	namesOnce.Do(func() {
		codes := emoji.CodeMap()
		names = make(map[string]bool, len(codes))
		for code := range codes {
			names[strings.Trim(code, ":")] = true
		}
	})
	return names[name]
}

// Normalize spells GitLab's aliases of the voting emoji by their names ("+1" is thumbsup, "-1"
// thumbsdown), as GitLab stores them, so that votes count whichever spelling was sent.
func Normalize(name string) string {
	switch name {
	case "+1", "thumbs_up":
		return ThumbsUp
	case "-1", "thumbs_down":
		return ThumbsDown
	}
	return name
}

// The voting emoji: an issue's upvotes and downvotes count them.
const (
	ThumbsUp   = "thumbsup"
	ThumbsDown = "thumbsdown"
)

// Unicode is the emoji name's character(s), "" for an unknown name.
func Unicode(name string) string {
	return strings.TrimSpace(emoji.CodeMap()[":"+name+":"])
}
