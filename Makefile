# OpenBench entry point: `make EXE=<path>` builds the release binary and copies it to <path>.
EXE ?= brudno

.PHONY: all clean
all:
	cargo build --release
	cp target/release/brudno $(EXE)

clean:
	cargo clean
