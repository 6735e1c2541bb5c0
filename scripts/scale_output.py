#!/usr/bin/env python3
"""Scale a Brudno network's output: every output weight and bias times a factor.

Reads a network file (format version 2, engine/src/eval/nnue/network.rs), multiplies the
output layer (the K buckets of 2 x H weights, rounded to i16, and the K biases, rounded to
i32) by FACTOR, writes the FNV-1a 64 checksum again and saves the result: the same network
with its evaluations FACTOR times as large (up to rounding). Used to ask whether a network
trained with a result share loses because its scores are on a larger scale than the search's
margins were tuned on (docs/STRENGTH.md, experiment 2b).

    python3 scripts/scale_output.py IN.nnue OUT.nnue FACTOR
"""

import array
import struct
import sys

HEADER = 128
INPUTS = 768


def fnv1a64(data):
    """FNV-1a 64 of data, as network.rs computes the file's checksum."""
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def scale(data, factor):
    """The network file `data` with its output layer times `factor`."""
    data = bytearray(data)
    if data[:8] != b"BRUDNNUE" or struct.unpack_from("<I", data, 8)[0] != 2:
        raise ValueError("not a Brudno network file of format version 2")
    stored = struct.unpack_from("<Q", data, len(data) - 8)[0]
    if fnv1a64(data[:-8]) != stored:
        raise ValueError("checksum mismatch: the file is damaged")
    king_buckets, hidden, buckets = (struct.unpack_from("<I", data, at)[0] for at in (16, 88, 92))
    weights_at = HEADER + king_buckets * INPUTS * hidden * 2 + hidden * 2
    biases_at = weights_at + buckets * 2 * hidden * 2
    if biases_at + buckets * 4 + 8 != len(data):
        raise ValueError("the file's length does not match its architecture")
    weights = array.array("h")
    weights.frombytes(bytes(data[weights_at:biases_at]))
    scaled = array.array("h", (max(-32768, min(32767, round(w * factor))) for w in weights))
    data[weights_at:biases_at] = scaled.tobytes()
    biases = struct.unpack_from(f"<{buckets}i", data, biases_at)
    struct.pack_into(f"<{buckets}i", data, biases_at, *(round(b * factor) for b in biases))
    struct.pack_into("<Q", data, len(data) - 8, fnv1a64(data[:-8]))
    return bytes(data)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    try:
        out = scale(data, float(sys.argv[3]))
    except ValueError as why:
        sys.exit(f"scale_output: {sys.argv[1]}: {why}")
    with open(sys.argv[2], "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
