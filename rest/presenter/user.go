package presenter

import (
	"crypto/md5" //nolint:gosec // avatar URLs use MD5 of the email, as Gravatar-compatible services do
	"encoding/hex"
	"strings"

	"anvil/ent"
)

// UserBasic is GitLab's UserBasic: the user summary embedded in other resources.
type UserBasic struct {
	ID               int               `json:"id"`
	Username         string            `json:"username"`
	Name             string            `json:"name"`
	State            string            `json:"state"`
	Locked           bool              `json:"locked"`
	AvatarURL        *string           `json:"avatar_url"`
	WebURL           string            `json:"web_url"`
	CustomAttributes []CustomAttribute `json:"custom_attributes,omitempty"`
}

// CustomAttribute is a key/value on a user.
type CustomAttribute struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// User is the single-user view (GET /users/:id for ordinary callers).
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
	Followers       int     `json:"followers"`
	Following       int     `json:"following"`
	IsFollowed      bool    `json:"is_followed"`
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

// UserWithAdmin is the administrator view of a user.
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
	return &UserBasic{
		ID: u.ID, Username: u.Username, Name: u.Name, State: string(u.State), Locked: u.Locked,
		AvatarURL: p.AvatarURL(u), WebURL: p.BaseURL + "/" + u.Username,
	}
}

// UserSingle renders the public single-user view.
func (p *Presenter) UserSingle(u *ent.User) *User {
	out := &User{
		UserBasic: *p.UserBasic(u), Bio: u.Bio, Location: u.Location, PublicEmailFull: u.PublicEmail,
		Skype: u.Skype, Linkedin: u.Linkedin, Twitter: u.Twitter, Discord: u.Discord,
		WebsiteURL: u.WebsiteURL, Organization: u.Organization, JobTitle: u.JobTitle,
		Pronouns: u.Pronouns, Bot: u.UserType != "human",
	}
	if !u.PrivateProfile {
		t := Time(u.CreatedAt)
		out.CreatedAt = &t
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

// UserPublic renders what a user sees of itself.
func (p *Presenter) UserPublic(u *ent.User, identities []*ent.Identity) *UserPublic {
	single := p.UserSingle(u)
	if single.CreatedAt == nil {
		t := Time(u.CreatedAt)
		single.CreatedAt = &t
	}
	ids := make([]Identity, 0, len(identities))
	for _, i := range identities {
		ids = append(ids, Identity{Provider: i.Provider, ExternUID: i.ExternUID, SAMLProviderID: i.SamlProviderID})
	}
	return &UserPublic{
		User: *single, LastSignInAt: TimePtr(u.LastSignInAt), ConfirmedAt: TimePtr(u.ConfirmedAt),
		LastActivityOn: DatePtr(u.LastActivityOn), Email: u.Email, ThemeID: u.ThemeID,
		ColorSchemeID: u.ColorSchemeID, ProjectsLimit: u.ProjectsLimit,
		CurrentSignInAt: TimePtr(u.CurrentSignInAt), Identities: ids,
		CanCreateGroup: u.CanCreateGroup, CanCreateProject: u.ProjectsLimit > 0,
		TwoFactorEnabled: u.TwoFactorEnabled, External: u.External, PrivateProfile: u.PrivateProfile,
		CommitEmail: commitEmail(u), ScimIdentities: []any{},
	}
}

func commitEmail(u *ent.User) string {
	if u.CommitEmail != "" {
		return u.CommitEmail
	}
	return u.Email
}

// UserWithAdmin renders the administrator view. namespaceID and createdBy may be nil.
func (p *Presenter) UserWithAdmin(u *ent.User, identities []*ent.Identity, namespaceID *int, createdBy *ent.User) *UserWithAdmin {
	return &UserWithAdmin{
		UserPublic: *p.UserPublic(u, identities), IsAdmin: u.Admin, Note: u.Note,
		NamespaceID: namespaceID, CreatedBy: p.UserBasic(createdBy),
		CurrentSignInIP: u.CurrentSignInIP, LastSignInIP: u.LastSignInIP,
		IsAuditor: u.Auditor, UsingLicenseSeat: u.State == "active" && u.UserType == "human",
		Plan: "ultimate", SignInCount: u.SignInCount,
	}
}
