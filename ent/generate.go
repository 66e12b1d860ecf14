// Package ent holds the generated data layer; only schema/ and entc.go are written by hand.
package ent

//go:generate go run -mod=readonly entc.go
