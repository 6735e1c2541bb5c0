# OpenBench entry point: `make EXE=<path>` builds the release binary and copies it to <path>
# (default ./brudno); OpenBench then runs `<path> bench` and reads its last line.
EXE ?= brudno
# Where cargo puts its output: target/ unless CARGO_TARGET_DIR says otherwise.
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)

.PHONY: all clean
all:
	cargo build --release
	cp $(TARGET_DIR)/release/brudno $(EXE)

clean:
	cargo clean
