package users

import (
	"context"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"anvil/ent"
	"anvil/ent/identity"
	"anvil/ent/namespace"
	"anvil/ent/user"
	"anvil/internal/apperr"
)

// problems collects model validation messages by attribute, answered together as GitLab's
// {"message":{"field":["..."]}}.
type problems map[string][]string

func (p problems) add(field, msg string) { p[field] = append(p[field], msg) }

// err returns the collected problems as a validation error, or nil.
func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return apperr.Validation(p)
}

// tooLong checks a length limit. Limits are counted in bytes, the unit the database columns
// are checked in, so that no value GitLab's character count accepts ever fails on save.
func (p problems) tooLong(field, value string, limit int) {
	if len(value) > limit {
		p.add(field, "is too long (maximum is "+strconv.Itoa(limit)+" characters)")
	}
}

// profileLimits are the column sizes of the free-text profile attributes.
var profileLimits = []struct {
	field string
	get   func(Profile) *string
	limit int
}{
	{"bio", func(p Profile) *string { return p.Bio.Ptr() }, 255},
	{"location", func(p Profile) *string { return p.Location.Ptr() }, 255},
	{"public_email", func(p Profile) *string { return p.PublicEmail.Ptr() }, 255},
	{"skype", func(p Profile) *string { return p.Skype.Ptr() }, 255},
	{"linkedin", func(p Profile) *string { return p.Linkedin.Ptr() }, 255},
	{"twitter", func(p Profile) *string { return p.Twitter.Ptr() }, 255},
	{"discord", func(p Profile) *string { return p.Discord.Ptr() }, 255},
	{"website_url", func(p Profile) *string { return p.WebsiteURL.Ptr() }, 255},
	{"organization", func(p Profile) *string { return p.Organization.Ptr() }, 255},
	{"job_title", func(p Profile) *string { return p.JobTitle.Ptr() }, 255},
	{"pronouns", func(p Profile) *string { return p.Pronouns.Ptr() }, 50},
	{"note", func(p Profile) *string { return p.Note.Ptr() }, 1000},
	{"commit_email", func(p Profile) *string { return p.CommitEmail.Ptr() }, 255},
	{"avatar_url", func(p Profile) *string { return p.AvatarURL.Ptr() }, 1024},
}

// discordRe is a Discord user id, the only value GitLab accepts for discord.
var discordRe = regexp.MustCompile(`^\d{17,20}$`)

// emailRe is Devise's email format: something, one "@", something, no whitespace.
var emailRe = regexp.MustCompile(`^[^@\s]+@[^@\s]+$`)

// PrivateCommitEmail is the commit_email value that selects the generated no-reply address.
const PrivateCommitEmail = "_private"

// checkProfile validates the profile attributes given; email is the user's (new) primary email,
// the only address Anvil knows the user owns.
func checkProfile(p problems, in Profile, email string) {
	for _, l := range profileLimits {
		if v := l.get(in); v != nil {
			p.tooLong(l.field, *v, l.limit)
		}
	}
	if d := in.Discord.Ptr(); d != nil && *d != "" && !discordRe.MatchString(*d) {
		p.add("discord", "must contain only a discord user ID.")
	}
	if pe := in.PublicEmail.Ptr(); pe != nil && *pe != "" && !strings.EqualFold(*pe, email) {
		p.add("public_email", "must be an email you have verified")
	}
	if ce := in.CommitEmail.Ptr(); ce != nil && *ce != "" && *ce != PrivateCommitEmail &&
		!strings.EqualFold(*ce, email) {
		p.add("commit_email", "must be an email you have verified")
	}
}

// checkAccount validates the core account attributes: name, username, email, projects_limit.
func checkAccount(p problems, name, username, email *string, projectsLimit *int) {
	if name != nil {
		if strings.TrimSpace(*name) == "" {
			p.add("name", "can't be blank")
		}
		p.tooLong("name", *name, 255)
	}
	if username != nil {
		switch {
		case *username == "":
			p.add("username", "can't be blank")
		case len(*username) > 255:
			p.tooLong("username", *username, 255)
		case !ValidPath(*username):
			p.add("username", "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.', '.git' or '.atom'.")
		case ReservedPath(*username, true):
			p.add("username", ReservedMessage(*username))
		}
	}
	if email != nil {
		switch {
		case *email == "":
			p.add("email", "can't be blank")
		case len(*email) > 255:
			p.tooLong("email", *email, 255)
		case !emailRe.MatchString(*email) || !utf8.ValidString(*email):
			p.add("email", "is invalid")
		}
	}
	if projectsLimit != nil {
		switch {
		case *projectsLimit < 0:
			p.add("projects_limit", "must be greater than or equal to 0")
		case *projectsLimit > math.MaxInt32:
			p.add("projects_limit", "must be less than or equal to 2147483647")
		}
	}
}

// passwordOwner is whom a password is for: the weak-password rule looks for their name,
// username and email address in it.
type passwordOwner struct{ name, username, email string }

// passwordProblem returns what is wrong with a password, or "": the instance minimum length
// (at least 8), at most 128 characters, not blank, and, unless owner is nil, not weak for its
// owner (WeakPassword).
func (s *Service) passwordProblem(ctx context.Context, pw string, owner *passwordOwner) string {
	var minLen int
	if err := s.settings.Get(ctx, "minimum_password_length", &minLen); err != nil || minLen < 8 {
		minLen = 8
	}
	switch n := utf8.RuneCountInString(pw); {
	case strings.TrimSpace(pw) == "":
		return "can't be blank"
	case n < minLen:
		return "is too short (minimum is " + strconv.Itoa(minLen) + " characters)"
	case n > 128:
		return "is too long (maximum is 128 characters)"
	case owner != nil && WeakPassword(pw, owner.name, owner.username, owner.email):
		return weakPasswordMessage
	}
	return ""
}

// normalizeEmail applies Devise's email keys handling: surrounding whitespace is stripped and
// the address lower-cased.
func normalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// checkTaken answers 409 when another user (not exceptID) has the email or username, as GitLab
// does before reporting any other problem.
func checkTaken(ctx context.Context, c *ent.Client, email, username *string, exceptID int) error {
	if email != nil && *email != "" {
		taken, err := c.User.Query().Where(user.EmailEqualFold(*email), user.IDNEQ(exceptID)).Exist(ctx)
		if err != nil {
			return err
		}
		if taken {
			return apperr.Conflict("Email has already been taken")
		}
	}
	if username != nil && *username != "" {
		taken, err := c.User.Query().Where(user.UsernameEqualFold(*username), user.IDNEQ(exceptID)).Exist(ctx)
		if err != nil {
			return err
		}
		if taken {
			return apperr.Conflict("Username has already been taken")
		}
	}
	return nil
}

// checkNamespaceFree reports a username whose personal namespace path a group (or another
// namespace than ownNamespaceID) already uses.
func checkNamespaceFree(ctx context.Context, c *ent.Client, p problems, username string, ownNamespaceID int) error {
	q := c.Namespace.Query().Where(namespace.FullPathEqualFold(username))
	if ownNamespaceID > 0 {
		q.Where(namespace.IDNEQ(ownNamespaceID))
	}
	taken, err := q.Exist(ctx)
	if err == nil && taken {
		p.add("username", "has already been taken")
	}
	return err
}

// checkIdentityFree reports an external identity (provider, extern_uid) that another user holds.
func checkIdentityFree(ctx context.Context, c *ent.Client, p problems, provider, externUID string, userID int) error {
	taken, err := c.Identity.Query().
		Where(identity.Provider(provider), identity.ExternUID(externUID), identity.UserIDNEQ(userID)).Exist(ctx)
	if err == nil && taken {
		p.add("identities.extern_uid", "has already been taken")
	}
	return err
}
