// Package schema defines Anvil's entities and edges; ent generates the data layer from it.
package schema

import (
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/mixin"
)

// TimeMixin adds GitLab's created_at and updated_at columns.
type TimeMixin struct{ mixin.Schema }

// Fields returns the timestamp fields.
func (TimeMixin) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created_at").Immutable().Default(now).
			Annotations(entgql.OrderField("CREATED_AT")),
		field.Time("updated_at").Default(now).UpdateDefault(now).
			Annotations(entgql.OrderField("UPDATED_AT")),
	}
}

// now is UTC with millisecond precision, the resolution GitLab's timestamps carry on the wire,
// so a value read back from either database equals the value written.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
