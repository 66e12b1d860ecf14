# Anvil: the two set-up commands are `make run` and `make test`.
GO ?= go
PKGS := ./...
FUZZTIME ?= 20s
LDFLAGS := -X anvil/internal/version.Revision=$(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

.PHONY: run build test test-sqlite test-postgres fuzz fuzz-params vet fmt generate bench clean

## run: start the server on its embedded defaults (SQLite and repositories under ./data, port 8080)
run:
	$(GO) run -ldflags "$(LDFLAGS)" ./cmd/anvil serve

## build: build the single static binary bin/anvil
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o bin/anvil ./cmd/anvil

## test: vet and format checks, the whole suite on SQLite, the whole suite again on PostgreSQL when
## ANVIL_TEST_DATABASE_URL is set, then a bounded fuzz run of the parameter parser. The race
## detector runs on the PostgreSQL suite (reads run side by side only there, see
## internal/db/concurrently.go), and on the SQLite suite only when there is no PostgreSQL: it
## instruments the SQLite engine too (C translated to Go), which makes every server start of the
## suite some 40 times slower (3-9 s instead of 0.1 s) without reaching any code of ours that the
## PostgreSQL suite does not race. The suite includes the OCI distribution-spec conformance run against the embedded
## registry (internal/registryserver TestOCIConformance: the suite pinned as a go.mod tool, built
## and run with a 5-minute bound; ANVIL_CONFORMANCE_RESULTS=dir keeps its report), and a bounded
## part (3,000 requests) of the fuzz campaign over every route (rest TestFuzzCampaign_...)
##
## Running the two suites side by side (make -j2 -O) was meant to help: the PostgreSQL suite alone used 18.1 CPU-min in 24 min on 2 cores, its tests waiting on
## PostgreSQL's fsyncs, on git subprocesses and on the job queue, and a test binary is mostly
## one goroutine at a time (few tests are parallel). On PostgreSQL every test server starts on
## a copy of a migrated template database instead of migrating an empty one
## (servertest/template.go): the migration, done by PostgreSQL's backends and not counted in
## the test binary's CPU, was most of a PostgreSQL test's wall time (a package 3-4 times
## faster with the template). ANVIL_TEST_TEMPLATE=0 turns it off, =1 turns it on for SQLite
## too. Figures: docs/PERFORMANCE.md.
##
## Side by side (make -j2 -O test-sqlite test-postgres) was tried on 2026-11-28: the first CI-style run
## so took 45.8 min from a cold build cache and one PostgreSQL test (TestRepos_GroupDeletion) failed
## under the doubled load, so the suites run one after the other. That failure was a removal
## racing a housekeeping (fixed: the removal job holds the housekeeping lock); instead of two
## suites side by side, each suite now runs more test binaries at once (TEST_P).
test: vet test-sqlite test-postgres fuzz-params

## TEST_P is go test's -p: how many compiles and test binaries run at once (Go's default is the
## number of cores, 2 here). A running test binary takes one of those places for as long as it
## runs, yet mostly waits (on PostgreSQL, git subprocesses, the job queue; few tests are
## parallel), so with -p 2 two waiting binaries keep the cores idle and every compile waits
## behind them; with 4, compiles and other binaries use that time (docs/PERFORMANCE.md, "The
## test suite").
TEST_P ?= 4
SQLITE_RACE := $(if $(ANVIL_TEST_DATABASE_URL),,-race)
test-sqlite:
	env -u ANVIL_TEST_DATABASE_URL $(GO) test $(SQLITE_RACE) -p $(TEST_P) -count=1 -timeout 20m $(PKGS)

test-postgres:
	@if [ -n "$$ANVIL_TEST_DATABASE_URL" ]; then \
		echo "== PostgreSQL: $$ANVIL_TEST_DATABASE_URL"; \
		$(GO) test -race -p $(TEST_P) -count=1 -timeout 20m $(PKGS); \
	else echo "== ANVIL_TEST_DATABASE_URL not set: PostgreSQL suite skipped"; fi

## fuzz: the parameter parser's Go fuzz target for FUZZTIME, then the whole fuzz campaign:
## FUZZ_REQUESTS (100,000) generated requests over every route, GraphQL, /v2/ and git smart
## HTTP against an in-process server (SQLite, then PostgreSQL when ANVIL_TEST_DATABASE_URL is
## set), failing on any 5xx or non-JSON /api/v4 error. FUZZ_SEED varies the requests.
FUZZ_REQUESTS ?= 100000
FUZZ_SEED ?= 1
fuzz: fuzz-params
	env -u ANVIL_TEST_DATABASE_URL ANVIL_FUZZ_REQUESTS=$(FUZZ_REQUESTS) ANVIL_FUZZ_SEED=$(FUZZ_SEED) \
		$(GO) test -count=1 -timeout 120m -run '^TestFuzzCampaign_' -v ./rest/
	@if [ -n "$$ANVIL_TEST_DATABASE_URL" ]; then \
		ANVIL_FUZZ_REQUESTS=$(FUZZ_REQUESTS) ANVIL_FUZZ_SEED=$(FUZZ_SEED) \
		$(GO) test -count=1 -timeout 120m -run '^TestFuzzCampaign_' -v ./rest/; fi

fuzz-params:
	$(GO) test -run '^$$' -fuzz '^FuzzParseQuery$$' -fuzztime $(FUZZTIME) ./rest/params

vet:
	$(GO) vet $(PKGS)
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go') | grep -v '^ent/' || true); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

fmt:
	gofmt -w $$(git ls-files '*.go' | grep -v '^ent/')

## generate: ent (with entgql) then gqlgen; offline from the module cache, never rewrites go.mod, and
## deterministic (.ci/run regenerates and fails on any difference)
generate:
	cd ent && $(GO) generate ./...
	$(GO) tool gqlgen generate

## bench: Go benchmarks through HTTP (SQLite, and PostgreSQL when ANVIL_TEST_DATABASE_URL is set),
## among them the repository endpoints against the git CLI on a generated repository of 20,000
## commits and 50,000 files, and a 200 MB image pushed and pulled through Anvil's registry against
## the bare registry (BenchmarkRegistry; ANVIL_BENCH_REGISTRY_SAMPLES, ANVIL_BENCH_REGISTRY_MB)
## (docs/PERFORMANCE.md). Knobs: BENCH (-bench pattern), BENCHTIME,
## ANVIL_BENCH_SIZE (table size of BenchmarkAPI), ANVIL_BENCH_SAMPLES (least API/git pairs per
## repository operation), ANVIL_BENCH_REPO (keep the generated repository there between runs;
## by default it is generated once per run in a temporary directory, shared by both databases)
BENCH ?= .
BENCHTIME ?= 2s
bench:
	@set -e; repo="$$ANVIL_BENCH_REPO"; tmp=""; \
	if [ -z "$$repo" ]; then tmp=$$(mktemp -d); repo="$$tmp/repo.git"; fi; \
	trap 'if [ -n "$$tmp" ]; then rm -rf "$$tmp"; fi' EXIT; \
	echo "== SQLite"; \
	env -u ANVIL_TEST_DATABASE_URL ANVIL_BENCH_REPO="$$repo" \
		$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem -benchtime $(BENCHTIME) -timeout 60m ./rest/; \
	if [ -n "$$ANVIL_TEST_DATABASE_URL" ]; then echo "== PostgreSQL"; \
		ANVIL_BENCH_REPO="$$repo" \
		$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem -benchtime $(BENCHTIME) -timeout 60m ./rest/; fi

clean:
	rm -rf bin data
