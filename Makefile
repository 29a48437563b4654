# The two commands of the README, and a few helpers. Each target installs what it needs.
.PHONY: serve test build bench e2e

## Build the site and serve it at http://127.0.0.1:8080 (PORT=... to change).
serve:
	scripts/serve.sh

## Run every test: fmt, clippy (native + wasm32), native, browser and end-to-end tests.
test:
	scripts/test.sh

## Build the release site into dist/ (relative URLs: works under any sub-path).
build:
	scripts/build-site.sh

## Criterion benchmarks of the engine.
bench:
	cargo bench --bench engine

## Only the end-to-end test against a fresh release build.
e2e: build
	cargo build --release --bin lab
	python3 tests/e2e/run.py dist e2e-artifacts target/release/lab
