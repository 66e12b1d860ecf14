package users

import (
	"context"

	"anvil/ent"
	"anvil/ent/identity"
	"anvil/ent/namespace"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/nullable"
	"anvil/internal/service/routes"
)

// UpdateInput holds PUT /users/:id attributes; nil means unchanged. Clients such as
// python-gitlab send email, username and name with every save: unchanged values are accepted.
type UpdateInput struct {
	Username, Name, Email *string
	// Password, when non-empty, replaces the password.
	Password                                                 *string
	Admin, Auditor, External, PrivateProfile, CanCreateGroup *bool
	ProjectsLimit                                            *int
	Profile                                                  Profile
	// ExternUID and Provider, given together, set the user's identity for that provider.
	ExternUID, Provider *string
}

// Update changes a user (administrators only) in one transaction and returns it with the
// LoadAdmin edges. A new username renames the personal namespace (path and full path), a new
// name renames it too. A new email applies at once: Anvil sends no reconfirmation mail.
func (s *Service) Update(ctx context.Context, actor *authz.Actor, id int, in UpdateInput) (*ent.User, error) {
	if err := authz.UserAllowed(actor, nil, authz.AdminUsers); err != nil {
		return nil, err
	}
	if in.Email != nil {
		e := normalizeEmail(*in.Email)
		in.Email = &e
	}
	var updated *ent.User
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		u, err := c.User.Query().Where(user.ID(id)).WithNamespace().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("User")
		} else if err != nil {
			return err
		}
		if err := checkTaken(ctx, c, in.Email, in.Username, u.ID); err != nil {
			return err
		}
		if err := s.checkUpdate(ctx, c, u, in); err != nil {
			return err
		}
		if err := s.save(ctx, c, u, in); err != nil {
			return err
		}
		updated, err = LoadAdmin.apply(c.User.Query().Where(user.ID(u.ID))).Only(ctx)
		return err
	})
	return updated, err
}

// checkUpdate validates the attributes given against u.
func (s *Service) checkUpdate(ctx context.Context, c *ent.Client, u *ent.User, in UpdateInput) error {
	p := problems{}
	checkAccount(p, in.Name, in.Username, in.Email, in.ProjectsLimit)
	email := u.Email
	if in.Email != nil {
		email = *in.Email
	}
	checkProfile(p, in.Profile, email)
	if in.Password != nil && *in.Password != "" {
		owner := &passwordOwner{u.Name, u.Username, email}
		if in.Name != nil {
			owner.name = *in.Name
		}
		if in.Username != nil {
			owner.username = *in.Username
		}
		if msg := s.passwordProblem(ctx, *in.Password, owner); msg != "" {
			p.add("password", msg)
		}
	}
	if in.Username != nil && *in.Username != u.Username && ValidPath(*in.Username) {
		own := 0
		if u.Edges.Namespace != nil {
			own = u.Edges.Namespace.ID
		}
		if err := checkNamespaceFree(ctx, c, p, *in.Username, own); err != nil {
			return err
		}
	}
	if in.ExternUID != nil && in.Provider != nil {
		if *in.ExternUID == "" || *in.Provider == "" {
			p.add("identities.extern_uid", "can't be blank")
		} else if err := checkIdentityFree(ctx, c, p, *in.Provider, *in.ExternUID, u.ID); err != nil {
			return err
		}
	}
	return p.err()
}

// save writes the changes: the user row, the namespace it names, the identity.
func (s *Service) save(ctx context.Context, c *ent.Client, u *ent.User, in UpdateInput) error {
	up := c.User.UpdateOneID(u.ID).
		SetNillableUsername(in.Username).SetNillableName(in.Name).SetNillableEmail(in.Email).
		SetNillableAdmin(in.Admin).SetNillableAuditor(in.Auditor).SetNillableExternal(in.External).
		SetNillablePrivateProfile(in.PrivateProfile).SetNillableCanCreateGroup(in.CanCreateGroup).
		SetNillableProjectsLimit(in.ProjectsLimit)
	if in.Password != nil && *in.Password != "" {
		hash, err := s.HashPassword(*in.Password)
		if err != nil {
			return err
		}
		up.SetPasswordHash(hash)
	}
	applyProfileUpdate(up, in.Profile)
	if err := up.Exec(ctx); err != nil {
		return err
	}
	if ns := u.Edges.Namespace; ns != nil && (in.Username != nil || in.Name != nil) {
		username, name := u.Username, u.Name
		if in.Username != nil {
			username = *in.Username
		}
		if in.Name != nil {
			name = *in.Name
		}
		if username != ns.FullPath {
			// GitLab keeps redirects from the old username's paths, as for any rename.
			if err := routes.MoveNamespace(ctx, c, ns.ID, ns.FullPath, username); err != nil {
				return err
			}
		}
		err := c.Namespace.UpdateOneID(ns.ID).Where(namespace.KindEQ(namespace.KindUser)).
			SetPath(username).SetFullPath(username).SetName(namespaceName(name, username)).Exec(ctx)
		if err != nil {
			return err
		}
	}
	if in.ExternUID != nil && in.Provider != nil {
		return setIdentity(ctx, c, u.ID, *in.Provider, *in.ExternUID)
	}
	return nil
}

// setIdentity sets the user's extern_uid for provider, creating the identity if needed.
func setIdentity(ctx context.Context, c *ent.Client, userID int, provider, externUID string) error {
	n, err := c.Identity.Update().Where(identity.UserID(userID), identity.Provider(provider)).
		SetExternUID(externUID).Save(ctx)
	if err != nil || n > 0 {
		return err
	}
	return c.Identity.Create().SetUserID(userID).SetProvider(provider).SetExternUID(externUID).Exec(ctx)
}

func applyProfileUpdate(u *ent.UserUpdateOne, p Profile) {
	for _, t := range []struct {
		v   nullable.Value[string]
		set func(string) *ent.UserUpdateOne
	}{
		{p.Bio, u.SetBio}, {p.Location, u.SetLocation}, {p.PublicEmail, u.SetPublicEmail},
		{p.Skype, u.SetSkype}, {p.Linkedin, u.SetLinkedin}, {p.Twitter, u.SetTwitter},
		{p.Discord, u.SetDiscord}, {p.WebsiteURL, u.SetWebsiteURL}, {p.Organization, u.SetOrganization},
		{p.JobTitle, u.SetJobTitle}, {p.Pronouns, u.SetPronouns}, {p.Note, u.SetNote},
		{p.CommitEmail, u.SetCommitEmail}, {p.AvatarURL, u.SetAvatarURL},
	} {
		t.v.Apply(func(s string) { t.set(s) }, func() { t.set("") })
	}
	u.SetNillableThemeID(p.ThemeID).SetNillableColorSchemeID(p.ColorSchemeID)
}
