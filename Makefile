# Anvil: the two set-up commands are `make run` and `make test`.
GO ?= go
PKGS := ./...
FUZZTIME ?= 20s
LDFLAGS := -X anvil/internal/version.Revision=$(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

.PHONY: run build test test-sqlite test-postgres fuzz vet fmt generate bench clean

## run: start the server on its embedded defaults (SQLite and repositories under ./data, port 8080)
run:
	$(GO) run -ldflags "$(LDFLAGS)" ./cmd/anvil serve

## build: build the single static binary bin/anvil
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o bin/anvil ./cmd/anvil

## test: vet and format checks, the whole suite with the race detector on SQLite and (when
## ANVIL_TEST_DATABASE_URL is set) on PostgreSQL, then a bounded fuzz run of the parameter parser
test: vet test-sqlite test-postgres fuzz

test-sqlite:
	env -u ANVIL_TEST_DATABASE_URL $(GO) test -race -count=1 -timeout 20m $(PKGS)

test-postgres:
	@if [ -n "$$ANVIL_TEST_DATABASE_URL" ]; then \
		echo "== PostgreSQL: $$ANVIL_TEST_DATABASE_URL"; \
		$(GO) test -race -count=1 -timeout 20m $(PKGS); \
	else echo "== ANVIL_TEST_DATABASE_URL not set: PostgreSQL suite skipped"; fi

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParseQuery$$' -fuzztime $(FUZZTIME) ./rest/params

vet:
	$(GO) vet $(PKGS)
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go') | grep -v '^ent/' || true); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

fmt:
	gofmt -w $$(git ls-files '*.go' | grep -v '^ent/')

## generate: ent (with entgql) then gqlgen
generate:
	cd ent && $(GO) generate ./...
	$(GO) tool gqlgen generate

## bench: Go benchmarks through HTTP (SQLite, and PostgreSQL when ANVIL_TEST_DATABASE_URL is set)
bench:
	env -u ANVIL_TEST_DATABASE_URL $(GO) test -run '^$$' -bench . -benchmem -benchtime 2s -timeout 60m ./rest/
	@if [ -n "$$ANVIL_TEST_DATABASE_URL" ]; then \
		$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s -timeout 60m ./rest/; fi

clean:
	rm -rf bin data
