# Thin wrapper: everything real is in CMake and cmake/*.sh.
#   make demo   install missing Debian packages, configure, build rcuprof and
#               the drivers of the variants the comparison uses (and their
#               OpenSSL trees only), run the default comparison
#   make test   the same set-up, every variant built, then every test
#               (ctest -j2), then the ASan+UBSan build of rcuprof's own code
#               and its tests
#   make deps   only the Debian packages
#   make test VARIANTS=...   -DRCUPROF_VARIANTS (default: the project's
#               default list plus lockfree@4.0)
#   make test SANITIZER_LINES=all   OpenSSL's TSan/ASan trees on every line
#               built, not only 4.0's (each line's trees cost about 10
#               minutes of compiling from an empty ccache)
BUILD      ?= build
ASAN_BUILD ?= build-asan
CMAKE_ARGS ?=
SANITIZER_LINES ?= 4.0
VARIANTS   ?= default,lockfree@4.0
CTEST_JOBS ?= 2
STAGE      := cmake/stage.sh

.PHONY: all deps configure build demo test test-asan clean

all: build

deps:
	@$(STAGE) deps cmake/install-deps.sh

configure: deps
	@$(STAGE) configure cmake -S . -B $(BUILD) -G Ninja \
	    -DRCUPROF_SANITIZER_LINES=$(SANITIZER_LINES) \
	    -DRCUPROF_VARIANTS=$(VARIANTS) $(CMAKE_ARGS)

# The OpenSSL variants first, one lane per line, two lines at a time
# (cmake/build-lines.sh), then everything else.
build: configure
	@$(STAGE) variants cmake/build-lines.sh $(BUILD)
	@$(STAGE) build cmake --build $(BUILD)

demo: configure
	@$(STAGE) demo-build env RCUPROF_DEMO_BUILD=only cmake/demo.sh $(BUILD)
	@$(STAGE) demo cmake/demo.sh $(BUILD)

test: build
	@$(STAGE) ctest ctest --test-dir $(BUILD) --output-on-failure -j$(CTEST_JOBS)
	@$(MAKE) --no-print-directory test-asan

# rcuprof's own code under AddressSanitizer and UBSan: the CLI, the analysis
# and probe libraries and their unit tests (OpenSSL variants are not rebuilt).
test-asan: deps
	@$(STAGE) asan-configure cmake -S . -B $(ASAN_BUILD) -G Ninja \
	    -DRCUPROF_BUILD_VARIANTS=OFF -DRCUPROF_SANITIZE=address,undefined $(CMAKE_ARGS)
	@$(STAGE) asan-build cmake --build $(ASAN_BUILD)
	@$(STAGE) asan-ctest ctest --test-dir $(ASAN_BUILD) --output-on-failure -j$(CTEST_JOBS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
