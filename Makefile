# Kappa, honestly: every target builds .venv first (requirements.txt + kappalib, editable).
# Two commands are all a newcomer needs:  make book   and   make test

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8000

.PHONY: help venv book test lint unit nbval serve bench clean

help:
	@echo "make book   build the strict HTML book into _build/html"
	@echo "make test   ruff + unit, property and doctest suites + nbval over book/"
	@echo "make serve  serve _build/html on http://127.0.0.1:$(PORT)"
	@echo "make bench  kappalib against scikit-learn, as ratios measured in one run"
	@echo "make clean  remove _build (keeps .venv)"

venv: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (kappa-honestly)" > /dev/null
	@touch $@

book: $(STAMP)
	$(BIN)/jupyter-book build . --builder html --all -n -W --keep-going
	@echo
	@echo "The book is at $(CURDIR)/_build/html/index.html  (or run: make serve)"

lint: $(STAMP)
	$(BIN)/ruff check kappalib tests bench book
	$(BIN)/ruff format --check kappalib tests bench

unit: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile tests kappalib

nbval: $(STAMP)
	@if ls book/*.ipynb > /dev/null 2>&1; then \
	  $(BIN)/python -m pytest -q -n 2 --dist loadfile --nbval --nbval-current-env \
	    --nbval-sanitize-with tests/nbval_sanitize.cfg book; \
	else echo "nbval: no notebooks in book/ yet"; fi

test: lint unit nbval
	@echo "make test: all checks passed"

serve:
	@test -f _build/html/index.html || { echo "No book yet: run make book first"; exit 1; }
	$(BIN)/python -m http.server $(PORT) --bind 127.0.0.1 --directory _build/html

bench: $(STAMP)
	$(BIN)/python bench/bench.py

clean:
	rm -rf _build
