package users

import (
	"slices"
	"strings"
)

// A namespace's path is the first segment of every URL under it, so GitLab keeps the words its
// own top-level routes use out of usernames and top-level group paths, and the "-" separator
// of its scoped routes out of subgroup paths. Anvil keeps the same words out: clients built
// against GitLab never meet a namespace GitLab could not have.

// reservedTopLevel are the top-level route words (lower case).
var reservedTopLevel = []string{
	"-", ".well-known", "404.html", "422.html", "500.html", "502.html", "503.html", "admin", "api",
	"apple-touch-icon.png", "assets", "dashboard", "deploy.html", "explore", "favicon.ico",
	"favicon.png", "files", "groups", "health_check", "help", "import", "jwt", "login", "oauth",
	"profile", "projects", "public", "robots.txt", "s", "search", "sitemap", "sitemap.xml",
	"sitemap.xml.gz", "slash-command-logo.png", "snippets", "unsubscribes", "uploads", "users", "v2",
}

// reservedInGroup are the words a subgroup's path may not take.
var reservedInGroup = []string{"-"}

// ReservedPath reports whether path is reserved for a namespace at the top level (a username
// or a top-level group) or inside a group.
func ReservedPath(path string, topLevel bool) bool {
	words := reservedInGroup
	if topLevel {
		words = reservedTopLevel
	}
	return slices.Contains(words, strings.ToLower(path))
}

// ReservedMessage is GitLab's validation message for a reserved path.
func ReservedMessage(path string) string { return path + " is a reserved name" }
