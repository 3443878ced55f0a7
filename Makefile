# The two commands in the README: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench screenshot-deps clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/mcp-catalog-inspector $(ARGS)

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/bench_walk.py $(BENCH_ARGS)
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/bench_tree.py
	$(PY) tests/benchmarks/bench_diff.py
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/bench_drift_ui.py

# For running the window on a virtual display (xvfb-run) on Debian.
screenshot-deps:
	apt-get update -q && apt-get install -y -q xvfb libxcb-icccm4 libxcb-keysyms1 imagemagick x11-apps

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist app/*.egg-info
