package users

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/nullable"
	"anvil/internal/service/routes"
)

// CreateInput holds POST /users attributes; nil means not given.
type CreateInput struct {
	Username string
	Name     string
	Email    string
	// Password is used unless ResetPassword or ForceRandomPassword is set: those take priority
	// and give the account a random password. With neither flag, Password is required.
	Password            *string
	ResetPassword       bool
	ForceRandomPassword bool
	Admin               *bool
	Auditor             *bool
	External            *bool
	PrivateProfile      *bool
	CanCreateGroup      *bool
	ProjectsLimit       *int
	// SkipConfirmation false leaves the account unconfirmed; nil or true confirms it.
	SkipConfirmation *bool
	Profile          Profile
	// ExternUID and Provider, given together, link an external identity.
	ExternUID, Provider string
	// UserType is "human" unless a bot is being created for an access token.
	UserType string
	// BotProjectID and BotNamespaceID tie a bot user to its resource.
	BotProjectID, BotNamespaceID *int
	// AllowWeakPassword skips the weak-password rule (the initial root password, which the
	// operator configures); the length rules still apply.
	AllowWeakPassword bool
	// SkipNamespace creates no personal namespace (bot users).
	SkipNamespace bool
}

// Profile holds the free-text profile fields shared by create and update.
type Profile struct {
	// The free-text attributes: absent keeps them, null clears them (stored as "", as they
	// are shown), a value sets them.
	Bio, Location, PublicEmail, Skype, Linkedin, Twitter, Discord, WebsiteURL nullable.Value[string]
	Organization, JobTitle, Pronouns, Note, CommitEmail, AvatarURL            nullable.Value[string]
	ThemeID, ColorSchemeID                                                    *int
}

// Create makes a user with its personal namespace (and identity, when given) in one
// transaction and returns it with the LoadAdmin edges. Only administrators may, unless actor is nil (start-up and bot creation).
// A taken email or username answers 409 before any other problem, as GitLab does; other
// problems answer 400 attribute by attribute.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, in CreateInput) (*ent.User, error) {
	if actor != nil {
		if err := authz.UserAllowed(actor, nil, authz.AdminUsers); err != nil {
			return nil, err
		}
	}
	in.Email = normalizeEmail(in.Email)
	if in.UserType == "" || in.UserType == "human" {
		in = s.withInstanceDefaults(ctx, in)
	}
	var created *ent.User
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if err := checkTaken(ctx, c, &in.Email, &in.Username, 0); err != nil {
			return err
		}
		p, password, err := s.checkCreate(ctx, c, in)
		if err != nil {
			return err
		}
		if err := p.err(); err != nil {
			return err
		}
		hash, err := s.HashPassword(password)
		if err != nil {
			return err
		}
		u, err := s.insert(ctx, c, actor, in, hash)
		if err != nil {
			return err
		}
		created, err = LoadAdmin.apply(c.User.Query().Where(user.ID(u.ID))).Only(ctx)
		return err
	})
	return created, err
}

// checkCreate collects the problems of a new account and picks its password.
func (s *Service) checkCreate(ctx context.Context, c *ent.Client, in CreateInput) (problems, string, error) {
	p := problems{}
	checkAccount(p, &in.Name, &in.Username, &in.Email, in.ProjectsLimit)
	checkProfile(p, in.Profile, in.Email)
	password := ""
	switch {
	case in.ResetPassword || in.ForceRandomPassword:
		b := make([]byte, 24)
		_, _ = rand.Read(b)
		password = hex.EncodeToString(b)
	case in.Password == nil:
		p.add("password", "can't be blank")
	default:
		password = *in.Password
		owner := &passwordOwner{in.Name, in.Username, in.Email}
		if in.AllowWeakPassword {
			owner = nil
		}
		if msg := s.passwordProblem(ctx, password, owner); msg != "" {
			p.add("password", msg)
		}
	}
	if !in.SkipNamespace && ValidPath(in.Username) {
		if err := checkNamespaceFree(ctx, c, p, in.Username, 0); err != nil {
			return nil, "", err
		}
	}
	if in.ExternUID != "" && in.Provider != "" {
		if err := checkIdentityFree(ctx, c, p, in.Provider, in.ExternUID, 0); err != nil {
			return nil, "", err
		}
	}
	return p, password, nil
}

// insert writes the user row, its namespace and its identity.
func (s *Service) insert(ctx context.Context, c *ent.Client, actor *authz.Actor, in CreateInput, hash string) (*ent.User, error) {
	now := time.Now().UTC().Truncate(time.Millisecond)
	cr := c.User.Create().
		SetUsername(in.Username).SetName(in.Name).SetEmail(in.Email).SetPasswordHash(hash).
		SetNillableAdmin(in.Admin).SetNillableAuditor(in.Auditor).SetNillableExternal(in.External).
		SetNillablePrivateProfile(in.PrivateProfile).SetNillableCanCreateGroup(in.CanCreateGroup).
		SetNillableProjectsLimit(in.ProjectsLimit).
		SetNillableBotProjectID(in.BotProjectID).SetNillableBotNamespaceID(in.BotNamespaceID)
	if in.UserType != "" {
		cr.SetUserType(in.UserType)
	}
	if in.SkipConfirmation == nil || *in.SkipConfirmation || in.UserType != "" {
		cr.SetConfirmedAt(now)
	}
	if actor != nil && !actor.IsAnonymous() {
		cr.SetCreatedByID(actor.UserID())
	}
	applyProfileCreate(cr, in.Profile)
	u, err := cr.Save(ctx)
	if err != nil {
		return nil, err
	}
	if !in.SkipNamespace {
		if err := routes.Claim(ctx, c, in.Username); err != nil {
			return nil, err
		}
		err := c.Namespace.Create().SetName(namespaceName(in.Name, in.Username)).
			SetPath(in.Username).SetFullPath(in.Username).
			SetKind(namespace.KindUser).SetVisibility(namespace.VisibilityPublic).SetOwnerID(u.ID).Exec(ctx)
		if err != nil {
			return nil, err
		}
	}
	if in.ExternUID != "" && in.Provider != "" {
		if err := c.Identity.Create().SetUserID(u.ID).SetProvider(in.Provider).SetExternUID(in.ExternUID).Exec(ctx); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// namespaceName is the personal namespace's name: the user's name, or the username when the
// name is blank (a namespace name may not be empty).
func namespaceName(name, username string) string {
	if strings.TrimSpace(name) == "" {
		return username
	}
	return name
}

func applyProfileCreate(c *ent.UserCreate, p Profile) {
	c.SetNillableBio(p.Bio.Ptr()).SetNillableLocation(p.Location.Ptr()).SetNillablePublicEmail(p.PublicEmail.Ptr()).
		SetNillableSkype(p.Skype.Ptr()).SetNillableLinkedin(p.Linkedin.Ptr()).SetNillableTwitter(p.Twitter.Ptr()).
		SetNillableDiscord(p.Discord.Ptr()).SetNillableWebsiteURL(p.WebsiteURL.Ptr()).
		SetNillableOrganization(p.Organization.Ptr()).SetNillableJobTitle(p.JobTitle.Ptr()).
		SetNillablePronouns(p.Pronouns.Ptr()).SetNillableNote(p.Note.Ptr()).SetNillableCommitEmail(p.CommitEmail.Ptr()).
		SetNillableAvatarURL(p.AvatarURL.Ptr()).SetNillableThemeID(p.ThemeID).SetNillableColorSchemeID(p.ColorSchemeID)
}
