package graph

import (
	"strconv"
	"time"

	"anvil/graph/model"
	"anvil/internal/nullable"
	"anvil/internal/service/groups"
	"anvil/internal/service/members"
	"anvil/internal/service/projects"
	"anvil/internal/service/users"

	"github.com/99designs/gqlgen/graphql"
)

// The functions below map mutation inputs onto the services' inputs, GitLab's names on both
// sides; global ids are parsed here.

func userCreateInput(in model.UserCreateInput) users.CreateInput {
	return users.CreateInput{
		Username: in.Username, Name: in.Name, Email: in.Email,
		Password: in.Password, ForceRandomPassword: in.Password == nil,
		Admin: in.Admin, External: in.External, CanCreateGroup: in.CanCreateGroup,
		ProjectsLimit: in.ProjectsLimit, SkipConfirmation: in.SkipConfirmation,
		Profile: users.Profile{Bio: nullable.FromPtr(in.Bio), Location: nullable.FromPtr(in.Location), PublicEmail: nullable.FromPtr(in.PublicEmail)},
	}
}

func userUpdateInput(in model.UserUpdateInput) (int, users.UpdateInput, error) {
	id, err := parseGIDOf(in.ID, gidUser)
	return id, users.UpdateInput{
		Username: in.Username, Name: in.Name, Email: in.Email, Password: in.Password,
		Admin: in.Admin, External: in.External, CanCreateGroup: in.CanCreateGroup,
		ProjectsLimit: in.ProjectsLimit,
		Profile:       users.Profile{Bio: nullable.FromPtr(in.Bio), Location: nullable.FromPtr(in.Location), PublicEmail: nullable.FromPtr(in.PublicEmail)},
	}, err
}

func groupCreateInput(in model.GroupCreateInput) (groups.CreateInput, error) {
	out := groups.CreateInput{Name: in.Name, Path: in.Path, Description: in.Description, Visibility: enumString(in.Visibility)}
	if in.ParentID != nil {
		id, err := parseGIDOf(*in.ParentID, gidGroup)
		if err != nil {
			return out, err
		}
		out.ParentID = &id
	}
	return out, nil
}

func groupUpdateInput(in model.GroupUpdateInput) groups.UpdateInput {
	return groups.UpdateInput{Name: in.Name, Path: in.Path, Description: nullable.FromPtr(in.Description), Visibility: enumString(in.Visibility)}
}

func projectCreateInput(in model.ProjectCreateInput) (projects.CreateInput, error) {
	out := projects.CreateInput{Attributes: projects.Attributes{
		Name: &in.Name, Path: in.Path, Description: nullable.FromPtr(in.Description), Visibility: enumString(in.Visibility),
	}}
	if in.NamespaceID != nil {
		id, err := parseGIDOf(*in.NamespaceID, "Namespace", gidGroup, gidUserNamespace)
		if err != nil {
			return out, err
		}
		out.NamespaceID = &id
	}
	return out, nil
}

func projectUpdateInput(in model.ProjectUpdateInput) projects.UpdateInput {
	return projects.UpdateInput{Attributes: projects.Attributes{
		Name: in.Name, Path: in.Path, Description: nullable.FromPtr(in.Description), Visibility: enumString(in.Visibility),
	}}
}

// memberAdd is a member to add: the user's id and the service's input.
func memberAdd(userGID string, level model.MemberAccessLevel, in members.AddInput) (int, members.AddInput, error) {
	id, err := parseGIDOf(userGID, gidUser)
	in.UserID, in.AccessLevel = strconv.Itoa(id), memberLevels[level]
	return id, in, err
}

// enumString is an optional enum value as the services spell it.
func enumString[E ~string](v *E) *string {
	if v == nil {
		return nil
	}
	s := string(*v)
	return &s
}

// memberUpdate is a member's new level and, when given, expiry (null clears it).
func memberUpdate(level model.MemberAccessLevel, expires graphql.Omittable[*time.Time]) members.UpdateInput {
	in := members.UpdateInput{AccessLevel: memberLevels[level]}
	if expires.IsSet() {
		in.ExpiresAt = nullable.FromPtr(expires.Value())
		if expires.Value() == nil {
			in.ExpiresAt = nullable.Null[time.Time]()
		}
	}
	return in
}
