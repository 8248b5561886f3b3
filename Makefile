# drfscan: `make demo` builds and scans datasets/; `make test` runs every test.
# Both install what is missing on a Debian machine first (`make setup`).

CARGO ?= cargo
DEBIAN_PACKAGES := libz3-dev libclang-19-dev clang-19 pkg-config build-essential
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_DB := .drfscan/demo.db

# Real CUDA toolkit headers, from NVIDIA's header packages on the Python
# package index, so that tests parse through them next to the built-in ones.
CUDA_HEADERS := target/cuda-headers
CUDA_PACKAGES := nvidia-cuda-runtime-cu12==12.4.127 nvidia-cuda-nvcc-cu12==12.4.131 \
	nvidia-curand-cu12==10.3.5.147 nvidia-cuda-cccl-cu12==12.9.27

.PHONY: setup build test demo bench conformance fuzz clean cuda-headers

setup:
	@command -v dpkg >/dev/null || { echo "make setup: needs a Debian-based system (dpkg, apt-get)"; exit 1; }
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@command -v $(CARGO) >/dev/null || { echo "make setup: cargo not found; install a Rust toolchain (rustup)"; exit 1; }

build: setup
	$(CARGO) build --release

PIP_INSTALL := python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps

cuda-headers:
	@test -f $(CUDA_HEADERS)/nvidia/cuda_runtime/include/cuda_runtime.h || { \
	  python3 -m pip --version >/dev/null 2>&1 || { \
	    echo "installing: python3-pip"; \
	    $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-pip; }; \
	  echo "installing CUDA headers into $(CUDA_HEADERS)"; \
	  $(PIP_INSTALL) --target $(CUDA_HEADERS) $(CUDA_PACKAGES) || \
	    $(PIP_INSTALL) --break-system-packages --target $(CUDA_HEADERS) $(CUDA_PACKAGES); }

# The datasets are evaluated twice, through the real toolkit headers (in
# tests/toolkit.rs) and the built-in ones; the second takes the solver's
# answers to the queries both ask from the first, through a database made
# afresh by each run. Both give queries six times the default limit: a few
# labelled kernels are proved by one restart strategy in about its first
# turn's limit, which a loaded machine may not give them.
EVAL_DB := target/eval-answers.db

test: setup cuda-headers
	rm -f $(EVAL_DB)
	DRFSCAN_TEST_CUDA_HEADERS=$(CURDIR)/$(CUDA_HEADERS) DRFSCAN_TEST_EVAL_DB=$(CURDIR)/$(EVAL_DB) \
	  $(CARGO) test --release
	@# The binary the tests ran: `cargo run` would build it once more, for
	@# the dependency features only the tests' own dependencies add.
	./target/release/drfscan eval datasets/ --db $(EVAL_DB) --timeout-ms 30000

demo: build
	@mkdir -p .drfscan
	@# Exit status 1 means races were found, which the datasets are meant to have.
	./target/release/drfscan scan datasets/ --db $(DEMO_DB) --label demo; test $$? -le 1
	./target/release/drfscan report --db $(DEMO_DB); test $$? -le 1

# GPUVerify's CUDA test suite (../shared/conformance/gpuverify-cuda): agreement
# with its expected verdicts, every case that differs, and a failure when a
# case listed in tests/conformance-agreed.txt stops agreeing.
conformance: setup
	$(CARGO) test --release --test conformance -- --nocapture

bench: build
	$(CARGO) bench

# Mutations of the datasets' kernels scanned by the real binary: no panic,
# a result or warning for every file. `make test` runs a short smoke of it.
FUZZ_CASES ?= 400
fuzz: setup
	FUZZ_CASES=$(FUZZ_CASES) $(CARGO) test --release --test bad_input -- --nocapture

clean:
	$(CARGO) clean
	rm -rf .drfscan
