package presenter

import (
	"anvil/ent"
	"anvil/internal/service/tokens"
)

// PersonalAccessToken is GitLab's PersonalAccessToken entity (token lists). The secret is never
// part of it.
type PersonalAccessToken struct {
	ID          int      `json:"id"`
	Name        string   `json:"name"`
	Revoked     bool     `json:"revoked"`
	CreatedAt   Time     `json:"created_at"`
	Description *string  `json:"description"`
	Scopes      []string `json:"scopes"`
	UserID      int      `json:"user_id"`
	LastUsedAt  *Time    `json:"last_used_at"`
	Active      bool     `json:"active"`
	ExpiresAt   *Date    `json:"expires_at"`
}

// PersonalAccessTokenWithToken adds the secret: only in the answer that creates or rotates it.
type PersonalAccessTokenWithToken struct {
	PersonalAccessToken
	Token string `json:"token"`
}

// PersonalAccessTokenWithLastUsedIps adds the recent client addresses (single-token reads and
// the list of one's tokens).
type PersonalAccessTokenWithLastUsedIps struct {
	PersonalAccessToken
	LastUsedIps []string `json:"last_used_ips"`
}

// ImpersonationToken is GitLab's ImpersonationToken entity.
type ImpersonationToken struct {
	PersonalAccessToken
	Impersonation bool `json:"impersonation"`
}

// ImpersonationTokenWithToken is ImpersonationToken with its secret, on creation.
type ImpersonationTokenWithToken struct {
	PersonalAccessTokenWithToken
	Impersonation bool `json:"impersonation"`
}

// ResourceAccessToken is GitLab's ResourceAccessToken entity: a project or group access token
// with its bot's role and its resource.
type ResourceAccessToken struct {
	PersonalAccessTokenWithLastUsedIps
	AccessLevel  int    `json:"access_level"`
	ResourceType string `json:"resource_type"`
	ResourceID   int    `json:"resource_id"`
}

// ResourceAccessTokenWithToken is ResourceAccessToken with its secret, on creation and rotation.
type ResourceAccessTokenWithToken struct {
	ResourceAccessToken
	Token string `json:"token"`
}

// PersonalAccessToken renders a token.
func (p *Presenter) PersonalAccessToken(t *ent.PersonalAccessToken) PersonalAccessToken {
	scopes := t.Scopes
	if scopes == nil {
		scopes = []string{}
	}
	return PersonalAccessToken{
		ID: t.ID, Name: t.Name, Revoked: t.Revoked, CreatedAt: Time(t.CreatedAt),
		Description: strPtrOrNil(t.Description), Scopes: scopes, UserID: t.UserID,
		LastUsedAt: TimePtr(t.LastUsedAt), Active: tokens.IsActive(t), ExpiresAt: DatePtr(t.ExpiresAt),
	}
}

// PersonalAccessTokens renders a list of tokens: GET /personal_access_tokens shows each with its
// recent client addresses, as the single-token reads do.
func (p *Presenter) PersonalAccessTokens(ts []*ent.PersonalAccessToken) []PersonalAccessTokenWithLastUsedIps {
	out := make([]PersonalAccessTokenWithLastUsedIps, 0, len(ts))
	for _, t := range ts {
		out = append(out, p.PersonalAccessTokenWithLastUsedIps(t))
	}
	return out
}

// PersonalAccessTokenWithToken renders a new token and its secret.
func (p *Presenter) PersonalAccessTokenWithToken(t *ent.PersonalAccessToken, secret string) PersonalAccessTokenWithToken {
	return PersonalAccessTokenWithToken{PersonalAccessToken: p.PersonalAccessToken(t), Token: secret}
}

// PersonalAccessTokenWithLastUsedIps renders one token with its recent client addresses.
func (p *Presenter) PersonalAccessTokenWithLastUsedIps(t *ent.PersonalAccessToken) PersonalAccessTokenWithLastUsedIps {
	ips := t.LastUsedIps
	if ips == nil {
		ips = []string{}
	}
	return PersonalAccessTokenWithLastUsedIps{PersonalAccessToken: p.PersonalAccessToken(t), LastUsedIps: ips}
}

// ImpersonationToken renders an impersonation token.
func (p *Presenter) ImpersonationToken(t *ent.PersonalAccessToken) ImpersonationToken {
	return ImpersonationToken{PersonalAccessToken: p.PersonalAccessToken(t), Impersonation: t.Impersonation}
}

// ImpersonationTokens renders a list of impersonation tokens.
func (p *Presenter) ImpersonationTokens(ts []*ent.PersonalAccessToken) []ImpersonationToken {
	out := make([]ImpersonationToken, 0, len(ts))
	for _, t := range ts {
		out = append(out, p.ImpersonationToken(t))
	}
	return out
}

// ImpersonationTokenWithToken renders a new impersonation token and its secret.
func (p *Presenter) ImpersonationTokenWithToken(t *ent.PersonalAccessToken, secret string) ImpersonationTokenWithToken {
	return ImpersonationTokenWithToken{PersonalAccessTokenWithToken: p.PersonalAccessTokenWithToken(t, secret), Impersonation: t.Impersonation}
}

// ResourceAccessToken renders a project or group access token.
func (p *Presenter) ResourceAccessToken(t *tokens.ResourceToken) ResourceAccessToken {
	return ResourceAccessToken{
		PersonalAccessTokenWithLastUsedIps: p.PersonalAccessTokenWithLastUsedIps(t.PersonalAccessToken),
		AccessLevel:                        t.AccessLevel, ResourceType: string(t.ResourceType), ResourceID: t.ResourceID,
	}
}

// ResourceAccessTokens renders a list of project or group access tokens.
func (p *Presenter) ResourceAccessTokens(ts []*tokens.ResourceToken) []ResourceAccessToken {
	out := make([]ResourceAccessToken, 0, len(ts))
	for _, t := range ts {
		out = append(out, p.ResourceAccessToken(t))
	}
	return out
}

// ResourceAccessTokenWithToken renders a new or rotated project or group access token.
func (p *Presenter) ResourceAccessTokenWithToken(t *tokens.ResourceToken, secret string) ResourceAccessTokenWithToken {
	return ResourceAccessTokenWithToken{ResourceAccessToken: p.ResourceAccessToken(t), Token: secret}
}
