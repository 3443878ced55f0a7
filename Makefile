# The two commands in the README: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench mutation screenshot-deps clean bundle conformance

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/mcp-catalog-inspector $(ARGS)

# One worker per core and one more (pytest-xdist), each with its own Qt app, zygote and ports: about a third
# of a worker's time is spent waiting on its servers and deadlines. Two more per core let timed fault
# cases miss their limits on a 2-core machine. Idle workers steal queued tests. WORKERS=0 runs in-process.
WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
# Byte code is written even where the environment says not to (as this machine's image does): every server and
# CLI a test starts as a real process would otherwise compile the package again (4:19 → 3:49 here).
test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= QT_QPA_PLATFORM=offscreen $(PY) -m pytest -n $(WORKERS) $(if $(filter 0,$(WORKERS)),,--dist worksteal) $(PYTEST_ARGS)

# The official MCP Inspector (its CLI) and Node 22, from npm into .bench/ the first time, for the comparison.
BENCH_DIR := .bench
INSPECTOR_VERSION := 2.12.0

$(BENCH_DIR)/.installed-$(INSPECTOR_VERSION):
	npm install --prefix $(BENCH_DIR) --no-audit --no-fund node@22 @modelcontextprotocol/inspector@$(INSPECTOR_VERSION)
	touch $@

bench: $(STAMP) $(BENCH_DIR)/.installed-$(INSPECTOR_VERSION)
	BENCH_DIR=$(CURDIR)/$(BENCH_DIR) $(PY) tests/benchmarks/bench_inspector.py
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/bench_walk.py $(BENCH_ARGS)
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/bench_tree.py
	$(PY) tests/benchmarks/bench_diff.py
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/bench_drift_ui.py
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/bench_startup.py
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/bench_quit.py
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/bench_input_panel.py
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/bench_server_log.py
	PYTHONPATH=$(CURDIR) $(PY) tests/benchmarks/bench_fleet.py

# Mutation testing (mutmut 3) of the enumerator, the error classifier, the diff engine and its severity
# rules, against the fast core tests chosen in pyproject.toml's [tool.mutmut]; prints the score per module
# and the survivors. mutmut only knows src/ layouts, so it runs in $(MUTATION_DIR)/ where src links to app/.
# Every run starts afresh (mutmut's cache misses changes to modules it does not mutate); one worker, niced.
# MUTANTS='catalog_inspector.core.drift.diff.*' narrows a run; `cd .mutation && ../.venv/bin/mutmut show NAME`.
MUTATION_DIR := .mutation
MUTMUT := $(CURDIR)/$(VENV)/bin/mutmut
MUTANTS ?=

$(VENV)/.installed-mutation: $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,mutation]'
	touch $@

mutation: $(VENV)/.installed-mutation
	rm -rf $(MUTATION_DIR)
	mkdir -p $(MUTATION_DIR)
	ln -s ../app $(MUTATION_DIR)/src
	ln -s ../tests $(MUTATION_DIR)/tests
	ln -s ../pyproject.toml $(MUTATION_DIR)/pyproject.toml
	cd $(MUTATION_DIR) && QT_QPA_PLATFORM=offscreen nice -n 15 $(MUTMUT) run --max-children 1 $(MUTANTS)
	cd $(MUTATION_DIR) && $(MUTMUT) results --all true > results.txt
	@echo "Mutation score (killed or timed out / mutants tested), per module:"
	@awk -F': ' '{ m = $$1; sub(/^ +/, "", m); sub(/\.[^.]*$$/, "", m); n[m]++; s[m, $$2]++ } \
		END { for (m in n) { t = n[m] - s[m, "not checked"]; k = s[m, "killed"] + s[m, "timeout"]; if (t) \
			printf "  %-34s %4d/%-4d %5.1f %%  (survived %d, no tests %d)\n", m, k, t, 100 * k / t, \
				s[m, "survived"], s[m, "no tests"] } }' $(MUTATION_DIR)/results.txt | sort
	@echo "Not killed:"
	@grep -v -E ': (killed|timeout|not checked)$$' $(MUTATION_DIR)/results.txt || echo "  none"

# `make conformance`: the MCP conformance suite's client scenarios (auth/*, calls, headers, schemas) against the CLI.
# npm installs Node 22 and the suite into .conformance/ the first time (network needed once); not in `make test`.
# 0.1.16 (npm "latest") fails auth/2025-03-26-oauth-metadata-backcompat against SDK 2.3. SCENARIOS='…' narrows.
CONF_DIR := .conformance
CONF_VERSION := 0.2.0-alpha.12

$(CONF_DIR)/.installed-$(CONF_VERSION):
	npm install --prefix $(CONF_DIR) --no-audit --no-fund node@22 @modelcontextprotocol/conformance@$(CONF_VERSION)
	touch $@

conformance: $(STAMP) $(CONF_DIR)/.installed-$(CONF_VERSION)
	CONF_DIR=$(CURDIR)/$(CONF_DIR) tests/conformance/run_auth.sh $(SCENARIOS)

# For running the window on a virtual display (xvfb-run) on Debian.
screenshot-deps:
	apt-get update -q && apt-get install -y -q xvfb libxcb-icccm4 libxcb-keysyms1 imagemagick x11-apps

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist app/*.egg-info $(MUTATION_DIR) mutants $(BENCH_DIR)

# The Linux desktop bundle: a PyInstaller one-folder app and dist/mcp-catalog-inspector-VERSION-linux-ARCH.tar.gz
# with install.sh/uninstall.sh (its own build venv under build/; see packaging/README.md).
# packaging/check_linux_bundle.sh then installs it into a throwaway home and proves it works.
bundle:
	packaging/build_linux.sh
