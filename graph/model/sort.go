package model

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Sort is GitLab's Sort enum: created_* and updated_* in both spellings, the lower-case ones
// deprecated. It is written by hand because gqlgen would name both spellings of a value alike.
type Sort string

// validSorts are the enum's values.
var validSorts = map[Sort]bool{
	"updated_desc": true, "updated_asc": true, "created_desc": true, "created_asc": true,
	"UPDATED_DESC": true, "UPDATED_ASC": true, "CREATED_DESC": true, "CREATED_ASC": true,
}

// Normalized is the value in lower case (created_desc), whichever spelling was given.
func (s Sort) Normalized() string { return strings.ToLower(string(s)) }

// IsValid reports whether s is a value of the enum.
func (s Sort) IsValid() bool { return validSorts[s] }

// String returns the value.
func (s Sort) String() string { return string(s) }

// UnmarshalGQL reads an enum value.
func (s *Sort) UnmarshalGQL(v any) error {
	str, ok := v.(string)
	if !ok {
		return fmt.Errorf("enums must be strings")
	}
	*s = Sort(str)
	if !s.IsValid() {
		return fmt.Errorf("%s is not a valid Sort", str)
	}
	return nil
}

// MarshalGQL writes the enum value.
func (s Sort) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.Quote(string(s)))
}

// IssueSort is GitLab's IssueSort enum, served for created_*, updated_* (both spellings),
// title (the cursor pager's orders), and due date, popularity, priorities, relative position and
// weight (the issue service's orders, offset cursors); hand-written for the same reason as Sort.
type IssueSort string

// validIssueSorts are the enum's values.
var validIssueSorts = map[IssueSort]bool{
	"updated_desc": true, "updated_asc": true, "created_desc": true, "created_asc": true,
	"UPDATED_DESC": true, "UPDATED_ASC": true, "CREATED_DESC": true, "CREATED_ASC": true,
	"TITLE_ASC": true, "TITLE_DESC": true,
	"DUE_DATE_ASC": true, "DUE_DATE_DESC": true, "POPULARITY_ASC": true, "POPULARITY_DESC": true,
	"PRIORITY_ASC": true, "PRIORITY_DESC": true, "LABEL_PRIORITY_ASC": true, "LABEL_PRIORITY_DESC": true,
	"MILESTONE_DUE_ASC": true, "MILESTONE_DUE_DESC": true, "RELATIVE_POSITION_ASC": true,
	"WEIGHT_ASC": true, "WEIGHT_DESC": true,
}

// Normalized is the value in lower case (created_desc), whichever spelling was given.
func (s IssueSort) Normalized() string { return strings.ToLower(string(s)) }

// IsValid reports whether s is a value of the enum.
func (s IssueSort) IsValid() bool { return validIssueSorts[s] }

// String returns the value.
func (s IssueSort) String() string { return string(s) }

// UnmarshalGQL reads an enum value.
func (s *IssueSort) UnmarshalGQL(v any) error {
	str, ok := v.(string)
	if !ok {
		return fmt.Errorf("enums must be strings")
	}
	*s = IssueSort(str)
	if !s.IsValid() {
		return fmt.Errorf("%s is not a valid IssueSort", str)
	}
	return nil
}

// MarshalGQL writes the enum value.
func (s IssueSort) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.Quote(string(s)))
}
