package model

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MergeRequestSort is GitLab's MergeRequestSort enum, served for created_*, updated_* (both
// spellings) and title, the orders the cursor pager knows; hand-written for the same reason
// as Sort.
type MergeRequestSort string

// Normalized is the value in lower case (created_desc), whichever spelling was given.
func (s MergeRequestSort) Normalized() string { return strings.ToLower(string(s)) }

// IsValid reports whether s is a value of the enum (the same values as IssueSort).
func (s MergeRequestSort) IsValid() bool { return validIssueSorts[IssueSort(s)] }

// String returns the value.
func (s MergeRequestSort) String() string { return string(s) }

// UnmarshalGQL reads an enum value.
func (s *MergeRequestSort) UnmarshalGQL(v any) error {
	str, ok := v.(string)
	if !ok {
		return fmt.Errorf("enums must be strings")
	}
	*s = MergeRequestSort(str)
	if !s.IsValid() {
		return fmt.Errorf("%s is not a valid MergeRequestSort", str)
	}
	return nil
}

// MarshalGQL writes the enum value.
func (s MergeRequestSort) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.Quote(string(s)))
}
