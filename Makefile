# The two commands a new user needs:
#   make run   installs what is missing, builds, runs the main job on the default preset
#   make test  installs what is missing, builds, runs the whole test suite
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: deps configure build run test bench clean
deps:
	@bash cmake/install-deps.sh
configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DUFS_WERROR=ON $(CMAKE_FLAGS) >/dev/null
build: configure
	@cmake --build $(BUILD) -j $(JOBS)
run: build
	$(BUILD)/sim/ufs-sim run --preset ufs31 --workload "rw=randread,bs=4k,iodepth=32,size=8g,count=200000" --precondition-fill 8g --out runs/main
test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
bench: build
	$(BUILD)/sim/ufs-sim bench
clean:
	rm -rf $(BUILD)
