# Kappa, honestly: every target builds .venv first (requirements.txt + kappalib, editable).
# Three commands are all a newcomer needs:  make book,  make test  and  make lab

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# uv (requirements-uv.txt) installs every environment's pinned list in seconds, where pip took
# about a minute each, most of it compiling every module to bytecode. uv compiles nothing;
# Python writes a module's bytecode the first time it is imported, as on a reader's machine.
# For that, PYTHONDONTWRITEBYTECODE (set on some CI machines, this one among them) is unset
# for every command make runs: with it, each process compiled all it imported, every time.
UV_STAMP := $(VENV)/.installed-uv
UV       := UV_NO_PROGRESS=1 $(BIN)/uv pip install --quiet
unexport PYTHONDONTWRITEBYTECODE
# The same for the environments the tests build with pip, as readers do (the README's pip
# route, Binder's, the wheel check's %pip and bare install, make dist): pip compiled every
# module of jupyterlab and the rest at install, about half of each install's time.
export PIP_NO_COMPILE := 1
PORT   ?= 8000
# The browser libraries the site serves itself (MathJax, require.js, the widget manager), from
# the npm packages pinned in tools/vendor/; installed here, copied into _build/html by
# tools/offline_assets.py during the build. Never committed.
VENDOR       := .site-vendor
VENDOR_STAMP := $(VENDOR)/.installed
# The browser check's Python packages (Playwright, pypdf), installed into .venv by check-site,
# pdf and unit (tests/test_site_tools.py), not by make book.
SITE_STAMP   := $(VENV)/.installed-site
ZIP          := _build/kappa-honestly-site.zip
# make pdf: the single-page build (its own output folder) and the PDF printed from it.
PDF_BUILD    := _build/pdf
PDF          := _build/kappa-honestly.pdf
# nbgrader (requirements-coursework.txt), installed into .venv by the coursework targets and
# by make test (its release check); make book never needs it. About 10 s from a warm cache.
CW_STAMP     := $(VENV)/.coursework-installed
STUDENT      := _build/student
# make assignments SEED=<n>: the problem sets with the setup of term <n> (coursework/variants.py);
# without SEED, the committed source notebooks'. The course directory is $(COURSE) (also the
# directory of make course and make grade, given on their command line).
SEED         ?=
COURSE       := _build/course
# make lab: a lean environment of its own, .venv-lab (requirements-lab.txt: what the chapters
# import, JupyterLab, and kappalib from this checkout), without the build and test toolchain of
# .venv. Its Python is the course kernel "kappa-honestly", the name every chapter asks for.
# LAB_ARGS passes options to `jupyter lab`.
LAB_VENV     := .venv-lab
LAB_STAMP    := $(LAB_VENV)/.installed
LAB_ARGS     ?=
# make book and make pdf: EXECUTE=force (the default, _config.yml) executes every chapter from
# a fresh kernel; EXECUTE=off builds from the committed executed notebooks (tools/book_config.py
# first checks that every chapter is committed executed, in order). .ci/run builds with off
# after make test, whose nbval step executed each chapter and compared it with those outputs.
EXECUTE      ?= force
BOOK_CONFIG  := $(if $(filter-out force,$(EXECUTE)),--config _build/config-$(EXECUTE)/_config.yml)
BOOK_PREPARE := $(if $(filter-out force,$(EXECUTE)),$(BIN)/python tools/book_config.py \
                  --execute $(EXECUTE) --out _build/config-$(EXECUTE)/_config.yml)
# Which tests run where is said by pytest markers, declared with their meaning in
# pyproject.toml and set in the test files; the targets below select with -m and keep no list.
#   make check      not slow and not full      (no fresh environments, no sweeps' long tails)
#   make unit       not full                   (make test's unit step: everything else)
#   make test-full  full                       (the random sweeps' long tails; CI runs it too)
#   make test-lib, make test-min   kappalib's own tests: not toolchain and not sandbox
LIB_TESTS    := not toolchain and not sandbox
# make check runs the type check when the Makefile has a typecheck target.
TYPECHECK    := $(shell grep -qE '^typecheck:' $(firstword $(MAKEFILE_LIST)) && echo typecheck)
# make load-test: busy loops that hold the cores while make test and make book run.
LOAD_JOBS    ?= 2

# One BLAS and OpenMP thread per process wherever chapters execute (their kernels inherit it).
# The chapters' matrices are small; OpenBLAS's and scikit-learn's OpenMP threads, one per core,
# wait for each other when another process holds a core. Chapter 12's cross-validation cell,
# with two busy loops on the 2 cores: 21 s with the default threads, 4 s with one.
NB_TARGETS := book pdf nbval unit fast test-full test-lib chapter-times load-test
$(NB_TARGETS): export OPENBLAS_NUM_THREADS := 1
$(NB_TARGETS): export OMP_NUM_THREADS := 1
$(NB_TARGETS): export MKL_NUM_THREADS := 1

# make dist: kappalib's sdist and wheel in $(DIST), checked by twine (requirements-dist.txt, in
# an environment of its own so that twine's dependencies never move the book's pins).
DIST         ?= dist
DIST_VENV    := .venv-dist
DIST_STAMP   := $(DIST_VENV)/.installed

.PHONY: help venv vendor book zip check-site pdf test lint unit nbval serve bench clean assignments autograde-demo
.PHONY: course grade
.PHONY: lab kernel publish-config check fast chapter-times load-test test-min typecheck dist
.PHONY: test-full test-lib

help:
	@echo "make book   build the strict HTML book into _build/html (works offline)"
	@echo "make zip    build the book and pack it into $(ZIP)"
	@echo "make check-site  open every page in headless Chromium, network off; screenshots"
	@echo "          (+ a 390 x 844 phone pass and an axe-core accessibility audit)"
	@echo "make pdf    print the whole book to $(PDF) with the same Chromium, and check it"
	@echo "make check  the fast loop: ruff, the type check, the unit tests without notebooks (< 1 min)"
	@echo "make chapter-times  execute each chapter and print a table of seconds per chapter"
	@echo "make load-test  make test and make book while $(LOAD_JOBS) busy loops hold the cores"
	@echo "make test   ruff + mypy + unit, property and doctest suites + the numpy-1.26 floor + nbval + the wheel check"
	@echo "make test-full  the random parity sweeps' long tails (marker full), pinned and on the floor (CI)"
	@echo "make test-lib   kappalib's own tests alone, in an environment without the book's toolchain"
	@echo "make test-min  kappalib's unit suite on the declared floor (numpy 1.26, matplotlib 3.8, ipywidgets 8)"
	@echo "make typecheck  mypy over kappalib and the typed user snippet"
	@echo "make lab    open the course in JupyterLab (book/, the course kernel)"
	@echo "make kernel register the course kernel for a Jupyter outside .venv (--user)"
	@echo "make dist   build kappalib's sdist and wheel into $(DIST) and check them with twine"
	@echo "make publish-config REPO=owner/name [BRANCH=main] [HUB=url]  point the course at its repo"
	@echo "make assignments  release the problem sets (nbgrader) + a student edition of the book"
	@echo "make autograde-demo  the sandboxed grading loop with simulated students and cheats; checks"
	@echo "make course COURSE=<dir> SEED=<n> STUDENTS=<csv> ASSIGNMENTS=<csv>  a course for a class"
	@echo "make grade COURSE=<dir> PS=<ps>  grade one set's submissions in the sandbox"
	@echo "make serve  serve _build/html on http://127.0.0.1:$(PORT)"
	@echo "make bench  kappalib against scikit-learn, as ratios measured in one run"
	@echo "make mutants  the mutation check: every semantic mutant must be killed"
	@echo "make clean  remove _build (keeps .venv and .site-vendor)"

venv: $(STAMP)

$(UV_STAMP): requirements-uv.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -r requirements-uv.txt
	@touch $@

# tools/jupyter_wakeup.py goes into .venv and .venv-lab: Jupyter's asyncio client can miss a
# socket wake-up on a busy machine and then sleep until the cell timeout (nbclient issue 312).
$(STAMP): $(UV_STAMP) requirements.txt requirements-oracles.txt pyproject.toml tools/jupyter_wakeup.py
	$(UV) --python $(BIN)/python -r requirements.txt
	$(UV) --python $(BIN)/python --no-deps --reinstall --target $(VENV)/oracles -r requirements-oracles.txt
	$(UV) --python $(BIN)/python --no-deps -e .
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (kappa-honestly)" > /dev/null
	$(BIN)/python -m ipykernel install --sys-prefix --name kappa-honestly --display-name "Python 3 (kappa-honestly)" > /dev/null
	$(BIN)/python tools/jupyter_wakeup.py --install $(BIN)/python > /dev/null
	@touch $@

$(VENDOR_STAMP): tools/vendor/package.json tools/vendor/package-lock.json
	@command -v npm > /dev/null || { echo "make book needs npm (Node.js) to install MathJax and the widget manager (tools/vendor/package.json)"; exit 1; }
	@mkdir -p $(VENDOR)
	cp tools/vendor/package.json tools/vendor/package-lock.json $(VENDOR)/
	cd $(VENDOR) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

# The browser libraries alone (.ci/run installs them before two builds that both need them).
vendor: $(VENDOR_STAMP)

book: $(STAMP) $(VENDOR_STAMP)
	$(BOOK_PREPARE)
	$(BIN)/jupyter-book build . --builder html --all -n -W --keep-going $(BOOK_CONFIG)
	@echo
	@echo "The book is at $(CURDIR)/_build/html/index.html  (or run: make serve)"

zip: book
	$(BIN)/python tools/zip_site.py _build/html $(ZIP)

$(SITE_STAMP): $(STAMP) requirements-site.txt
	$(UV) --python $(BIN)/python -r requirements-site.txt
	@touch $@

check-site: $(SITE_STAMP) $(VENDOR_STAMP)
	@test -f _build/html/index.html || { echo "No book yet: run make book first"; exit 1; }
	$(BIN)/python tools/check_site.py --site _build/html --screenshots _build/screenshots

# The single-page HTML book (strict, executed like make book, in its own folder; EXECUTE=off
# as for make book), printed by Chromium (tools/pdf.py: no TeX, nothing downloaded), then
# checked (tools/check_pdf.py).
pdf: $(SITE_STAMP) $(VENDOR_STAMP)
	rm -rf $(PDF_BUILD)
	$(BOOK_PREPARE)
	$(BIN)/jupyter-book build . --builder singlehtml --path-output $(PDF_BUILD) -n -W --keep-going \
	  $(BOOK_CONFIG)
	$(BIN)/python tools/pdf.py --site $(PDF_BUILD)/_build/singlehtml --out $(PDF)
	$(BIN)/python tools/check_pdf.py $(PDF) --site $(PDF_BUILD)/_build/singlehtml

$(CW_STAMP): $(STAMP) requirements-coursework.txt
	$(UV) --python $(BIN)/python -r requirements.txt -r requirements-coursework.txt
	$(BIN)/python -m pip check
	@touch $@

# nbgrader runs `alembic` from PATH, hence the PATH below. The leak check looks for every
# solution of every chapter and every reference answer in the student edition and the release.
assignments: $(CW_STAMP) $(VENDOR_STAMP)
	rm -rf $(COURSE) coursework/release
	$(BIN)/python coursework/variants.py --out $(COURSE) $(if $(SEED),--seed $(SEED))
	cd $(COURSE) && for ps in $$(ls source); do \
	  PATH="$(CURDIR)/$(BIN):$$PATH" ../../$(BIN)/nbgrader generate_assignment $$ps --force --log-level=WARN || exit 1; \
	done
	cp -r $(COURSE)/release coursework/release
	rm -rf $(STUDENT)
	$(BIN)/python coursework/student_edition.py $(STUDENT)/_config.yml
	$(BIN)/jupyter-book build . --builder html --all -n -W --keep-going \
	  --config $(STUDENT)/_config.yml --toc $(STUDENT)/_toc.yml --path-output $(STUDENT)
	$(BIN)/python coursework/leak_check.py --html $(STUDENT)/_build/html --release coursework/release
	@echo
	@echo "Problem sets for students:  $(CURDIR)/coursework/release/ ($$(ls coursework/release | xargs))"
	@echo "Student edition of the book (exercises, no solutions):  $(CURDIR)/$(STUDENT)/_build/html/index.html"

# The sandboxed loop with simulated honest students, copies and cheats (needs bubblewrap).
autograde-demo: $(CW_STAMP)
	$(BIN)/python coursework/autograde_demo.py --course _build/autograde-demo

# A course for a real class (book/for_instructors.md): make course COURSE=<dir> SEED=<n>
# STUDENTS=<csv> ASSIGNMENTS=<csv> (templates in coursework/templates/); again to update it.
STUDENTS    ?=
ASSIGNMENTS ?=
PS          ?=
JOBS        ?= 2
GRADE_ARGS  ?=
course: $(CW_STAMP)
	@test -n "$(SEED)" -a -n "$(STUDENTS)" -a -n "$(ASSIGNMENTS)" || { echo "usage: make course COURSE=<dir> SEED=<n> STUDENTS=<csv> ASSIGNMENTS=<csv> (templates: coursework/templates/)"; exit 2; }
	$(BIN)/python coursework/course.py --course "$(COURSE)" --seed "$(SEED)" --students "$(STUDENTS)" --assignments "$(ASSIGNMENTS)"

# Grades every submission of one set in the sandbox, then audits the set: make grade
# COURSE=<dir> PS=<ps> (GRADE_ARGS=--only id,id grades those students again;
# GRADE_ARGS=--UNSAFE-no-sandbox runs students' code unsandboxed: never on a real class).
# As an ordinary user on a cgroup v2 machine: systemd-run --user --scope -p Delegate=yes make grade
grade: $(CW_STAMP)
	@test -n "$(PS)" || { echo "usage: make grade COURSE=<dir> PS=<ps> [JOBS=2]"; exit 2; }
	$(BIN)/python coursework/grade.py --course "$(COURSE)" --ps "$(PS)" --jobs "$(JOBS)" $(GRADE_ARGS)

# The README's pip route for a machine without make is the same three steps, with pip
# (tests/test_lab.py runs that route too).
$(LAB_STAMP): $(UV_STAMP) requirements-lab.txt binder/requirements.txt pyproject.toml tools/jupyter_wakeup.py
	@test -x $(LAB_VENV)/bin/python || $(PYTHON) -m venv $(LAB_VENV)
	$(UV) --python $(LAB_VENV)/bin/python -r requirements-lab.txt -e .
	$(PYTHON) tools/jupyter_wakeup.py --install $(LAB_VENV)/bin/python > /dev/null
	$(LAB_VENV)/bin/python -m ipykernel install --sys-prefix --name kappa-honestly --display-name "Python 3 (kappa-honestly)" > /dev/null
	$(LAB_VENV)/bin/python -m pip check
	@touch $@

# JupyterLab on book/ with the course kernel (.venv-lab's "Python 3 (kappa-honestly)", which
# the chapters name); it prints the URL with its token. tests/test_lab.py runs this target. As
# root (a container, CI) Jupyter refuses to start without --allow-root.
lab: $(LAB_STAMP)
	$(LAB_VENV)/bin/jupyter lab --ServerApp.root_dir=book --ServerApp.ip=127.0.0.1 \
	  $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

# The same kernel for a Jupyter installed elsewhere (a system JupyterLab, VS Code): a user-level
# kernelspec "kappa-honestly" that runs .venv-lab's Python, so a system Jupyter opens every
# chapter on the course's environment.
kernel: $(LAB_STAMP)
	$(LAB_VENV)/bin/python -m ipykernel install --user --name kappa-honestly --display-name "Python 3 (kappa-honestly)"

$(DIST_STAMP): requirements-dist.txt requirements-uv.txt
	@test -x $(DIST_VENV)/bin/python || $(PYTHON) -m venv $(DIST_VENV)
	$(DIST_VENV)/bin/python -m pip install --quiet -r requirements-uv.txt
	UV_NO_PROGRESS=1 $(DIST_VENV)/bin/uv pip install --quiet --python $(DIST_VENV)/bin/python -r requirements-dist.txt
	@touch $@

# The sdist and the wheel that go to PyPI (kappalib's description is PACKAGE_README.md), and
# twine's check of their metadata and of how PyPI will render that description.
dist: $(DIST_STAMP)
	rm -rf $(DIST) build  # build/: setuptools' staging, stale files would enter the wheel
	$(DIST_VENV)/bin/python -m build --installer uv --sdist --wheel --outdir $(DIST) .
	$(DIST_VENV)/bin/twine check --strict $(DIST)/*

# Rewrites every placeholder of the repository URL (and the JupyterHub one) in the tracked
# tree, then fails if one is left. Standard library only: it needs no .venv.
publish-config:
	@test -n "$(REPO)" || { echo "usage: make publish-config REPO=owner/name [BRANCH=main] [HUB=https://hub.your.edu]"; exit 2; }
	$(PYTHON) tools/publish_config.py --repo "$(REPO)" $(if $(BRANCH),--branch "$(BRANCH)") $(if $(HUB),--hub "$(HUB)")

lint: $(STAMP)
	$(BIN)/ruff check kappalib tests bench tools book coursework
	$(BIN)/ruff format --check kappalib tests bench tools coursework/*.py

# tests/ includes the install path (test_install.py: the built wheel in fresh environments runs
# every chapter), make lab (test_lab.py) and publishing (test_publish.py: the placeholders, Binder).
# requirements-site.txt too (SITE_STAMP, seconds with uv): tests/test_site_tools.py checks
# check_pdf's image count with pypdf, which would otherwise be skipped here.
# The files with a slow test go first (tests/conftest.py), so that the longest start early.
unit: $(STAMP) $(CW_STAMP) $(LAB_STAMP) $(SITE_STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder -m "not full" tests kappalib

# The unit, property and doctest suites without the slow tests, the sweeps' long tails and nbval.
fast: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile -m "not slow and not full" tests kappalib

# kappalib's own tests (unit, property, parity, doctests), selected by marker, in an
# environment with kappalib and its extras, pytest, hypothesis and the oracles, and nothing of
# the book's toolchain (requirements-lib.txt, pinned by requirements.txt): the library can be
# tested, and released, apart from the course.  LEAN_PYTHON=<python> runs it in another one.
LEAN_VENV   := $(VENV)/lean
LEAN_STAMP  := $(LEAN_VENV)/.installed
LEAN_PYTHON ?= $(LEAN_VENV)/bin/python
$(LEAN_STAMP): $(UV_STAMP) requirements-lib.txt requirements.txt requirements-oracles.txt pyproject.toml
	rm -rf $(LEAN_VENV)
	$(PYTHON) -m venv $(LEAN_VENV)
	$(UV) --python $(LEAN_VENV)/bin/python -r requirements-lib.txt -c requirements.txt
	$(UV) --python $(LEAN_VENV)/bin/python --no-deps -r requirements-oracles.txt
	$(UV) --python $(LEAN_VENV)/bin/python --no-deps -e .
	@touch $@

test-lib: $(if $(filter $(LEAN_VENV)/bin/python,$(LEAN_PYTHON)),$(LEAN_STAMP))
	$(LEAN_PYTHON) -m pytest -q -n 2 --dist loadfile -m "$(LIB_TESTS) and not full" tests kappalib

# The contributor's loop, under a minute warm: ruff, the type check, the fast tests.
# make test stays the full gate (and what CI runs).
check: lint $(TYPECHECK) fast
	@echo "make check: passed (make test is the full gate: + nbval, the wheel, Lab, nbgrader)"

# nbval runs serially: parallel kernels that start at the same moment can race for TCP ports
# ("Kernel died before replying to kernel_info", seen once under load); serial costs ~20 s.
nbval: $(STAMP)
	@if ls book/*.ipynb > /dev/null 2>&1; then \
	  $(BIN)/python -m pytest -q -p no:xdist --nbval --nbval-current-env \
	    --nbval-sanitize-with tests/nbval_sanitize.cfg book coursework/source; \
	else echo "nbval: no notebooks in book/ yet"; fi

# Side by side, each pair's second output printed once both have finished: the type check
# (one process) beside the unit suite (92% of the two cores); test-min beside nbval, which
# executes one chapter at a time (about one core) while the floor's suite runs on two workers.
# The random sweeps' long tails are make test-full's (CI runs both).
test: lint
	@mkdir -p _build; \
	$(MAKE) --no-print-directory typecheck > _build/typecheck.log 2>&1 & mypy=$$!; \
	$(MAKE) --no-print-directory unit; unit=$$?; \
	wait $$mypy; typecheck=$$?; echo "== make typecheck (beside unit):"; cat _build/typecheck.log; \
	test $$unit -eq 0 -a $$typecheck -eq 0 || { echo "make test: failed (unit exit $$unit, typecheck exit $$typecheck)"; exit 1; }
	@mkdir -p _build; \
	$(MAKE) --no-print-directory test-min > _build/test-min.log 2>&1 & floor=$$!; \
	$(MAKE) --no-print-directory nbval; nbval=$$?; \
	wait $$floor; min=$$?; echo "== make test-min (beside nbval):"; cat _build/test-min.log; \
	test $$nbval -eq 0 -a $$min -eq 0 || { echo "make test: failed (nbval exit $$nbval, test-min exit $$min)"; exit 1; }
	@echo "make test: all checks passed"

# Each chapter executed from a fresh kernel, one after another: a table of seconds per chapter
# against its budget (15 s; 30 s for chapter 12). TIMES_ARGS passes options to
# tools/chapter_times.py: --repeat 3 (medians), --cells 5, --check, --loaded.
TIMES_ARGS ?=
chapter-times: $(STAMP)
	$(BIN)/python tools/chapter_times.py $(TIMES_ARGS)

# make test (nbval included) and make book (executing every chapter) while LOAD_JOBS busy
# loops hold the cores (a load of about 4 or more on 2 cores, with the targets' own
# processes): neither may depend on the neighbours' load. The loops are this recipe's
# children, killed by their PIDs at the end. Then the chapter times at that load (--loaded:
# fails above 60 s). Twenty minutes or more.
load-test: $(STAMP) $(VENDOR_STAMP)
	@pids=""; for i in $$(seq $(LOAD_JOBS)); do \
	  ( while :; do :; done ) & pids="$$pids $$!"; \
	done; trap 'kill $$pids 2> /dev/null' EXIT INT TERM; \
	echo "load-test: $(LOAD_JOBS) busy loops (PIDs$$pids), load average $$(cut -d' ' -f1 /proc/loadavg)"; \
	start=$$(date +%s); \
	$(MAKE) --no-print-directory test || exit 1; \
	tested=$$(($$(date +%s) - start)); \
	$(MAKE) --no-print-directory book EXECUTE=force || exit 1; \
	book=$$(($$(date +%s) - start - tested)); \
	$(BIN)/python tools/chapter_times.py --check --loaded || exit 1; \
	echo "load-test: passed: make test $${tested} s, make book $${book} s, at load average $$(cut -d' ' -f1 /proc/loadavg)"
# mypy (pinned in requirements.txt) over kappalib: it must be clean.  tests/test_typing.py
# also runs it on a user's script (kl.kappa on a matrix is float | None).
typecheck: $(STAMP)
	$(BIN)/python -m mypy kappalib

# The minimum-versions job: the declared floor of every runtime dependency (pyproject.toml)
# with the oracles that install beside numpy 1.26 (requirements-min.txt), in a venv of its
# own under .venv/ (made once, then reused while requirements-min.txt is unchanged), running
# kappalib's unit and doctest suites from the source tree; not the notebooks, whose stored
# outputs belong to the pinned environment.  About 1.5 min to install once; a warm run takes
# 40-100 s on a shared 2-core machine, so it is part of make test.
MIN_VENV  := $(VENV)/floor
MIN_STAMP := $(MIN_VENV)/.installed
# kappalib's own tests only (LIB_TESTS): the course's toolchain, which it has not, is left out
# by marker, as are the sweeps' long tails (make test-full runs them here too).
$(MIN_STAMP): $(UV_STAMP) requirements-min.txt
	rm -rf $(MIN_VENV)
	$(PYTHON) -m venv $(MIN_VENV)
	$(UV) --python $(MIN_VENV)/bin/python -r requirements-min.txt
	@touch $@

test-min: $(MIN_STAMP)
	$(MIN_VENV)/bin/python -c "import numpy, matplotlib, ipywidgets; print('floor: numpy', numpy.__version__, 'matplotlib', matplotlib.__version__, 'ipywidgets', ipywidgets.__version__)"
	$(MIN_VENV)/bin/python -m pytest -q -n 2 --dist loadfile -m "$(LIB_TESTS) and not full" tests kappalib

# The random parity sweeps' long tails (tests/sweeps.py: make unit runs each sweep's first
# cases, every edge case among them): with make test, every case of every sweep, each once, in
# the pinned environment and on the floor, as make test ran them before they were split.
test-full: $(STAMP) $(MIN_STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile -m full tests
	$(MIN_VENV)/bin/python -m pytest -q -n 2 --dist loadfile -rs -m "full and $(LIB_TESTS)" tests

# The mutation check: a semantic mutant of every public function, applied at run time by a
# pytest plugin (tests/mutants.py); the unit tests must kill each one.  A few minutes.
.PHONY: mutants
mutants: $(STAMP)
	$(BIN)/python tests/mutants.py

serve:
	@test -f _build/html/index.html || { echo "No book yet: run make book first"; exit 1; }
	$(BIN)/python -m http.server $(PORT) --bind 127.0.0.1 --directory _build/html

# Every bench/bench*.py, one after another (each prints its own ratios and targets); all of
# them run, and make bench fails at the end if any missed a target.
bench: $(STAMP)
	@status=0; for f in bench/bench*.py; do echo "== $$f"; $(BIN)/python $$f || status=1; done; exit $$status

clean:
	rm -rf _build

# make conformance: re-run every oracle of the public conformance table (conformance/: R's
# irr, psych, epiR, vcd and stats; irrCAC, statsmodels, scikit-learn, pingouin, krippendorff;
# exact fractions), show how the fresh values drift from the committed ones (exit 1 on drift
# or on a disagreement that conformance/scripts/verdicts.py does not explain), then print
# kappalib's largest difference per coefficient and oracle (tests/test_conformance.py).
# The R side needs Rscript with irr, psych, epiR, vcd and jsonlite (conformance/README.md
# says how to install them); where they are missing, the committed R values are carried over
# and the run says so.  DESCTOOLS_SRC=<DescTools' R/Tests.r> re-runs DescTools'
# StuartMaxwellTest.  CONFORMANCE_ARGS=--write rewrites the committed table.  Not part of
# make test: the unit suite reads the committed values and needs no R.
CONFORMANCE_ARGS ?=
DESCTOOLS_SRC    ?=
.PHONY: conformance
conformance: $(STAMP)
	@TZ=UTC $(BIN)/python conformance/scripts/build.py $(if $(DESCTOOLS_SRC),--desctools $(DESCTOOLS_SRC)) \
	  $(CONFORMANCE_ARGS); status=$$?; echo; $(BIN)/python tests/test_conformance.py; exit $$status
