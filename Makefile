# weburl-nb: the everyday commands. `make test` is the project's test command.
SHELL := /bin/bash
PY ?= python
TESTDATA ?= $(or $(WEBURL_TESTDATA),../shared/testdata/tests-web-url)
export WEBURL_TESTDATA := $(TESTDATA)
BENCHDATA ?= $(or $(WEBURL_BENCHDATA),../shared/bench)

.PHONY: help export outputs readme test pytest nbtest check-sync conformance site site-test bench bench-record

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

export:  ## regenerate weburl_nb/ from nbs/ and clean the notebooks
	nbdev_export
	nbdev_clean

outputs:  ## re-run the notebooks in place so their stored example outputs match the code
	for nb in nbs/index.ipynb nbs/[0-9]*.ipynb; do jupyter nbconvert --to notebook --execute --inplace "$$nb" || exit 1; done
	nbdev_clean

readme:  ## regenerate README.md from nbs/index.ipynb
	$(PY) tools/readme.py

test: pytest nbtest check-sync  ## everything: conformance + unit tests, notebook examples, generated files in sync

pytest:  ## the pytest suite (conformance cases, API and CLI tests)
	$(PY) -m pytest -q tests --ignore=tests/site

nbtest:  ## run every notebook's examples
	nbdev_test --n_workers 2

conformance:  ## agreement with the data per mode (THIS, chrome, gecko, ie) and data file: the quoted figures
	$(PY) tests/conformance.py --all

check-sync:  ## weburl_nb/ and README.md equal what nbs/ generates; notebooks are clean
	$(PY) tools/check_sync.py

site:  ## render the site from the notebooks into _docs/ (offline: Sphinx + MyST-NB), with the conformance page
	$(PY) tools/site/build.py

site-test:  ## the browser test of the built site (headless Chromium; run `make site` first)
	$(PY) -m pytest -q tests/site

bench:  ## the benchmark against urllib.parse and the peers (pip install -e .[bench]); writes bench-results/latest.json
	$(PY) bench/run.py --data $(BENCHDATA)

bench-record:  ## keep the latest benchmark run as the one the site shows by default (bench/recorded.json)
	cp bench-results/latest.json bench/recorded.json
