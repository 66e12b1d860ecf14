//go:build ignore

// entc.go runs ent code generation with the entgql extension (see `make generate`).
package main

import (
	"log"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
)

func main() {
	ex, err := entgql.NewExtension(
		entgql.WithSchemaGenerator(),
		entgql.WithRelaySpec(true),
		entgql.WithConfigPath("../gqlgen.yml"),
		entgql.WithSchemaPath("../graph/ent.graphql"),
	)
	if err != nil {
		log.Fatalf("creating entgql extension: %v", err)
	}
	features := []gen.Feature{gen.FeatureUpsert, gen.FeatureLock, gen.FeatureExecQuery, gen.FeatureModifier, gen.FeatureIntercept}
	if err := entc.Generate("./schema", &gen.Config{Features: features}, entc.Extensions(ex)); err != nil {
		log.Fatalf("running ent codegen: %v", err)
	}
}
