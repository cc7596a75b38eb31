# Set-up and everyday commands. `make serve` and `make test` work on a fresh
# machine with only Python 3.11: they create .venv and install everything.
VENV := .venv
PY := $(VENV)/bin/python
PLUGINS := $(sort $(dir $(wildcard plugins/*/pyproject.toml)))
SERVING := $(VENV)/.serving
STAMP := $(VENV)/.installed

.PHONY: serve test typecheck conformance stubs check-stubs bench packages

# Editable installs in setuptools' compat mode (plain path entries, no import
# hooks): the gamehost namespace spans two distributions, and mypy follows
# path entries only. setuptools warns that the mode is transitional: that
# one warning is silenced, by its text.
PIP_INSTALL := PYTHONWARNINGS="ignore:Compat editable installs" $(PY) -m pip install -q \
	--config-settings editable_mode=compat

# What serving needs: the host, the client and the plugins, no test tools.
$(SERVING): pyproject.toml clients/python/pyproject.toml $(addsuffix pyproject.toml,$(PLUGINS))
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PIP_INSTALL) -e clients/python -e . $(addprefix -e ,$(PLUGINS))
	touch $(SERVING)

# Callisto's compiled placement search (plugins/callisto/native: Rust through
# PyO3, built by maturin with cargo), which gamehost-callisto uses when
# installed: legal moves some 13 times as fast, the bots' iterations 2 to 3.6
# times (bench/README.md). The first build downloads pyo3's 20 crates
# (measured: 30 s of CPU, 161 s on 2 cores at a load of 11 to 13); cargo keeps
# its build in the package's target/, so a change rebuilds only the crate.
# Without cargo the plugin plays with its Python search. cargo is looked for
# on PATH, then in rustup's default place (a shell that did not source ~/.cargo/env).
NATIVE := plugins/callisto/native
NATIVE_STAMP := $(VENV)/.native
$(NATIVE_STAMP): $(SERVING) $(addprefix $(NATIVE)/,pyproject.toml Cargo.toml Cargo.lock) $(wildcard $(NATIVE)/src/*.rs)
	export PATH="$$PATH:$$HOME/.cargo/bin"; \
	if command -v cargo >/dev/null; then $(PY) -m pip install -q ./$(NATIVE); \
	else echo "cargo not found: Callisto plays with its Python rules (for the compiled ones: install Rust, rm $@, make again)"; fi
	touch $@

serve: $(NATIVE_STAMP)

# Then the test extras (pytest, grpcio-tools, mypy, ...).
$(STAMP): $(SERVING) $(NATIVE_STAMP)
	$(PIP_INSTALL) -e '.[test]'
	touch $(STAMP)

serve: $(SERVING)
	$(VENV)/bin/gamehost serve $(ARGS)

# One pytest worker per core: the conformance runs are CPU-bound. The store
# and replica tests need PostgreSQL: scripts/test-postgres checks
# GAMEHOST_TEST_POSTGRES, or installs Debian's package when missing and starts
# it, and stops here if the URL cannot be used.
# The plugins' random-playout sweeps are most of the suite's time: `make test`
# plays a sample of them (GAMEHOST_CONFORMANCE_SHARE, each sweep's own seeds),
# `make conformance` plays every game of every sweep. All the sweeps together
# take some 8,900 CPU-seconds: a share of 0.15 is 1,340 s, about half of what
# two cores have in 20 minutes beside the 1,600 other tests (some 1,000 to
# 1,700 s); 0.1 is 890 s, and every configuration of every sweep still plays
# at least one batch. A sweep may weigh its sample down (Burgbaumeister plays
# half its share: its random games repeat the same few turns).
# --durations: every run, CI's too, says where its time went.
CONFORMANCE_SHARE ?= 0.1
# The sources are compiled to bytecode once, before the tests: where
# PYTHONDONTWRITEBYTECODE is set (CI's machines set it) Python writes no
# __pycache__, and every process the suite starts (some 140 test hosts, their
# rules workers, the CLI's runs) would compile the same 240-odd modules again:
# measured, a test host's start took 2.2-2.4 CPU-s, 1.4-1.5 CPU-s compiled.
test: $(STAMP)
	$(PY) -m compileall -q -j 0 core clients/python plugins tests examples bench > /dev/null
	@echo "--- PostgreSQL for the store and replica tests"
	url=$$(PYTHON=$(PY) scripts/test-postgres) && \
	PATH=$(abspath build/bin):$$PATH GAMEHOST_TEST_POSTGRES=$$url \
	GAMEHOST_CONFORMANCE_SHARE=$${GAMEHOST_CONFORMANCE_SHARE:-$(CONFORMANCE_SHARE)} \
		$(PY) -m pytest -n auto --dist worksteal --durations=25 $(ARGS)

# The SDK, the test kit, the host and the shipped plugins' packages under
# mypy (settings in pyproject.toml). MYPYPATH reads the host and the client
# from the source: the host ships no py.typed, being no library.
PLUGIN_PACKAGES := $(filter-out %.egg-info,$(notdir $(wildcard plugins/*/gamehost_*)))
typecheck: $(STAMP)
	MYPYPATH=core:clients/python $(VENV)/bin/mypy -p gamehost.sdk -p gamehost.testing -p gamehost.host \
		$(addprefix -p ,$(PLUGIN_PACKAGES))
test: typecheck

conformance: $(STAMP)
	GAMEHOST_CONFORMANCE_SHARE=1 $(PY) -m pytest -n auto --dist worksteal plugins -k conformance $(ARGS)

stubs: $(STAMP)
	PATH=$(abspath $(VENV))/bin:$$PATH scripts/generate-stubs

check-stubs: stubs
	@test -z "$$(git status --porcelain -- clients/)" || (git status --short -- clients/; git diff -- clients/ | head -50; \
		echo "generated stubs are stale or new: run 'make stubs' and commit" && exit 1)

bench: $(STAMP)
	$(PY) -m bench.moves

# Every Python distribution (host, client, plugins): sdist, then the wheel
# built from it, into build/dist; twine checks their metadata. Then the npm
# tarball of the TypeScript client (clients/ts), beside them.
# tests/test_packages.py runs it and installs the wheels in a fresh venv.
packages: $(STAMP)
	PY=$(PY) scripts/build-packages

# The TypeScript client package @gamehost/client (clients/ts): the generated
# stubs (make stubs runs its protoc-gen-es) and the match follower, compiled
# by tsc into clients/ts/dist. The web client depends on it (file:../ts).
TS := clients/ts
TS_MODULES := $(TS)/node_modules/.installed
TS_BUILT := $(TS)/dist/.built
TS_SOURCES := $(shell find $(TS)/src -type f) $(TS)/tsconfig.json

$(TS_MODULES): $(TS)/package.json $(TS)/package-lock.json
	cd $(TS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(TS_BUILT): $(TS_MODULES) $(TS_SOURCES)
	cd $(TS) && npm run --silent build
	touch $@

packages: $(TS_MODULES)

# The web client (clients/web): its npm packages, then a Vite build into
# dist/, which the host serves on its web port. Rebuilt when a source changes.
WEB := clients/web
WEB_MODULES := $(WEB)/node_modules/.installed
WEB_BUILT := $(WEB)/dist/.built
WEB_SOURCES := $(shell find $(WEB)/src $(WEB)/public -type f) $(addprefix $(WEB)/,index.html vite.config.ts tsconfig.json)
# The browser tests drive Debian's chromium: browsers cannot be downloaded here.
CHROMIUM := /usr/bin/chromium

.PHONY: web
web: $(WEB_BUILT)
serve: $(WEB_BUILT)
test: $(WEB_BUILT) $(CHROMIUM)
stubs: $(TS_MODULES)

$(WEB_MODULES): $(WEB)/package.json $(WEB)/package-lock.json
	cd $(WEB) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(WEB_BUILT): $(WEB_MODULES) $(WEB_SOURCES) $(TS_BUILT)
	cd $(WEB) && npm run --silent build
	touch $@

$(CHROMIUM):
	scripts/install-debian-packages chromium

# The Connect Node clients' packages (tests/test_browser_clients.py).
BROWSER_CLIENTS := tests/browser_clients/node_modules/.installed
$(BROWSER_CLIENTS): tests/browser_clients/package.json tests/browser_clients/package-lock.json
	npm ci --prefix tests/browser_clients --no-audit --no-fund --loglevel=error
	touch $@
test: $(BROWSER_CLIENTS)

# nginx: tests/test_deploy.py balances two hosts with deploy/nginx.conf.
NGINX := /usr/sbin/nginx
$(NGINX):
	scripts/install-debian-packages nginx-light

# grpcurl: the tests that drive the host as a generic gRPC tool would, built
# from the Go module proxy into build/bin (on the test command's PATH).
GRPCURL_VERSION := v1.9.3
GRPCURL := build/bin/grpcurl
$(GRPCURL):
	GOBIN=$(abspath build/bin) go install github.com/fullstorydev/grpcurl/cmd/grpcurl@$(GRPCURL_VERSION)
test: $(NGINX) $(GRPCURL)
