package commits

import (
	"encoding/base64"
	"fmt"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/git"
)

// Action is one file change of a commit (an element of actions[]), in GitLab's names. A nil
// field was not given; an empty string was given blank.
type Action struct {
	// Action is create, delete, move, update or chmod (action).
	Action *string
	// FilePath is the file's full path (file_path).
	FilePath *string
	// PreviousPath is the source of a move (previous_path).
	PreviousPath *string
	// Content is the new content (content): required for update, optional for create (an
	// empty file) and move (nil keeps the moved file's content), ignored otherwise.
	Content *string
	// Encoding is "text" (default) or "base64" (encoding).
	Encoding *string
	// LastCommitID is the last commit of the file the caller knows (last_commit_id): update,
	// move and delete are refused when the file changed since.
	LastCommitID *string
	// ExecuteFilemode is chmod's target state of the executable bit (execute_filemode).
	ExecuteFilemode *bool
}

var actionNames = []string{"create", "update", "move", "delete", "chmod"}

// paramErrors collects Grape-style parameter messages.
type paramErrors []string

func (e *paramErrors) add(format string, args ...any) { *e = append(*e, fmt.Sprintf(format, args...)) }

func (e paramErrors) err() error {
	if len(e) == 0 {
		return nil
	}
	return apperr.BadParam(strings.Join(e, ", "))
}

// check validates the action at index i as GitLab's parameter declarations do.
func (a Action) check(i int, errs *paramErrors) {
	name := func(field string) string { return fmt.Sprintf("actions[%d][%s]", i, field) }
	switch {
	case a.Action == nil:
		errs.add("%s is missing", name("action"))
	case strings.TrimSpace(*a.Action) == "":
		errs.add("%s is empty", name("action"))
	case !contains(actionNames, *a.Action):
		errs.add("%s does not have a valid value", name("action"))
	}
	if a.FilePath == nil {
		errs.add("%s is missing", name("file_path"))
	}
	act := ""
	if a.Action != nil {
		act = *a.Action
	}
	if act == "move" && a.PreviousPath == nil {
		errs.add("%s is missing", name("previous_path"))
	}
	if act == "update" && a.Content == nil {
		errs.add("%s is missing", name("content"))
	}
	if a.Encoding != nil && *a.Encoding != "text" && *a.Encoding != "base64" {
		errs.add("%s does not have a valid value", name("encoding"))
	}
	if act == "chmod" && a.ExecuteFilemode == nil {
		errs.add("%s is missing", name("execute_filemode"))
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// treeAction converts a checked action: paths are validated (no "..", no absolute path, no
// NUL byte) and base64 content decoded, before any git process runs.
func (a Action) treeAction(i int) (git.TreeAction, error) {
	t := git.TreeAction{Action: git.TreeActionType(*a.Action), Path: *a.FilePath}
	if git.ValidatePath(t.Path) != nil {
		return t, apperr.BadParam(fmt.Sprintf("actions[%d][file_path] should be a valid file path", i))
	}
	if t.Action == git.ActionMove {
		t.PreviousPath = *a.PreviousPath
		if git.ValidatePath(t.PreviousPath) != nil {
			return t, apperr.BadParam(fmt.Sprintf("actions[%d][previous_path] should be a valid file path", i))
		}
	}
	switch t.Action {
	case git.ActionChmod:
		t.Executable = *a.ExecuteFilemode
		return t, nil
	case git.ActionDelete:
		return t, nil
	}
	if a.Content == nil {
		if t.Action == git.ActionCreate {
			t.Content = []byte{}
		}
		return t, nil
	}
	if a.Encoding != nil && *a.Encoding == "base64" {
		b, err := decodeBase64(*a.Content)
		if err != nil {
			return t, apperr.BadParam(fmt.Sprintf("actions[%d][content] is invalid", i))
		}
		t.Content = b
		return t, nil
	}
	t.Content = []byte(*a.Content)
	return t, nil
}

// decodeBase64 decodes standard base64, tolerating line breaks and missing padding (what
// encoders commonly emit) but nothing else outside the alphabet.
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	return base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
}
