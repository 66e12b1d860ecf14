package projects

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/internal/apperr"
)

// Validation messages, worded as GitLab's model validations word them.
const (
	msgBlank      = "can't be blank"
	msgTaken      = "has already been taken"
	msgNameFormat = "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'."
	msgPathFormat = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"
)

// nameRe is GitLab's project name rule: letters, digits, emoji, '_', '.', '+', dashes and
// spaces, starting with a letter, digit, emoji or '_'.
var nameRe = regexp.MustCompile(`^[\p{L}\p{N}\x{00A9}-\x{1f9ff}_][\p{L}\p{N}\p{Pd}+\x{00A9}-\x{1f9ff}_. ]*$`)

// pathRe is GitLab's project path rule; the .git/.atom suffixes are checked separately.
var pathRe = regexp.MustCompile(`^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$`)

// reservedPaths are the project-level route words a project path may not take.
var reservedPaths = []string{
	"-", "badges", "blame", "blob", "builds", "commits", "create", "create_dir", "edit",
	"files", "find_file", "new", "preview", "raw", "refs", "tree", "update", "wikis",
}

// maxBuildTimeout is GitLab's upper bound for build_timeout: one month, in seconds.
const maxBuildTimeout = 2629746

// errs collects attribute errors in GitLab's {"message":{"attr":["msg"]}} shape.
type errs map[string][]string

func (e errs) add(attr, msg string) { e[attr] = append(e[attr], msg) }

func (e errs) err() error {
	if len(e) == 0 {
		return nil
	}
	return apperr.Validation(e)
}

func tooLong(max int) string {
	return "is too long (maximum is " + strconv.Itoa(max) + " characters)"
}

// ValidPath reports whether s is a valid project path.
func ValidPath(s string) bool {
	return pathRe.MatchString(s) && !strings.HasSuffix(s, ".git") && !strings.HasSuffix(s, ".atom")
}

// slugify turns a name into a path the way Rails' parameterize does: runs of characters other
// than ASCII letters, digits, '-' and '_' become one '-', trimmed at both ends, lower case.
func slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '-' || r == '_' {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = true
	}
	return strings.Trim(b.String(), "-")
}

// derive fills in a missing name from the path or a missing path from the name, as GitLab's
// create service does: a name that is not a valid path is parameterized.
func derive(a *Attributes) {
	hasName := a.Name != nil && strings.TrimSpace(*a.Name) != ""
	hasPath := a.Path != nil && strings.TrimSpace(*a.Path) != ""
	switch {
	case hasName && hasPath:
	case hasPath:
		n := *a.Path
		a.Name = &n
	case hasName:
		p := *a.Name
		if !ValidPath(p) {
			p = slugify(p)
		}
		a.Path = &p
	}
}

// validate checks the attributes that are given (all of them on create, where name and path
// are always set after derive).
func validate(a *Attributes, e errs) {
	if a.Name != nil {
		switch n := *a.Name; {
		case strings.TrimSpace(n) == "":
			e.add("name", msgBlank)
		case utf8.RuneCountInString(n) > 255:
			e.add("name", tooLong(255))
		case !nameRe.MatchString(n):
			e.add("name", msgNameFormat)
		}
	}
	if a.Path != nil {
		switch p := *a.Path; {
		case strings.TrimSpace(p) == "":
			e.add("path", msgBlank)
		case utf8.RuneCountInString(p) > 255:
			e.add("path", tooLong(255))
		case !ValidPath(p):
			e.add("path", msgPathFormat)
		case slices.Contains(reservedPaths, strings.ToLower(p)):
			e.add("path", p+" is a reserved name")
		}
	}
	if d := a.Description.Ptr(); d != nil && utf8.RuneCountInString(*d) > 2000 {
		e.add("description", tooLong(2000))
	}
	if a.BuildTimeout != nil && (*a.BuildTimeout < 600 || *a.BuildTimeout >= maxBuildTimeout) {
		e.add("build_timeout", "needs to be between 10 minutes and 1 month")
	}
	if p := a.CIConfigPath.Ptr(); p != nil && *p != "" {
		c := *p
		if strings.Contains(c, "..") || strings.HasPrefix(c, "/") {
			e.add("ci_config_path", "cannot include leading slash or directory traversal.")
		} else if utf8.RuneCountInString(c) > 255 {
			e.add("ci_config_path", tooLong(255))
		}
	}
	if a.DefaultBranch != nil && strings.TrimSpace(*a.DefaultBranch) == "" {
		a.DefaultBranch = nil // GitLab ignores a blank default_branch
	}
}

// checkUnique reports a name or path already used in the namespace (by another project, or by
// a subgroup for the path, whose routes would collide). exceptID skips the project itself.
func checkUnique(ctx context.Context, c *ent.Client, nsID int, a *Attributes, exceptID int, e errs) error {
	if a.Name != nil && len(e["name"]) == 0 {
		taken, err := c.Project.Query().
			Where(project.NamespaceID(nsID), project.Name(*a.Name), project.IDNEQ(exceptID)).Exist(ctx)
		if err != nil {
			return err
		}
		if taken {
			e.add("name", msgTaken)
			e.add("project_namespace.name", msgTaken)
		}
	}
	if a.Path != nil && len(e["path"]) == 0 {
		taken, err := c.Project.Query().
			Where(project.NamespaceID(nsID), project.PathEqualFold(*a.Path), project.IDNEQ(exceptID)).Exist(ctx)
		if err != nil {
			return err
		}
		if !taken {
			taken, err = c.Namespace.Query().
				Where(namespace.ParentID(nsID), namespace.PathEqualFold(*a.Path)).Exist(ctx)
			if err != nil {
				return err
			}
		}
		if taken {
			e.add("path", msgTaken)
		}
	}
	return nil
}

// visibilityRank orders visibility levels, private lowest.
func visibilityRank(v string) int {
	switch v {
	case "public":
		return 2
	case "internal":
		return 1
	}
	return 0
}

func visibilityOf(v string) project.Visibility { return project.Visibility(v) }

// ValidVisibility reports whether v is a visibility level name.
func ValidVisibility(v string) bool {
	return v == "private" || v == "internal" || v == "public"
}
