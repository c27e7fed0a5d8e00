# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
DB ?= ./intrigue.db
# `make soak`: ten minutes of play with kill -9 every few seconds, at least 100 kills (not in CI);
# SOAK_SECONDS=60 for one minute (at least 10 kills); SOAK_KILLS sets the floor.
SOAK_SECONDS ?= 600
SOAK_ROOMS ?= 40

CLUSTER_DIR ?= .cluster
CLUSTER_PORT ?= 8080

.PHONY: run test chromium services cluster cluster-stop bench soak clean

# `make run` installs Intrigue alone; the tests' extras (Playwright, PettingZoo, OpenSpiel, psycopg,
# redis, ...) come with `make test`, `make cluster` or `make bench`.
$(BIN)/intrigue: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.extras: $(BIN)/intrigue
	$(BIN)/python -m pip install --quiet -e '.[test,env,cluster]'
	@touch $@

run: $(BIN)/intrigue
	$(BIN)/intrigue serve --host $(HOST) --port $(PORT) --db $(DB)

# Debian's Chromium for the browser tests (Playwright's own download does not work here).
chromium:
	@command -v chromium >/dev/null 2>&1 || test -x /usr/bin/chromium || { \
	  echo "installing Debian's chromium"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# PostgreSQL, Redis and HAProxy from Debian's packages (cluster mode and its tests); no system service is started.
services:
	@test -n "$$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null)" && command -v redis-server >/dev/null 2>&1 && \
	  { command -v haproxy >/dev/null 2>&1 || test -x /usr/sbin/haproxy; } || { \
	  echo "installing Debian's postgresql, redis-server and haproxy"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql redis-server haproxy >/dev/null; }

test: $(VENV)/.extras chromium
	@$(MAKE) --no-print-directory services || echo "warning: PostgreSQL, Redis or HAProxy could not be installed: the cluster tests will skip"
	$(BIN)/python -m pytest -q -p no:cacheprovider

# Three nodes on PostgreSQL and Redis behind HAProxy, all on 127.0.0.1 (data and logs in $(CLUSTER_DIR)).
cluster: $(VENV)/.extras services
	$(BIN)/intrigue cluster up --dir $(CLUSTER_DIR) --port $(CLUSTER_PORT)

cluster-stop: $(VENV)/.extras
	$(BIN)/intrigue cluster down --dir $(CLUSTER_DIR)

bench: $(VENV)/.extras
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run.py

soak: $(VENV)/.extras
	nice -n 10 $(BIN)/python -m tests.server.soak --seconds $(SOAK_SECONDS) --rooms $(SOAK_ROOMS)

clean:
	rm -rf $(VENV) build dist src/*.egg-info
