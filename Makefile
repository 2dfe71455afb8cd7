# weburl-nb: the everyday commands. `make test` is the project's test command.
# Quick start (no activated environment needed): `make run URL=...` and `make test` create the
# project's virtual environment `.venv` with `python3 -m venv` when it is missing, install into it
# (again only when setup.py or settings.ini changed), and run from it.
SHELL := /bin/bash
VENV ?= .venv
# The Python that runs the targets: the project's environment if it exists, else `python3`
# (an activated environment's python3 comes first on PATH). Re-evaluated at each use.
PY ?= $(shell test -x $(VENV)/bin/python && echo $(VENV)/bin/python || echo python3)
# A console script of that environment (nbdev_test, nbdev_export, ...), else from PATH.
tool = $(shell test -x $(VENV)/bin/$(1) && echo $(VENV)/bin/$(1) || echo $(1))
# What the test command installs: the dev tools and everything the test suite imports.
TEST_EXTRAS ?= dev
TESTDATA ?= $(or $(WEBURL_TESTDATA),../shared/testdata/tests-web-url)
export WEBURL_TESTDATA := $(TESTDATA)
BENCHDATA ?= $(or $(WEBURL_BENCHDATA),../shared/bench)
FUZZ_SECONDS ?= 600

.PHONY: compiled test-compiled planted-fault bench-builds help install dev lab run proofs coverage fuzz fuzz-smoke export outputs outputs-check readme test pytest nbtest check-sync lint conformance test-matrix test-wheel site site-test serve bench bench-record bench-scale bench-scale-record

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(VENV)/bin/python:
	python3 -m venv $(VENV)

$(VENV)/.installed: setup.py settings.ini pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-$(TEST_EXTRAS): setup.py settings.ini pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -q -e '.[$(TEST_EXTRAS)]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed  ## create .venv if needed and install the package and its `weburl` command into it

dev: $(VENV)/.installed-$(TEST_EXTRAS) $(VENV)/etc/ipython/ipython_kernel_config.py $(VENV)/etc/jupyter/jupyter_server_config.py  ## create .venv if needed and install the package with the dev tools and test dependencies; Jupyter's save hook and autoreload

# Jupyter from this .venv (however it is started): saving a notebook cleans it as `nbdev_clean`
# does (nbdev's save hook, switched on by `jupyter_hooks` in settings.ini), and every kernel loads
# autoreload, so that after `make export` the other notebooks run the new code without a restart.
$(VENV)/etc/ipython/ipython_kernel_config.py: tools/jupyter/ipython_kernel_config.py | $(VENV)/bin/python
	mkdir -p $(@D) && cp $< $@

$(VENV)/etc/jupyter/jupyter_server_config.py: tools/jupyter/jupyter_server_config.py | $(VENV)/bin/python
	mkdir -p $(@D) && cp $< $@

LAB_PORT ?= 8888
# As root (a container) Jupyter refuses to start without --allow-root.
ALLOW_ROOT = $(if $(filter 0,$(shell id -u)),--allow-root)
lab: dev  ## Jupyter Lab on nbs/ at http://127.0.0.1:$(LAB_PORT)/ (open the URL with the token it prints)
	$(call tool,jupyter) lab --no-browser $(ALLOW_ROOT) --ServerApp.root_dir=nbs --ServerApp.ip=127.0.0.1 --ServerApp.port=$(LAB_PORT)

run: install  ## canonicalize URL=... (or each line of standard input) with .venv's `weburl`
	$(VENV)/bin/weburl $${URL:+"$$URL"}

export:  ## regenerate weburl_nb/ from nbs/ and clean the notebooks
	$(call tool,nbdev_export)
	$(call tool,nbdev_clean)

outputs:  ## re-run the notebooks in place (NB=14_trace: one) so their stored outputs match the code; twice gives the same files
	$(PY) tools/outputs.py $(NB)
	$(call tool,nbdev_clean)

# CI's check that the stored outputs are what the code prints: from a clean checkout, `make outputs`
# must leave it clean (`git status --porcelain` empty); what it changed is shown.
outputs-check:  ## `make outputs` on a clean checkout leaves it clean: the stored outputs are reproducible (CI)
	@if [ -n "$$(git status --porcelain)" ]; then echo "outputs-check: commit or stash these first:"; git status --porcelain; exit 1; fi
	$(MAKE) --no-print-directory outputs
	@if [ -n "$$(git status --porcelain)" ]; then echo "outputs-check: make outputs changed these:"; \
	    git status --porcelain; git --no-pager diff --stat; git --no-pager diff | head -200; exit 1; fi

readme:  ## regenerate README.md from nbs/index.ipynb
	$(PY) tools/readme.py

# The stages of `make test`, cheapest first, each stopping the run when it fails: generated files in
# sync (seconds), lint, the notebooks' examples (changed notebooks first), pytest, the planted faults of
# `make proofs`, and fuzzing last.
TEST_STAGES = check-sync lint nbtest pytest proofs fuzz-smoke

test: dev  ## install the dev tools (into .venv), then everything: generated files in sync, lint, notebook examples, conformance + unit tests, fuzzing
	@for stage in $(TEST_STAGES); do $(MAKE) --no-print-directory $$stage || exit 1; done
	@cat .pytest_cache/conformance.txt 2>/dev/null || true

pytest:  ## the pytest suite (conformance cases, API and CLI tests)
	@rm -f .pytest_cache/conformance.txt
	$(PY) -m pytest -q tests --ignore=tests/site

$(VENV)/.installed-fuzz: setup.py settings.ini pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -q -e '.[fuzz]' || echo "atheris could not be installed: fuzzing falls back to plain mutation"
	touch $@

proofs:  ## every route function a piece or a part (tools/route_census.py); a fault planted in each in turn: its pairing test and the route turn red (`caught N of N; through the route N of N`)
	WEBURL_BENCHDATA=$(BENCHDATA) $(PY) tools/route_census.py
	$(PY) tools/plant_faults.py $(PROOFS_ARGS)

coverage:  ## the pairing tests under coverage.py: `engine branches covered: X% (N of M)`; fails below 98% or on an uncovered branch its Checked does not name
	$(PY) tools/engine_coverage.py

fuzz-smoke: $(VENV)/.installed-fuzz  ## 20 s of fuzzing (part of `make test`; atheris if installed, else plain mutation)
	WEBURL_BENCHDATA=$(BENCHDATA) $(PY) tools/fuzz.py --smoke

fuzz: $(VENV)/.installed-fuzz  ## coverage-guided fuzzing for FUZZ_SECONDS (default 600): no exception, fixed points, shortcut = steps
	WEBURL_BENCHDATA=$(BENCHDATA) $(PY) tools/fuzz.py --seconds $(FUZZ_SECONDS)

nbtest:  ## one notebook's examples (NB=06_canonicalization), else every notebook's: changed ones first, stopping at the first failure
	$(PY) tools/nbtest.py $(NB)

conformance:  ## agreement with the data per mode (THIS, chrome, gecko, ie) and data file: the quoted figures
	$(PY) tests/conformance.py --all

# Spark starts its Python workers with $$PYSPARK_PYTHON, else `python3` from PATH: here the targets' own.
test-spark:  ## the Spark tests (local[2]) and 12a_frames' Spark cells; a missing Java or PySpark fails (pip install -e '.[spark]'; Java: apt-get install default-jre-headless)
	export PYSPARK_PYTHON="$$($(PY) -c 'import sys; print(sys.executable)')" && \
	WEBURL_TEST_SPARK=1 $(PY) -m pytest -q -rs tests/test_spark.py && \
	$(call tool,nbdev_test) --path nbs/12a_frames.ipynb --flags spark

test-matrix:  ## the pytest suite under every CPython >= min_python found here (one venv each, in .matrix/), and the conformance cases under Pyodide in node; a table of the results
	$(PY) tools/matrix.py $(MATRIX_ARGS)

test-wheel:  ## build the wheel, install it into a fresh venv outside the checkout, and run the smoke test there (WHEEL_ARGS='--python PATH' picks the interpreter)
	$(PY) tools/wheel_smoke.py $(WHEEL_ARGS)

# The compiled build (setup.py, `WEBURL_NB_COMPILE=1`): the modules of settings.ini's `mypyc_modules`
# compiled with mypyc, in a fresh venv outside the checkout, named by a hash of the source (an
# unchanged source is compiled once and reused). `tools/compiled.py build` prints that venv's python.
COMPILED_PY = $(shell $(PY) tools/compiled.py build)

compiled:  ## the README's `WEBURL_NB_COMPILE=1 pip install .` in a fresh venv outside the checkout (nothing else installed), a smoke test, then every module meant to be compiled checked to be a shared library
	$(PY) tools/compiled.py check

test-compiled:  ## the compiled build: its modules checked, the pytest suite against it, and the differential against the pure package (0 differences)
	$(PY) tools/compiled.py all
	WEBURL_BENCHDATA=$(BENCHDATA) $(PY) tools/differential.py $(COMPILED_PY)

planted-fault:  ## a fault planted in a compiled module (one step changed, built from a copy): the differential and the pairing test catch it
	WEBURL_BENCHDATA=$(BENCHDATA) $(PY) tools/planted_fault.py

bench-builds:  ## the pure and the compiled build side by side (alternating processes), each against ada_url and can_ada; writes bench-results/builds.json
	$(PY) bench/builds.py --data $(BENCHDATA) --pure $(shell $(PY) tools/compiled.py build --pure) $(COMPILED_PY)

check-sync:  ## weburl_nb/ and README.md equal what nbs/ generates; notebooks are clean
	$(PY) tools/check_sync.py

lint:  ## ruff and mypy on the generated package (configured in pyproject.toml): zero findings; fix them in the notebooks
	$(call tool,ruff) check weburl_nb
	$(call tool,mypy)

site:  ## render the site from the notebooks into _docs/ (offline: Sphinx + MyST-NB), with the conformance page
	$(PY) tools/site/build.py

site-test:  ## the browser test of the built site (headless Chromium; run `make site` first)
	$(PY) -m pytest -q tests/site

PORT ?= 8000
serve:  ## serve the built site on http://127.0.0.1:$(PORT)/ (the way to read it: try.html needs HTTP)
	@echo "Serving _docs/ on http://127.0.0.1:$(PORT)/ (Ctrl-C stops)"
	$(PY) -m http.server $(PORT) --bind 127.0.0.1 --directory _docs

bench:  ## the benchmark against urllib.parse and the peers (pip install -e .[bench]), the pure and the compiled build side by side; writes bench-results/latest.json
	$(PY) bench/run.py --data $(BENCHDATA)

bench-record:  ## keep the latest benchmark run as the one the site shows by default (bench/recorded.json)
	cp bench-results/latest.json bench/recorded.json

bench-scale:  ## the command's relay (its serial turns' share of a worker's cost per line, -j 1 vs -j 2), Dask and Spark, 1 vs 2 workers, over 1,000,000 lines or links (needs the scale and spark extras: pip install -e '.[scale,spark]', and Java: apt-get install default-jre-headless; a missing engine is skipped); writes bench-results/at_scale.json
	$(PY) bench/at_scale.py --data $(BENCHDATA)

bench-scale-record:  ## keep the latest at-scale run as the one the site shows (bench/recorded_at_scale.json)
	cp bench-results/at_scale.json bench/recorded_at_scale.json
