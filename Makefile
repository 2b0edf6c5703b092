# EARL: `make demo` and `make test` are all a newcomer needs (both run `setup` first).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
JOBS   ?= 2

.PHONY: setup build demo test test-cpp test-python bench clean

# System packages: libotf2 (OTF2 traces) where it is missing and apt can install it.
$(VENV)/.system:
	@mkdir -p $(VENV)
	@if pkg-config --exists otf2 2>/dev/null || command -v otf2-config >/dev/null 2>&1 || [ -n "$$OTF2_ROOT" ]; then \
	    echo "OTF2 found"; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "installing OTF2 (libopen-trace-format2-dev) with apt-get"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libopen-trace-format2-dev pkg-config >/dev/null; \
	else \
	    echo "OTF2 not found and apt-get unavailable: EARL builds without OTF2 (install libotf2 or set OTF2_ROOT)"; \
	fi
	@touch $@

$(VENV)/.deps: pyproject.toml $(VENV)/.system
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet "scikit-build-core>=0.10" "pybind11>=2.12" "numpy>=1.22" "rich>=12" \
	    "pytest>=7" "hypothesis>=6" "matplotlib>=3.5" "otf2>=3"
	touch $@

# Incremental: the CMake build directory persists in build/, so only changed sources compile.
# flock keeps parallel builds (several shells, CI) from writing the same tree at once.
build: $(VENV)/.deps
	@mkdir -p build
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) flock build/.lock $(PIP) install --quiet --no-build-isolation --no-deps -e .

setup: build

demo: setup
	$(VENV)/bin/earl demo

test-cpp: $(VENV)/.deps
	cmake -S . -B build/cpp-tests -DEARL_BUILD_PYTHON=OFF -DEARL_BUILD_CPP_TESTS=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build build/cpp-tests -j $(JOBS)
	ctest --test-dir build/cpp-tests --output-on-failure

test-python: setup
	$(PY) -m pytest -q

test: test-cpp test-python

bench: setup
	$(PY) bench/run_benchmarks.py

clean:
	rm -rf build $(VENV)
