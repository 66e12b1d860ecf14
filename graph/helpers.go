package graph

import (
	"context"
	"crypto/md5" //nolint:gosec // default avatars are addressed by the MD5 of the email
	"encoding/hex"
	"strings"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
)

// actor is the caller of the operation.
func actor(ctx context.Context) *authz.Actor { return authz.ActorFrom(ctx) }

// orNull answers a lookup of something missing or invisible with null, as GitLab's find
// fields do, so that no error tells an invisible resource from a missing one.
func orNull[T any](v *T, err error) (*T, error) {
	if apperr.IsNotFound(err) {
		return nil, nil
	}
	return v, err
}

// str returns *s, or "" for nil.
func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// flag returns *b, or false for nil.
func flag(b *bool) bool { return b != nil && *b }

// avatarURL is the user's uploaded avatar, else the default (Gravatar-style) avatar of the
// email: the same rule as REST's avatar_url.
func avatarURL(u *ent.User) string {
	if u.AvatarURL != "" {
		return u.AvatarURL
	}
	sum := md5.Sum([]byte(strings.ToLower(strings.TrimSpace(u.Email)))) //nolint:gosec
	return "https://www.gravatar.com/avatar/" + hex.EncodeToString(sum[:]) + "?s=80&d=identicon"
}
