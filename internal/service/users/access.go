package users

import (
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/apperr"
)

// Channel is how a request reaches an account: it decides which of GitLab's abilities
// (access_api, log_in + access_git) the account's state must allow.
type Channel int

const (
	// ViaAPI is a token on the REST or GraphQL API (GitLab's access_api).
	ViaAPI Channel = iota
	// ViaGitClient is HTTP Basic credentials of a git or container registry client, a token or
	// the account password (GitLab's find_for_git_client: log_in, then access_git).
	ViaGitClient
)

// Messages GitLab shows accounts whose state refuses them.
const (
	msgPendingApproval = "Your account is pending approval from your administrator and hence blocked."
	msgBlocked         = "Your account has been blocked."
)

// deactivatedMessage sends a deactivated user back to the web sign-in at baseURL.
func deactivatedMessage(baseURL string) string {
	return "Your account has been deactivated by your administrator. " +
		"Please log back in from a web browser to reactivate your account at " + strings.TrimRight(baseURL, "/")
}

// AccessError is the one rule for accounts whose state refuses them, shared by the REST and
// GraphQL APIs, git over HTTP and the registry's token endpoint; nil lets u through. It
// follows GitLab's global policy:
//   - the API (access_api): pending approval, deactivated and blocked (blocked, LDAP-blocked,
//     banned) accounts are refused with GitLab's 403 message (KindForbidden). A locked account
//     keeps its API tokens: a lock stops sign-in only.
//   - git and registry clients (log_in, then access_git): accounts that cannot sign in —
//     blocked, banned, pending approval, and locked ones (AccessLocked at now) — are answered
//     as wrong credentials (KindUnauthorized), so that git asks again; a deactivated account
//     signs in and is then told how to come back (KindForbidden with the whole message).
//
// baseURL is the instance URL named in the deactivated message.
func AccessError(u *ent.User, ch Channel, baseURL string, now time.Time) error {
	if ch == ViaAPI {
		switch u.State {
		case user.StateBlockedPendingApproval:
			return apperr.Forbidden(msgPendingApproval)
		case user.StateDeactivated:
			return apperr.Forbidden(deactivatedMessage(baseURL))
		case user.StateBlocked, user.StateLdapBlocked, user.StateBanned:
			return apperr.Forbidden(msgBlocked)
		}
		return nil
	}
	switch {
	case !canSignIn(u, now):
		return apperr.Unauthorized()
	case u.State == user.StateDeactivated:
		return apperr.ForbiddenMessage(deactivatedMessage(baseURL))
	}
	return nil
}

// canSignIn is GitLab's log_in ability: active or deactivated (which signing in reactivates on
// the web), and not locked.
func canSignIn(u *ent.User, now time.Time) bool {
	return (u.State == user.StateActive || u.State == user.StateDeactivated) && !AccessLocked(u, now)
}

// AccessLocked reports whether u is locked at now: too many failed sign-ins locked it and the
// lock has not run out (GitLab's access_locked?, shown as "locked").
func AccessLocked(u *ent.User, now time.Time) bool {
	return u.LockedUntil != nil && now.Before(*u.LockedUntil)
}
