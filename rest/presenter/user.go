package presenter

import (
	"crypto/md5" //nolint:gosec // avatar URLs use MD5 of the email, as Gravatar-compatible services do
	"encoding/hex"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"anvil/ent"
	"anvil/internal/service/users"
)

// UserBasic is GitLab's UserBasic: the user summary embedded in other resources and the
// non-administrator GET /users entry. custom_attributes appears only when the finder loaded
// them (with_custom_attributes=true for an administrator).
type UserBasic struct {
	ID               int                `json:"id"`
	Username         string             `json:"username"`
	Name             string             `json:"name"`
	State            string             `json:"state"`
	Locked           bool               `json:"locked"`
	AvatarURL        *string            `json:"avatar_url"`
	WebURL           string             `json:"web_url"`
	CustomAttributes *[]CustomAttribute `json:"custom_attributes,omitempty"`
}

// CustomAttribute is a key/value on a user.
type CustomAttribute struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// User is the single-user view (GET /users/:id for ordinary callers). created_at, followers,
// following and is_followed are left out when the viewer may not read a private profile.
type User struct {
	UserBasic
	CreatedAt       *Time   `json:"created_at,omitempty"`
	Bio             string  `json:"bio"`
	Location        string  `json:"location"`
	PublicEmailFull string  `json:"public_email"`
	Skype           string  `json:"skype"`
	Linkedin        string  `json:"linkedin"`
	Twitter         string  `json:"twitter"`
	Discord         string  `json:"discord"`
	WebsiteURL      string  `json:"website_url"`
	Organization    string  `json:"organization"`
	JobTitle        string  `json:"job_title"`
	Pronouns        string  `json:"pronouns"`
	Bot             bool    `json:"bot"`
	WorkInformation *string `json:"work_information"`
	Followers       *int    `json:"followers,omitempty"`
	Following       *int    `json:"following,omitempty"`
	IsFollowed      *bool   `json:"is_followed,omitempty"`
	LocalTime       *string `json:"local_time"`
}

// Identity is an external identity of a user.
type Identity struct {
	Provider       string `json:"provider"`
	ExternUID      string `json:"extern_uid"`
	SAMLProviderID *int   `json:"saml_provider_id,omitempty"`
}

// UserPublic is what a user sees of itself (GET /user), and the base of the administrator view.
type UserPublic struct {
	User
	LastSignInAt                   *Time      `json:"last_sign_in_at"`
	ConfirmedAt                    *Time      `json:"confirmed_at"`
	LastActivityOn                 *Date      `json:"last_activity_on"`
	Email                          string     `json:"email"`
	ThemeID                        int        `json:"theme_id"`
	ColorSchemeID                  int        `json:"color_scheme_id"`
	ProjectsLimit                  int        `json:"projects_limit"`
	CurrentSignInAt                *Time      `json:"current_sign_in_at"`
	Identities                     []Identity `json:"identities"`
	CanCreateGroup                 bool       `json:"can_create_group"`
	CanCreateProject               bool       `json:"can_create_project"`
	TwoFactorEnabled               bool       `json:"two_factor_enabled"`
	External                       bool       `json:"external"`
	PrivateProfile                 bool       `json:"private_profile"`
	CommitEmail                    string     `json:"commit_email"`
	SharedRunnersMinutesLimit      *int       `json:"shared_runners_minutes_limit"`
	ExtraSharedRunnersMinutesLimit *int       `json:"extra_shared_runners_minutes_limit"`
	ScimIdentities                 []any      `json:"scim_identities"`
}

// UserWithAdmin is the administrator view of a user (lists, GET /user, create and update).
type UserWithAdmin struct {
	UserPublic
	IsAdmin              bool       `json:"is_admin"`
	Note                 string     `json:"note"`
	NamespaceID          *int       `json:"namespace_id"`
	CreatedBy            *UserBasic `json:"created_by"`
	CurrentSignInIP      *string    `json:"current_sign_in_ip"`
	LastSignInIP         *string    `json:"last_sign_in_ip"`
	EmailResetOfferedAt  *Time      `json:"email_reset_offered_at"`
	IsAuditor            bool       `json:"is_auditor"`
	UsingLicenseSeat     bool       `json:"using_license_seat"`
	ProvisionedByGroupID *int       `json:"provisioned_by_group_id"`
	Plan                 string     `json:"plan"`
	Trial                bool       `json:"trial"`
	SignInCount          int        `json:"sign_in_count"`
}

// UserDetailsWithAdmin is the administrator's single-user view (GET /users/:id).
type UserDetailsWithAdmin struct {
	UserWithAdmin
	HighestRole int `json:"highest_role"`
}

// AvatarURL returns the user's avatar: the uploaded one, else an identicon-style service URL
// from the email, as GitLab's default avatar service does.
func (p *Presenter) AvatarURL(u *ent.User) *string {
	if u.AvatarURL != "" {
		return &u.AvatarURL
	}
	sum := md5.Sum([]byte(strings.ToLower(strings.TrimSpace(u.Email)))) //nolint:gosec
	s := "https://www.gravatar.com/avatar/" + hex.EncodeToString(sum[:]) + "?s=80&d=identicon"
	return &s
}

// UserBasic renders the user summary.
func (p *Presenter) UserBasic(u *ent.User) *UserBasic {
	if u == nil {
		return nil
	}
	out := &UserBasic{
		ID: u.ID, Username: u.Username, Name: u.Name, State: string(u.State), Locked: users.AccessLocked(u, time.Now()),
		AvatarURL: p.AvatarURL(u), WebURL: p.BaseURL + "/" + u.Username,
	}
	if attrs, err := u.Edges.CustomAttributesOrErr(); err == nil {
		list := p.CustomAttributes(attrs)
		out.CustomAttributes = &list
	}
	return out
}

// UserBasics renders a list of user summaries.
func (p *Presenter) UserBasics(us []*ent.User) []*UserBasic {
	out := make([]*UserBasic, 0, len(us))
	for _, u := range us {
		out = append(out, p.UserBasic(u))
	}
	return out
}

// nonBotTypes are the user types GitLab does not call bots.
var nonBotTypes = []string{"human", "ghost", "placeholder", "import_user"}

// UserSingle renders the public single-user view. profileVisible is whether the viewer may read
// the profile (GitLab's read_user_profile); signedIn whether the viewer is a user.
func (p *Presenter) UserSingle(u *ent.User, profileVisible, signedIn bool) *User {
	out := &User{
		UserBasic: *p.UserBasic(u), Bio: u.Bio, Location: u.Location, PublicEmailFull: u.PublicEmail,
		Skype: u.Skype, Linkedin: u.Linkedin, Twitter: u.Twitter, Discord: u.Discord,
		WebsiteURL: u.WebsiteURL, Organization: u.Organization, JobTitle: u.JobTitle,
		Pronouns: u.Pronouns, Bot: !slices.Contains(nonBotTypes, u.UserType),
	}
	if profileVisible {
		t := Time(u.CreatedAt)
		zero, no := 0, false
		out.CreatedAt, out.Followers, out.Following = &t, &zero, &zero
		if signedIn {
			out.IsFollowed = &no
		}
	}
	if wi := workInformation(u); wi != "" {
		out.WorkInformation = &wi
	}
	return out
}

func workInformation(u *ent.User) string {
	switch {
	case u.JobTitle != "" && u.Organization != "":
		return u.JobTitle + " at " + u.Organization
	case u.Organization != "":
		return u.Organization
	}
	return u.JobTitle
}

// UserPublic renders what a user sees of itself; identities come from the loaded edge.
func (p *Presenter) UserPublic(u *ent.User) *UserPublic {
	ids := make([]Identity, 0, len(u.Edges.Identities))
	for _, i := range u.Edges.Identities {
		ids = append(ids, Identity{Provider: i.Provider, ExternUID: i.ExternUID, SAMLProviderID: i.SamlProviderID})
	}
	return &UserPublic{
		User: *p.UserSingle(u, true, true), LastSignInAt: TimePtr(u.LastSignInAt), ConfirmedAt: TimePtr(u.ConfirmedAt),
		LastActivityOn: DatePtr(u.LastActivityOn), Email: u.Email, ThemeID: u.ThemeID,
		ColorSchemeID: u.ColorSchemeID, ProjectsLimit: u.ProjectsLimit,
		CurrentSignInAt: TimePtr(u.CurrentSignInAt), Identities: ids,
		CanCreateGroup: u.CanCreateGroup, CanCreateProject: u.ProjectsLimit > 0,
		TwoFactorEnabled: u.TwoFactorEnabled, External: u.External, PrivateProfile: u.PrivateProfile,
		CommitEmail: p.commitEmail(u), ScimIdentities: []any{},
	}
}

// commitEmail is the address commits are attributed to: the chosen one, the generated private
// address for "_private", else the primary email.
func (p *Presenter) commitEmail(u *ent.User) string {
	switch u.CommitEmail {
	case "":
		return u.Email
	case "_private":
		host := "localhost"
		if b, err := url.Parse(p.BaseURL); err == nil && b.Hostname() != "" {
			host = b.Hostname()
		}
		return strconv.Itoa(u.ID) + "-" + u.Username + "@users.noreply." + host
	}
	return u.CommitEmail
}

// UserWithAdmin renders the administrator view from the edges of the admin load: identities,
// namespace and created_by.
func (p *Presenter) UserWithAdmin(u *ent.User) *UserWithAdmin {
	out := &UserWithAdmin{
		UserPublic: *p.UserPublic(u), IsAdmin: u.Admin, Note: u.Note,
		CreatedBy:       p.UserBasic(u.Edges.CreatedBy),
		CurrentSignInIP: u.CurrentSignInIP, LastSignInIP: u.LastSignInIP,
		IsAuditor: u.Auditor, UsingLicenseSeat: u.State == "active" && u.UserType == "human",
		Plan: "ultimate", SignInCount: u.SignInCount,
	}
	if ns := u.Edges.Namespace; ns != nil {
		out.NamespaceID = &ns.ID
	}
	return out
}

// UsersWithAdmin renders a list in the administrator view.
func (p *Presenter) UsersWithAdmin(us []*ent.User) []*UserWithAdmin {
	out := make([]*UserWithAdmin, 0, len(us))
	for _, u := range us {
		out = append(out, p.UserWithAdmin(u))
	}
	return out
}

// UserDetailsWithAdmin renders the administrator's single-user view; highest_role comes from
// the loaded memberships.
func (p *Presenter) UserDetailsWithAdmin(u *ent.User) *UserDetailsWithAdmin {
	out := &UserDetailsWithAdmin{UserWithAdmin: *p.UserWithAdmin(u)}
	for _, m := range u.Edges.Memberships {
		out.HighestRole = max(out.HighestRole, m.AccessLevel)
	}
	return out
}

// CustomAttribute renders one custom attribute.
func (p *Presenter) CustomAttribute(a *ent.UserCustomAttribute) CustomAttribute {
	return CustomAttribute{Key: a.Key, Value: a.Value}
}

// CustomAttributes renders custom attributes.
func (p *Presenter) CustomAttributes(as []*ent.UserCustomAttribute) []CustomAttribute {
	out := make([]CustomAttribute, 0, len(as))
	for _, a := range as {
		out = append(out, p.CustomAttribute(a))
	}
	return out
}

// UserActivity is GitLab's UserActivity entity (GET /user/activities): last_activity_at repeats
// last_activity_on for older clients.
type UserActivity struct {
	Username       string `json:"username"`
	LastActivityOn *Date  `json:"last_activity_on"`
	LastActivityAt *Date  `json:"last_activity_at"`
}

// UserActivities renders users' last activity dates.
func (p *Presenter) UserActivities(us []*ent.User) []UserActivity {
	out := make([]UserActivity, 0, len(us))
	for _, u := range us {
		out = append(out, UserActivity{Username: u.Username, LastActivityOn: DatePtr(u.LastActivityOn), LastActivityAt: DatePtr(u.LastActivityOn)})
	}
	return out
}
