package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// JobOutbox is a background job written in the transaction of the change that causes it
// (internal/jobs). The job queue (River) moves it into its own table and deletes it in one
// transaction of the queue's driver, so a job whose change committed is never lost and never
// queued twice, even on PostgreSQL where ent (lib/pq) and River (pgx) cannot share a transaction.
type JobOutbox struct{ ent.Schema }

// Fields returns the job's kind and its arguments as JSON.
func (JobOutbox) Fields() []ent.Field {
	return []ent.Field{
		field.String("kind").NotEmpty(),
		field.Text("args"),
		field.Time("created_at").Immutable().Default(now),
	}
}

// Annotations names the table and keeps JobOutbox out of the generated graph.
func (JobOutbox) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("job_outbox"), entgql.Skip(entgql.SkipAll)}
}
