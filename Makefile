# OpenBench entry point: `make EXE=<path> [EVALFILE=<network>]` builds the release binary,
# with the network file EVALFILE compiled in instead of nets/default.nnue when given, and
# copies it to <path> (default ./brudno). OpenBench then runs `<path> bench` and reads its
# last line, and `<path> "genfens N seed S book <None|FILE>" quit` for opening positions.
EXE ?= brudno
EVALFILE ?=
# Where cargo puts its output: target/ unless CARGO_TARGET_DIR says otherwise.
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)

.PHONY: all clean
all:
	BRUDNO_EVALFILE="$(EVALFILE)" cargo build --release
	cp $(TARGET_DIR)/release/brudno $(EXE)

clean:
	cargo clean
