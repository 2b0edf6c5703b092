# EARL: `make demo` and `make test` are all a newcomer needs (both run `setup` first).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
JOBS   ?= 2

.PHONY: setup build demo test test-cpp test-python bench clean

$(VENV)/.deps: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet "scikit-build-core>=0.10" "pybind11>=2.12" "numpy>=1.22" "rich>=12" \
	    "pytest>=7" "hypothesis>=6" "matplotlib>=3.5"
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
