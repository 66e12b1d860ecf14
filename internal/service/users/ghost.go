package users

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/user"
)

// ghostType is the user type of the Ghost User, which holds the contributions of deleted users.
const ghostType = "ghost"

// ghostBio is the Ghost User's biography, GitLab's explanation of what it is.
const ghostBio = `This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.`

// ghostUser returns the Ghost User, creating it on first use with the first free "ghost",
// "ghost1", ... username. It has no namespace and no password.
func ghostUser(ctx context.Context, c *ent.Client) (*ent.User, error) {
	g, err := c.User.Query().Where(user.UserType(ghostType)).Order(ent.Asc(user.FieldID)).First(ctx)
	if err == nil || !ent.IsNotFound(err) {
		return g, err
	}
	for i := 0; ; i++ {
		suffix := ""
		if i > 0 {
			suffix = strconv.Itoa(i)
		}
		username, email := "ghost"+suffix, "ghost"+suffix+"@example.com"
		taken, err := c.User.Query().Where(user.Or(user.UsernameEqualFold(username), user.EmailEqualFold(email))).Exist(ctx)
		if err != nil {
			return nil, err
		}
		if !taken {
			return c.User.Create().SetUsername(username).SetName("Ghost User").SetEmail(email).
				SetUserType(ghostType).SetBio(ghostBio).SetProjectsLimit(0).SetCanCreateGroup(false).Save(ctx)
		}
	}
}
