package git

import (
	"fmt"
	"strings"
)

// CleanPath normalises a repository path from a user: surrounding slashes are dropped
// ("/a/b/" → "a/b"); "" and "/" mean the root and give "". It then validates the result
// (ValidatePath) unless it is the root.
func CleanPath(p string) (string, error) {
	p = strings.Trim(p, "/")
	if p == "" {
		return "", nil
	}
	return p, ValidatePath(p)
}

// ValidatePath checks a path inside a repository ("dir/file.txt"): not empty, no leading or
// trailing "/", no empty, "." or ".." components, no NUL, and no component git itself refuses
// in trees (".git" in any letter case).
func ValidatePath(p string) error {
	if p == "" {
		return fmt.Errorf("%w: empty", ErrInvalidPath)
	}
	if strings.ContainsRune(p, 0) {
		return fmt.Errorf("%w: contains NUL", ErrInvalidPath)
	}
	for _, comp := range strings.Split(p, "/") {
		switch {
		case comp == "":
			return fmt.Errorf("%w: %q has an empty component", ErrInvalidPath, p)
		case comp == "." || comp == "..":
			return fmt.Errorf("%w: %q traverses directories", ErrInvalidPath, p)
		case strings.EqualFold(comp, ".git"):
			return fmt.Errorf("%w: %q contains .git", ErrInvalidPath, p)
		}
	}
	return nil
}

// joinPath joins a directory and a name; dir "" is the root.
func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
