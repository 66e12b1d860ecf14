package servertest

import (
	"testing"

	"anvil/ent"
)

// Role is one caller of a permission matrix: a token (empty for anonymous) and, for members,
// the access level it holds in every group of the matrix.
type Role struct {
	Name  string
	Token string
	User  *ent.User
	Level int // 0: not a member
}

// Roles makes the standard callers of a role matrix: anonymous, a non-member, Guest to Owner
// members (added to each of groups) and an administrator. prefix keeps usernames apart when a
// test makes several matrices on one server.
func Roles(tb testing.TB, in *Instance, prefix string, groups ...*ent.Namespace) []Role {
	tb.Helper()
	out := []Role{{Name: "anonymous"}}
	u, tok := in.NewUser(tb, prefix+"-nonmember")
	out = append(out, Role{Name: "non-member", Token: tok, User: u})
	for _, l := range []struct {
		name  string
		level int
	}{{"guest", 10}, {"reporter", 20}, {"developer", 30}, {"maintainer", 40}, {"owner", 50}} {
		u, tok := in.NewUser(tb, prefix+"-"+l.name)
		for _, g := range groups {
			in.AddGroupMember(tb, g, u, l.level)
		}
		out = append(out, Role{Name: l.name, Token: tok, User: u, Level: l.level})
	}
	u, tok = in.NewUser(tb, prefix+"-admin", Admin)
	return append(out, Role{Name: "admin", Token: tok, User: u})
}
