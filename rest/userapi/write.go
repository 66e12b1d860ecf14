package userapi

import (
	"anvil/internal/service/users"
	"anvil/rest/httpx"
	"anvil/rest/params"

	"github.com/gin-gonic/gin"
)

// bindProfile reads the profile attributes shared by create and update.
func bindProfile(b *params.Binder) users.Profile {
	return users.Profile{
		Bio: b.NullableString("bio"), Location: b.NullableString("location"), PublicEmail: b.NullableString("public_email"),
		Skype: b.NullableString("skype"), Linkedin: b.NullableString("linkedin"), Twitter: b.NullableString("twitter"),
		Discord: b.NullableString("discord"), WebsiteURL: b.NullableString("website_url"),
		Organization: b.NullableString("organization"), JobTitle: b.NullableString("job_title"),
		Pronouns: b.NullableString("pronouns"), Note: b.NullableString("note"), CommitEmail: b.NullableString("commit_email"),
		ThemeID: b.Int("theme_id"), ColorSchemeID: b.Int("color_scheme_id"),
	}
}

// bindCreate reads POST /users. Missing parameters are reported in GitLab's declaration order.
func bindCreate(b *params.Binder) users.CreateInput {
	b.Require("email")
	b.RequireOne("password", "reset_password", "force_random_password")
	b.Require("name", "username")
	in := users.CreateInput{
		Email: b.StringDefault("email", ""), Name: b.StringDefault("name", ""),
		Username: b.StringDefault("username", ""), Password: b.String("password"),
		ResetPassword:       b.BoolDefault("reset_password", false),
		ForceRandomPassword: b.BoolDefault("force_random_password", false),
		SkipConfirmation:    b.Bool("skip_confirmation"),
		Admin:               b.Bool("admin"), Auditor: b.Bool("auditor"), External: b.Bool("external"),
		PrivateProfile: b.Bool("private_profile"), CanCreateGroup: b.Bool("can_create_group"),
		ProjectsLimit: b.Int("projects_limit"), Profile: bindProfile(b),
		ExternUID: b.StringDefault("extern_uid", ""), Provider: b.StringDefault("provider", ""),
	}
	allOrNone(b, "extern_uid", "provider")
	return in
}

// create handles POST /users (administrators): 201 with the administrator view.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := bindCreate(b)
	if err := b.Err(); err != nil {
		return err
	}
	u, err := h.users.Create(c.Request.Context(), httpx.Actor(c), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).UserWithAdmin(u))
}

// bindUpdate reads PUT /users/:id. skip_reconfirmation is accepted and has no effect: email
// changes apply at once.
func bindUpdate(b *params.Binder) users.UpdateInput {
	in := users.UpdateInput{
		Email: b.String("email"), Name: b.String("name"), Username: b.String("username"),
		Password: b.String("password"),
		Admin:    b.Bool("admin"), Auditor: b.Bool("auditor"), External: b.Bool("external"),
		PrivateProfile: b.Bool("private_profile"), CanCreateGroup: b.Bool("can_create_group"),
		ProjectsLimit: b.Int("projects_limit"), Profile: bindProfile(b),
		ExternUID: b.String("extern_uid"), Provider: b.String("provider"),
	}
	b.Bool("skip_reconfirmation")
	allOrNone(b, "extern_uid", "provider")
	return in
}

// update handles PUT /users/:id (administrators): the administrator view.
func (h *handlers) update(c *gin.Context) error {
	id, err := httpx.PathInt(c, "id", "User")
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := bindUpdate(b)
	if err := b.Err(); err != nil {
		return err
	}
	u, err := h.users.Update(c.Request.Context(), httpx.Actor(c), id, in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).UserWithAdmin(u))
}

// delete handles DELETE /users/:id (administrators): 204; hard_delete also removes the
// user's contributions and the groups it alone owns.
func (h *handlers) delete(c *gin.Context) error {
	id, err := httpx.PathInt(c, "id", "User")
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	hard := b.BoolDefault("hard_delete", false)
	if err := b.Err(); err != nil {
		return err
	}
	if err := h.users.Delete(c.Request.Context(), httpx.Actor(c), id, hard); err != nil {
		return err
	}
	return httpx.NoContent(c)
}
