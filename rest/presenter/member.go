package presenter

import (
	"anvil/ent"
	"anvil/internal/service/members"
)

// Member is GitLab's Member entity (EE): the user summary merged with the membership.
// created_by is left out when unknown; email only for administrators; is_using_seat only when
// show_seat_info is asked. group_saml_identity is left out as GitLab does for groups without
// SAML single sign-on, which Anvil does not offer.
type Member struct {
	UserBasic
	AccessLevel     int        `json:"access_level"`
	CreatedAt       Time       `json:"created_at"`
	CreatedBy       *UserBasic `json:"created_by,omitempty"`
	ExpiresAt       *Date      `json:"expires_at"`
	Email           *string    `json:"email,omitempty"`
	IsUsingSeat     *bool      `json:"is_using_seat,omitempty"`
	MembershipState string     `json:"membership_state"`
}

// MemberView is what the Member shape needs besides the membership row.
type MemberView struct {
	User *ent.User
	// AccessLevel is the level shown (the effective one for inherited listings).
	AccessLevel int
	// CreatedBy is nil when unknown or hidden.
	CreatedBy *ent.User
	// UsingSeat is shown when not nil.
	UsingSeat *bool
	// ShowEmail reveals the user's email (administrators).
	ShowEmail bool
}

// Member renders a membership.
func (p *Presenter) Member(m *ent.Member, v MemberView) *Member {
	out := &Member{
		UserBasic: *p.UserBasic(v.User), AccessLevel: v.AccessLevel, CreatedAt: Time(m.CreatedAt),
		CreatedBy: p.UserBasic(v.CreatedBy), ExpiresAt: DatePtr(m.ExpiresAt),
		IsUsingSeat: v.UsingSeat, MembershipState: m.State,
	}
	if v.ShowEmail {
		email := v.User.Email
		out.Email = &email
	}
	return out
}

// BillableMember is GitLab's BillableMember entity: a user taking a seat in a top-level group.
type BillableMember struct {
	UserBasic
	Email          *string `json:"email"`
	LastActivityOn *Date   `json:"last_activity_on"`
	MembershipType string  `json:"membership_type"`
	Removable      bool    `json:"removable"`
	CreatedAt      Time    `json:"created_at"`
	IsLastOwner    bool    `json:"is_last_owner"`
	LastLoginAt    *Time   `json:"last_login_at"`
}

// BillableMember renders a billable user. Administrators see the email, others the public
// email or null.
func (p *Presenter) BillableMember(u *ent.User, membershipType string, removable, lastOwner, showEmail bool) *BillableMember {
	email := strPtrOrNil(u.PublicEmail)
	if showEmail {
		email = &u.Email
	}
	return &BillableMember{
		UserBasic: *p.UserBasic(u), Email: email, LastActivityOn: DatePtr(u.LastActivityOn),
		MembershipType: membershipType, Removable: removable, CreatedAt: Time(u.CreatedAt),
		IsLastOwner: lastOwner, LastLoginAt: TimePtr(u.CurrentSignInAt),
	}
}

// AccessLevelDetails is an access level with its name.
type AccessLevelDetails struct {
	StringValue  string `json:"string_value"`
	IntegerValue int    `json:"integer_value"`
	CustomRole   any    `json:"custom_role"`
}

// BillableMembership is GitLab's BillableMembership entity: one direct membership of a billable
// user.
type BillableMembership struct {
	ID               int                `json:"id"`
	SourceID         int                `json:"source_id"`
	SourceFullName   string             `json:"source_full_name"`
	SourceMembersURL string             `json:"source_members_url"`
	CreatedAt        Time               `json:"created_at"`
	ExpiresAt        *Date              `json:"expires_at"`
	AccessLevel      AccessLevelDetails `json:"access_level"`
}

// BillableMembership renders a membership of a group (isGroup) or project with the source's
// id, full name and full path, and the access level's name.
func (p *Presenter) BillableMembership(m *ent.Member, isGroup bool, sourceID int, fullName, fullPath, levelName string) *BillableMembership {
	url := p.BaseURL + "/" + fullPath + "/-/project_members"
	if isGroup {
		url = p.BaseURL + "/groups/" + fullPath + "/-/group_members"
	}
	return &BillableMembership{
		ID: m.ID, SourceID: sourceID, SourceFullName: fullName, SourceMembersURL: url,
		CreatedAt: Time(m.CreatedAt), ExpiresAt: DatePtr(m.ExpiresAt),
		AccessLevel: AccessLevelDetails{StringValue: levelName, IntegerValue: m.AccessLevel},
	}
}

// UserMembership is GitLab's Membership entity: one of a user's direct memberships
// (GET /users/:id/memberships).
type UserMembership struct {
	SourceID    int    `json:"source_id"`
	SourceName  string `json:"source_name"`
	SourceType  string `json:"source_type"`
	AccessLevel int    `json:"access_level"`
}

// UserMemberships renders memberships loaded with their group or project.
func (p *Presenter) UserMemberships(ms []*ent.Member) []*UserMembership {
	out := make([]*UserMembership, 0, len(ms))
	for _, m := range ms {
		e := &UserMembership{AccessLevel: m.AccessLevel}
		switch {
		case m.Edges.Project != nil:
			e.SourceID, e.SourceName, e.SourceType = m.Edges.Project.ID, m.Edges.Project.Name, members.SourceProject
		case m.Edges.Namespace != nil:
			e.SourceID, e.SourceName, e.SourceType = m.Edges.Namespace.ID, m.Edges.Namespace.Name, members.SourceNamespace
		default:
			continue
		}
		out = append(out, e)
	}
	return out
}
