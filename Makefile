# layoutd: `make run` starts the server on 127.0.0.1:8080 with defaults; `make test` runs every test.
# Both install the system packages they need when missing (Debian: libmicrohttpd-dev, zlib1g-dev).

SWIFT   ?= swift
HOST    ?= 127.0.0.1
PORT    ?= 8080
WORKLOADS ?= /tmp/layoutd-workloads
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PKGS := libmicrohttpd-dev zlib1g-dev libxml2-dev libsqlite3-dev libpq-dev pkg-config libharfbuzz-dev libfontconfig-dev libicu-dev librsvg2-dev fonts-dejavu-core fonts-inter

.PHONY: key deps test-deps lint format cluster-test bench-cluster api-fuzz fuzz-targets fuzz-replay soak build release run test bench bench-engine bench-streams bench-handler bench-document bench-sizes bench-put bench-growth bench-store bench-text load fuzz clean

## System packages, installed only when missing.
deps:
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

## What the tests need beyond the toolchain: Debian's chromium, chromium-driver (the playground's
## browser test), prometheus (promtool), postgresql (the PostgreSQL store's tests start one), nginx (the
## cluster test runs Deploy/proxy/nginx.conf), curl, openssl (the TLS test's certificates), libxml2-utils (xmllint:
## `layoutd check`'s JUnit report against its schema); from PyPI the OpenAPI validator, schemathesis,
## websockets, pytest, selenium, uharfbuzz (the text oracle), pillow (decodes the PNG pictures) and openapi-python-client.
TEST_APT_PKGS := curl openssl unicode-data chromium chromium-driver prometheus postgresql nginx libxml2-utils
test-deps: deps
	@missing=""; for p in $(TEST_APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@python3 -c "import sys, importlib.metadata as m; pins = [l.split('==') for l in open('Tests/python-tools.txt') if '==' in l]; \
	  sys.exit(any(m.version(n) != v.strip() for n, v in pins))" 2>/dev/null || python3 -m pip install -q -r Tests/python-tools.txt

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS)

run: release
	.build/release/layoutd --host $(HOST) --port $(PORT)

test: test-deps
	$(SWIFT) build --build-tests
	python3 Tests/lint/check_conversions.py
	Tests/api/schemathesis.sh
	python3 Tests/store/test_store.py
	python3 Tests/store/test_postgres_store.py
	python3 Tests/cluster/test_cluster.py
	python3 Tests/http/test_slow_clients.py
	python3 Tests/http/test_configuration.py
	python3 Tests/http/test_auth.py
	python3 Tests/http/test_tls.py
	python3 Tests/http/test_protocol.py
	python3 Tests/http/test_isolation.py
	python3 Tests/http/test_sizes.py
	python3 Tests/http/test_render.py
	python3 Tests/check/test_check.py
	python3 Tests/http/test_put.py
	python3 Tests/deploy/test_manifests.py
	python3 Tests/browser/test_playground.py
	python3 Tests/text/test_text.py
	python3 Tests/regressions/replay.py
	python3 -m pytest -q clients/python/tests
	python3 Tests/api/test_generated_client.py
	$(MAKE) fuzz-replay
	python3 Tests/soak/soak.py --minutes 1 --interval 6 --check
	LAYOUTD_ENGINE=factored $(SWIFT) test --skip-build --filter 'LayoutModelTests|LayoutServerTests'
	$(SWIFT) test --skip-build

## A new API key, and the line for --auth-file's "keys" (only the key's SHA-256 is stored).
key:
	@python3 -c "import secrets, hashlib; k = 'lyd_' + secrets.token_urlsafe(32); print('key:  ' + k); print('line: \"sha256:' + hashlib.sha256(k.encode()).hexdigest() + '\"')"

## Three replicas on one PostgreSQL behind Deploy/proxy/nginx.conf: SIGKILL and SIGSTOP
## failover, fencing, hand-back (also part of `make test`).
cluster-test: test-deps
	$(SWIFT) build --product layoutd
	python3 Tests/cluster/test_cluster.py

## Set-constant throughput through the proxy with 1, 2, 3 replicas beside one reached directly
## (BENCHMARKS.md §9).
bench-cluster: release test-deps
	python3 Benchmarks/cluster/run_cluster.py

## The toolchain's formatter in lint mode (.swift-format: 4 spaces, 150 columns): fails on a
## finding; `make format` rewrites the tree.
lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Benchmarks Fuzz Package.swift
	python3 Tests/docs/check_standalone.py

format:
	$(SWIFT) format format --in-place --recursive --parallel Sources Tests Benchmarks Fuzz Package.swift

## Property-based tests from openapi.yaml against a running debug server (also part of `make test`).
api-fuzz: test-deps
	$(SWIFT) build --product layoutd
	Tests/api/schemathesis.sh

## Side-by-side engine benchmark against kiwi (see BENCHMARKS.md).
bench-engine: release
	@dpkg -s nlohmann-json3-dev >/dev/null 2>&1 || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq nlohmann-json3-dev)
	@mkdir -p $(WORKLOADS)
	python3 Benchmarks/engine/workloads.py --out $(WORKLOADS) >/dev/null
	python3 Benchmarks/engine/workloads.py --out $(WORKLOADS)/drag10k --only drag --drag-cells 10000 >/dev/null
	KIWI=$$(Benchmarks/kiwi/build.sh) && \
	for w in cells_n1000 drag_n1000 churn_n1000 grid_30x30 chain_n1000; do \
	  timeout 300 $$KIWI --reps 5 $(WORKLOADS)/$$w.json 2>/dev/null || echo '{"engine":"kiwi","workload":"'$$w'","stopped":"after 300 s"}'; \
	  .build/release/layoutd-bench --reps 5 $(WORKLOADS)/$$w.json 2>/dev/null; \
	done; \
	.build/release/layoutd-bench --reps 3 $(WORKLOADS)/cells_n10000.json $(WORKLOADS)/drag10k/drag_n10000.json 2>/dev/null

## Every size at once: k sizes in one request beside k one-shot layouts (BENCHMARKS §12).
bench-sizes: release
	python3 Benchmarks/document/sizes.py

## A document re-sent whole: PUT of the 1,000-cell feed edited (one constant, one cell inserted,
## every constant) beside the equivalent changes and a fresh build (BENCHMARKS §13). ROUNDS=6.
bench-put: release
	python3 Benchmarks/put/run_put.py

## HTTP load: layoutd set-constant round trips beside the bare libmicrohttpd server (wrk, loopback, bounded),
## then one tenant's set-constants while another floods (at its rate, past it, the heaviest requests).
load: release test-deps
	@command -v wrk >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq wrk)
	Benchmarks/http/run_load.sh
	python3 Benchmarks/http/tenant_isolation.py

## The set-constant middleware chain in-process (no socket): the Swift share of a request.
bench-handler: release
	for r in 1 2 3; do .build/release/layoutd-handler-bench 3; done

## Whole documents: POST /v1/layout and /v1/sessions over HTTP beside the engine alone, heap per view (BENCHMARKS.md).
bench-document: release
	python3 Benchmarks/document/run_document.py $(DOCUMENT_ARGS)

## Labels at scale: a 1,000-cell feed of wrapping labels created, re-wrapped, one text changed (BENCHMARKS.md §7).
## Each family of real layouts (self-sizing cells, stacks of every alignment and distribution,
## labels, ambiguous and conflicting documents) at 1k, 2k, 4k cells, 10k for some: time and
## heap per doubling, engine alone and one-shot (BENCHMARKS.md §10).
bench-growth: release
	python3 Benchmarks/growth/run_growth.py $(GROWTH_ARGS)

bench-text: release
	LAYOUTD_ENGINE=factored python3 Benchmarks/text/run_text.py
	LAYOUTD_ENGINE=solved python3 Benchmarks/text/run_text.py

## Session creation and restoring with the SQLite store beside the in-memory store (BENCHMARKS.md §5).
bench-store: release
	python3 Benchmarks/store/run_store.py $(STORE_ARGS)

## 64 concurrent drags over WebSocket streams, one 1,000-cell session each (loopback, bounded).
bench-streams: release
	Benchmarks/streams/run_streams.sh

## Mutation fuzzing against a running release server (loopback, bounded); fails on a crash or a 5xx.
fuzz: release
	store=$$(mktemp -d); .build/release/layoutd --port 8096 --log-level warning --store sqlite:$$store/sessions.sqlite & pid=$$!; sleep 1; \
	out=$$(timeout 300 python3 Benchmarks/fuzz/fuzz_server.py 8096); echo "$$out"; \
	kill -0 $$pid && kill -TERM $$pid && wait $$pid && ! echo "$$out" | grep -qE "[{ ]5[0-9][0-9]:|exc:"

## Coverage-guided fuzzing (libFuzzer, AddressSanitizer) of every parser: FUZZ_SECONDS each
## (FUZZ_TARGETS to choose); fails on any finding, kept in .build-fuzz/findings. FUZZING.md.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= json document changes put expr vfl websocket deflate gzip http ib text
FUZZER_LIB = $(firstword $(wildcard $(dir $(realpath $(shell command -v $(SWIFT))))../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a))
fuzz-targets: deps
	$(SWIFT) build -c release --build-path .build-fuzz --product layoutd-fuzz -Xswiftc -sanitize=address \
	  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp -Xswiftc -DFUZZING \
	  -Xlinker $(FUZZER_LIB) -Xlinker -lstdc++ 2>&1 | grep -v "Cannot export local symbol" || true
	@test -x .build-fuzz/release/layoutd-fuzz
	@mkdir -p .build-fuzz/findings; rm -f .build-fuzz/findings/*
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p .build-fuzz/corpus/$$t && cp -n Fuzz/Corpus/$$t/* .build-fuzz/corpus/$$t/; \
	  LSAN_OPTIONS=suppressions=Fuzz/lsan.supp LAYOUTD_FUZZ_TARGET=$$t .build-fuzz/release/layoutd-fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -rss_limit_mb=3072 -timeout=10 \
	    $$(test -f Fuzz/Dictionaries/$$t.dict && echo -dict=Fuzz/Dictionaries/$$t.dict) \
	    -artifact_prefix=.build-fuzz/findings/$$t- .build-fuzz/corpus/$$t > .build-fuzz/$$t.log 2>&1; \
	  echo "$$t: $$(grep -E '^#[0-9]+.*DONE' .build-fuzz/$$t.log | tail -1)"; \
	done
	@if ls .build-fuzz/findings/* >/dev/null 2>&1; then echo "findings:"; ls .build-fuzz/findings; exit 1; fi

## An hour of 256 WebSocket drags, HTTP changes and session churn on the release server:
## RSS, heap, descriptors and threads each minute (BENCHMARKS.md). SOAK_MINUTES to change.
SOAK_MINUTES ?= 60
soak: release
	LAYOUTD_BIN=.build/release/layoutd python3 Tests/soak/soak.py --minutes $(SOAK_MINUTES) --interval 60 --streams 256

## The seed corpora (Fuzz/Corpus) replayed through the fuzz targets' invariants, unsanitised.
fuzz-replay:
	$(SWIFT) build --product layoutd-fuzz
	for t in $(FUZZ_TARGETS); do .build/debug/layoutd-fuzz $$t Fuzz/Corpus/$$t || exit 1; done

bench: bench-engine bench-handler bench-document bench-text load bench-streams

clean:
	rm -rf .build
