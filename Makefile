# The two commands a new user needs (README): ./make.sh run and ./make.sh test install the
# core packages, make included, then come here; with the packages there, make run and
# make test do the same.
#   make run     builds ufs-sim only, runs the main job on the default preset
#   make test    builds everything (tests too), runs the whole test suite
#   make extras  installs the optional plots (matplotlib) and wave viewer (GTKWave)
#   make deps-iss  installs the optional Arm cross compiler and Unicorn: the next build
#                makes firmware.elf, cpu.model=iss and its tests (README, Firmware on the core)
#   make test-sanitize  the same tests on a build under ASan + UBSan (build-sanitize/; slow)
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?=
# cmake/build.sh pipes the build's lines through a shortener: keep the build's exit status.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

.PHONY: deps extras deps-iss configure build build-sim run test test-sanitize bench clean
deps:
	@bash cmake/install-deps.sh core
extras:
	@bash cmake/install-deps.sh extras
deps-iss:
	@bash cmake/install-deps.sh iss
configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DUFS_WERROR=ON $(CMAKE_FLAGS) >/dev/null
build: configure
	@bash cmake/build.sh $(BUILD) $(JOBS)
build-sim: configure
	@bash cmake/build.sh $(BUILD) $(JOBS) ufs-sim
# The main job: the flagship case, 4 KiB random reads at QD32 over 8 GiB on ufs31 (1 MiB of
# L2P SRAM covers 1 GiB), HPB off and then on (device control mode), side by side. An
# unmeasured pass of the same reads first warms the device's map cache and the host's HPB cache.
MAIN_READS = rw=randread,bs=4k,iodepth=32,size=8g
MAIN_RUN = $(BUILD)/sim/ufs-sim run --preset ufs31 --precondition-fill 8g \
	--precondition "$(MAIN_READS),count=100000,seed=7" --workload "$(MAIN_READS),count=200000,seed=8"
run: build-sim
	$(MAIN_RUN) --set hpb.enabled=false --out runs/main/hpb-off
	$(MAIN_RUN) --set hpb.enabled=true --out runs/main/hpb-on
	@python3 sim/compare_runs.py runs/main/hpb-off runs/main/hpb-on
test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
# Everything under AddressSanitizer + UndefinedBehaviorSanitizer (issue 17). Not in .ci/run:
# its build alone takes over an hour on the shared 2-core machine (README, Sanitizers).
SANITIZE_BUILD ?= build-sanitize
test-sanitize: deps
	@cmake -S . -B $(SANITIZE_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DUFS_WERROR=ON -DUFS_SANITIZE=ON \
		$(CMAKE_FLAGS) >/dev/null
	@bash cmake/build.sh $(SANITIZE_BUILD) $(JOBS)
	@rm -rf $(SANITIZE_BUILD)/sanitizer-logs && mkdir -p $(SANITIZE_BUILD)/sanitizer-logs
	@cd $(SANITIZE_BUILD) && ASAN_OPTIONS=$(ASAN_OPTIONS_TEST) UBSAN_OPTIONS=$(UBSAN_OPTIONS_TEST) \
		ctest --output-on-failure -j $(JOBS); status=$$?; \
		reports=$$(grep -l -e 'ERROR: ' -e 'runtime error: ' sanitizer-logs/* 2>/dev/null); \
		if [ -n "$$reports" ]; then echo "sanitizer reports:"; cat $$reports; status=1; fi; exit $$status
# Reports go to files (sanitizer-logs/report.PID), not stderr: the command-line tests check
# that an error is exactly one line, and ASan's google/sanitizers#189 warning (asan.supp says
# why it appears) would add three. A report still fails its test (exit status), and every
# report file with an error is printed after the suite. Allocations and RSS are capped at
# 4 GiB, as hostile_inputs.py's address-space cap does outside the sanitizers.
ASAN_OPTIONS_TEST = suppressions=$(CURDIR)/testbench/sanitizer/asan.supp:log_path=$(abspath $(SANITIZE_BUILD))/sanitizer-logs/report:allocator_may_return_null=1:max_allocation_size_mb=4096:hard_rss_limit_mb=4096
UBSAN_OPTIONS_TEST = print_stacktrace=1:halt_on_error=1:suppressions=$(CURDIR)/testbench/sanitizer/ubsan.supp
bench: build-sim
	$(BUILD)/sim/ufs-sim bench
clean:
	rm -rf $(BUILD)
