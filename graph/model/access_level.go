// Package model holds the GraphQL types that are not ent entities: payloads, inputs, enums
// (generated in models_gen.go) and the few written by hand here.
package model

// AccessLevel is GitLab's AccessLevel object. It is written by hand because gqlgen's autobind
// would otherwise bind the name to the ent/member.AccessLevel predicate.
type AccessLevel struct {
	IntegerValue *int             `json:"integerValue,omitempty"`
	StringValue  *AccessLevelEnum `json:"stringValue,omitempty"`
	HumanAccess  *string          `json:"humanAccess,omitempty"`
}
