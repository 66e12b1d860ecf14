package users

import (
	"context"
	"net/mail"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"

	"crypto/rand"
	"encoding/hex"
)

// CreateInput holds POST /users attributes; nil means not given.
type CreateInput struct {
	Username            string
	Name                string
	Email               string
	Password            *string
	ResetPassword       bool
	ForceRandomPassword bool
	Admin               *bool
	External            *bool
	PrivateProfile      *bool
	CanCreateGroup      *bool
	ProjectsLimit       *int
	SkipConfirmation    *bool
	Profile             Profile
	// UserType is "human" unless a bot is being created for an access token.
	UserType string
	// BotProjectID and BotNamespaceID tie a bot user to its resource.
	BotProjectID, BotNamespaceID *int
	// SkipNamespace creates no personal namespace (bot users).
	SkipNamespace bool
}

// Profile holds the free-text profile fields shared by create and update.
type Profile struct {
	Bio, Location, PublicEmail, Skype, Linkedin, Twitter, Discord, WebsiteURL *string
	Organization, JobTitle, Pronouns, Note, CommitEmail, AvatarURL            *string
	ThemeID, ColorSchemeID                                                    *int
}

// Create makes a user (and its personal namespace). Only administrators may, unless actor is
// nil (start-up and bot creation). Uniqueness clashes answer 409 as GitLab does.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, in CreateInput) (*ent.User, error) {
	if actor != nil && !actor.IsAdmin() {
		if actor.IsAnonymous() {
			return nil, apperr.Unauthorized()
		}
		return nil, apperr.Forbidden("")
	}
	if err := s.validateCreate(ctx, &in); err != nil {
		return nil, err
	}
	password := ""
	if in.Password != nil && !in.ResetPassword && !in.ForceRandomPassword {
		password = *in.Password
	} else {
		b := make([]byte, 24)
		_, _ = rand.Read(b)
		password = hex.EncodeToString(b)
	}
	hash, err := s.HashPassword(password)
	if err != nil {
		return nil, err
	}
	var created *ent.User
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if taken, err := c.User.Query().Where(user.EmailEqualFold(in.Email)).Exist(ctx); err != nil {
			return err
		} else if taken {
			return apperr.Conflict("Email has already been taken")
		}
		if taken, err := c.User.Query().Where(user.UsernameEqualFold(in.Username)).Exist(ctx); err != nil {
			return err
		} else if taken {
			return apperr.Conflict("Username has already been taken")
		}
		if !in.SkipNamespace {
			if taken, err := namespaceTaken(ctx, c, in.Username, 0); err != nil {
				return err
			} else if taken {
				return apperr.Conflict("Username has already been taken")
			}
		}
		now := time.Now().UTC().Truncate(time.Millisecond)
		cr := c.User.Create().
			SetUsername(in.Username).SetName(in.Name).SetEmail(in.Email).SetPasswordHash(hash).
			SetNillableAdmin(in.Admin).SetNillableExternal(in.External).
			SetNillablePrivateProfile(in.PrivateProfile).SetNillableCanCreateGroup(in.CanCreateGroup).
			SetNillableProjectsLimit(in.ProjectsLimit).
			SetNillableBotProjectID(in.BotProjectID).SetNillableBotNamespaceID(in.BotNamespaceID)
		if in.UserType != "" {
			cr.SetUserType(in.UserType)
		}
		if in.SkipConfirmation == nil || *in.SkipConfirmation || in.UserType != "" {
			cr.SetConfirmedAt(now)
		}
		if actor != nil {
			cr.SetCreatedByID(actor.UserID())
		}
		applyProfileCreate(cr, in.Profile)
		u, err := cr.Save(ctx)
		if err != nil {
			return err
		}
		if !in.SkipNamespace {
			ns, err := c.Namespace.Create().SetName(in.Name).SetPath(in.Username).SetFullPath(in.Username).
				SetKind(namespace.KindUser).SetVisibility(namespace.VisibilityPublic).SetOwnerID(u.ID).Save(ctx)
			if err != nil {
				return err
			}
			u.Edges.Namespace = ns
		}
		created = u
		return nil
	})
	return created, err
}

func (s *Service) validateCreate(ctx context.Context, in *CreateInput) error {
	fields := map[string][]string{}
	add := func(f, m string) { fields[f] = append(fields[f], m) }
	in.Username = strings.TrimSpace(in.Username)
	in.Email = strings.TrimSpace(in.Email)
	if in.Name == "" {
		add("name", "can't be blank")
	} else if len([]rune(in.Name)) > 255 {
		add("name", "is too long (maximum is 255 characters)")
	}
	if in.Username == "" {
		add("username", "can't be blank")
	} else if !ValidPath(in.Username) {
		add("username", "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.', '.git' or '.atom'.")
	}
	if in.Email == "" {
		add("email", "can't be blank")
	} else if a, err := mail.ParseAddress(in.Email); err != nil || a.Address != in.Email || len(in.Email) > 255 {
		add("email", "is invalid")
	}
	if in.ProjectsLimit != nil && *in.ProjectsLimit < 0 {
		add("projects_limit", "must be greater than or equal to 0")
	}
	if len(fields) > 0 {
		return apperr.Validation(fields)
	}
	if in.Password != nil && !in.ResetPassword && !in.ForceRandomPassword {
		return s.ValidatePassword(ctx, *in.Password)
	}
	return nil
}

func applyProfileCreate(c *ent.UserCreate, p Profile) {
	c.SetNillableBio(p.Bio).SetNillableLocation(p.Location).SetNillablePublicEmail(p.PublicEmail).
		SetNillableSkype(p.Skype).SetNillableLinkedin(p.Linkedin).SetNillableTwitter(p.Twitter).
		SetNillableDiscord(p.Discord).SetNillableWebsiteURL(p.WebsiteURL).
		SetNillableOrganization(p.Organization).SetNillableJobTitle(p.JobTitle).
		SetNillablePronouns(p.Pronouns).SetNillableNote(p.Note).SetNillableCommitEmail(p.CommitEmail).
		SetNillableAvatarURL(p.AvatarURL).SetNillableThemeID(p.ThemeID).SetNillableColorSchemeID(p.ColorSchemeID)
}
