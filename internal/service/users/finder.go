package users

import (
	"context"
	"regexp"
	"strings"
	"unicode/utf8"

	"anvil/ent"
	"anvil/ent/identity"
	"anvil/ent/predicate"
	"anvil/ent/user"
	"anvil/ent/usercustomattribute"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// Query returns the users matching p that actor may see, unordered and unpaginated.
// Non-administrators never see blocked, LDAP-blocked or banned users (GitLab's
// FORBIDDEN_SEARCH_STATES), and their administrator-only filters are ignored. Anonymous callers
// must name a username (403 otherwise), and extern_uid with provider needs an administrator
// (401/403), as in GitLab.
func (s *Service) Query(ctx context.Context, actor *authz.Actor, p ListParams) (*ent.UserQuery, error) {
	admin := authz.CanUser(actor, nil, authz.AdminUsers)
	if p.ExternUID != "" && p.Provider != "" && !admin {
		return nil, authz.UserAllowed(actor, nil, authz.AdminUsers)
	}
	if !authz.CanUser(actor, nil, authz.ReadUsersList) ||
		(actor.IsAnonymous() && (p.Username == nil || strings.TrimSpace(*p.Username) == "")) {
		return nil, apperr.Forbidden("Not authorized to access /api/v4/users")
	}
	q := db.ClientFrom(ctx, s.client).User.Query()
	if !admin {
		q.Where(user.StateNotIn(user.StateBlocked, user.StateLdapBlocked, user.StateBanned))
		p = withoutAdminFilters(p)
	}
	q.Where(byState(p)...)
	q.Where(byType(p)...)
	if p.Username != nil {
		q.Where(user.UsernameEqualFold(*p.Username))
	}
	if len(p.Usernames) > 0 {
		names := make([]predicate.User, len(p.Usernames))
		for i, name := range p.Usernames {
			names[i] = user.UsernameEqualFold(name)
		}
		q.Where(user.Or(names...))
	}
	if len(p.IDs) > 0 {
		q.Where(user.IDIn(p.IDs...))
	}
	if p.PublicEmail != "" {
		q.Where(user.PublicEmailEqualFold(p.PublicEmail))
	}
	if p.Search != "" {
		q.Where(bySearch(p.Search, admin))
	}
	if p.CreatedAfter != nil {
		q.Where(user.CreatedAtGTE(*p.CreatedAfter))
	}
	if p.CreatedBefore != nil {
		q.Where(user.CreatedAtLTE(*p.CreatedBefore))
	}
	q.Where(byAdminFilters(p)...)
	if p.WithoutProjects {
		ids, err := s.usersWithProjects(ctx)
		if err != nil {
			return nil, err
		}
		q.Where(user.IDNotIn(ids...))
	}
	return q, nil
}

// withoutAdminFilters clears the filters only administrators may use.
func withoutAdminFilters(p ListParams) ListParams {
	p.ExternUID, p.Provider, p.TwoFactor = "", "", ""
	p.WithoutProjects, p.Admins, p.Auditors, p.SkipLDAP = false, false, false, false
	p.SAMLProviderID, p.CustomAttributes = nil, nil
	return p
}

// byState filters on the account state.
func byState(p ListParams) []predicate.User {
	var out []predicate.User
	if p.Active {
		out = append(out, user.StateEQ(user.StateActive), user.UserTypeIn(nonInternalTypes...))
	}
	if p.ExcludeActive {
		out = append(out, user.StateNEQ(user.StateActive))
	}
	if p.Blocked {
		out = append(out, user.StateIn(user.StateBlocked, user.StateLdapBlocked))
	}
	if p.External {
		out = append(out, user.External(true))
	}
	if p.ExcludeExternal {
		out = append(out, user.External(false))
	}
	return out
}

// byType filters on the user type.
func byType(p ListParams) []predicate.User {
	var out []predicate.User
	if p.Humans {
		out = append(out, user.UserType("human"))
	}
	if p.ExcludeHumans {
		out = append(out, user.UserTypeNEQ("human"))
	}
	if p.ExcludeInternal {
		out = append(out, user.UserTypeIn(nonInternalTypes...))
	}
	if p.WithoutProjectBots {
		out = append(out, user.UserTypeNotIn(projectBotTypes...))
	}
	return out
}

// byAdminFilters applies the administrator-only filters that need no lookup.
func byAdminFilters(p ListParams) []predicate.User {
	var out []predicate.User
	if p.ExternUID != "" && p.Provider != "" {
		out = append(out, user.HasIdentitiesWith(identity.Provider(p.Provider), identity.ExternUID(p.ExternUID)))
	}
	switch p.TwoFactor {
	case "enabled":
		out = append(out, user.TwoFactorEnabled(true))
	case "disabled":
		out = append(out, user.TwoFactorEnabled(false))
	}
	if p.Admins {
		out = append(out, user.Admin(true))
	}
	if p.Auditors {
		out = append(out, user.Auditor(true))
	}
	if p.SAMLProviderID != nil {
		out = append(out, user.HasIdentitiesWith(identity.SamlProviderID(*p.SAMLProviderID)))
	}
	if p.SkipLDAP {
		out = append(out, user.Not(user.HasIdentitiesWith(identity.ProviderHasPrefix("ldap"))))
	}
	for k, v := range p.CustomAttributes {
		out = append(out, user.HasCustomAttributesWith(usercustomattribute.Key(k), usercustomattribute.Value(v)))
	}
	return out
}

// searchTermRe splits a search into words, keeping "quoted phrases" together.
var searchTermRe = regexp.MustCompile(`"[^"]+"|\S+`)

// minPartialMatch is the shortest word matched as a substring; shorter queries match whole
// names and usernames only, as GitLab's fuzzy matching does.
const minPartialMatch = 3

// searchQuery normalises a search as GitLab does: a leading "@" is dropped and whitespace
// squeezed. An empty result matches nobody.
func searchQuery(search string) string {
	return strings.Join(strings.Fields(strings.TrimPrefix(strings.TrimSpace(search), "@")), " ")
}

// Search is GitLab's User.search as other domains use it (starrers, project users): name or
// username, or the full public email, and the full private email too when withPrivateEmails.
func Search(search string, withPrivateEmails bool) predicate.User {
	return bySearch(search, withPrivateEmails)
}

// bySearch matches name or username (every long word as a substring of the same column, or
// the whole query exactly), or the full public email; administrators also the private email.
func bySearch(search string, admin bool) predicate.User {
	query := searchQuery(search)
	if query == "" {
		return user.IDLT(0)
	}
	var words []string
	for _, w := range searchTermRe.FindAllString(query, -1) {
		if w = strings.Trim(w, `"`); utf8.RuneCountInString(w) >= minPartialMatch {
			words = append(words, w)
		}
	}
	column := func(contains func(string) predicate.User, equal func(string) predicate.User) predicate.User {
		if len(words) == 0 {
			return equal(query)
		}
		preds := make([]predicate.User, 0, len(words))
		for _, w := range words {
			preds = append(preds, contains(w))
		}
		return user.And(preds...)
	}
	preds := []predicate.User{
		column(containsFold(user.FieldName), user.NameEqualFold),
		column(containsFold(user.FieldUsername), user.UsernameEqualFold),
		user.PublicEmailEqualFold(query),
	}
	if admin {
		preds = append(preds, user.EmailEqualFold(query))
	}
	return user.Or(preds...)
}

// containsFold is the substring match on one of the users' columns.
func containsFold(column string) func(string) predicate.User {
	return func(term string) predicate.User { return db.ContainsFold(column, term) }
}
