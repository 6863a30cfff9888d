# Enrol: `make run` starts the site; `make test` runs every test.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
export CARGO_TARGET_DIR ?= $(CURDIR)/target
ENROL_BIN := $(CARGO_TARGET_DIR)/debug/enrol

.PHONY: run test web types check-shape lint-rust test-rust test-api lint-web test-web test-e2e bench bench-scale check-tools clean

## run: build the pages and start the site on http://127.0.0.1:8080 (SQLite, sandbox, demo content, mail at /dev/mailbox)
run: web
	ENROL_DEV_MAILBOX=1 ENROL_DEMO_STUDENTS=1 cargo run --bin enrol

## test: the lint gates, Rust unit and integration tests (SQLite and PostgreSQL), the API fuzz run, web unit tests, browser tests
test: check-tools check-shape lint-rust web test-rust test-api test-web test-e2e

check-tools:
	@scripts/check-tools

# No import loops inside a crate, no source file over 500 lines (decision 024).
check-shape:
	@scripts/check-shape

# The TypeScript types of the page data and of the admin API are generated
# from the Rust types (ts-rs): the domain's, the database records the admin
# answers carry, and the admin API's requests and answers.
types:
	cargo test --quiet -p enrol-domain -p enrol-db -p enrol-server --lib export_bindings >/dev/null

web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund

web: types web/node_modules/.package-lock.json
	cd web && npm run build

# Formatting and clippy, warnings as errors.
lint-rust:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --quiet -- -D warnings

test-rust:
	@scripts/postgres-status
	cargo test --workspace

# schemathesis over /api/openapi.json against the real binary: no 5xx, no
# answer its operation does not document.
test-api: web
	cargo build --bin enrol
	ENROL_BIN=$(ENROL_BIN) scripts/fuzz-api

# ESLint (typescript-eslint, react-hooks, jsx-a11y, feature boundaries) and tsc.
lint-web: types web/node_modules/.package-lock.json
	cd web && npm run lint

test-web: lint-web
	cd web && npm test

test-e2e: web
	cargo build --bin enrol
	cd web && ENROL_BIN=$(ENROL_BIN) npm run e2e

## bench: load-test the release build against nginx; figures go in the README
bench: web
	bench/run

## bench-scale: ten years of data grown on SQLite and PostgreSQL, and what staff and students do measured on them
bench-scale: web
	bench/scale

clean:
	rm -rf web/dist data/enrol.db*
