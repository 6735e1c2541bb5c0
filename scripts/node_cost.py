#!/usr/bin/env python3
"""Where a node's instructions go: a callgrind profile of `brudno bench` summed by concern (the
function the code was inlined into: the move picker, the node's logic, the NNUE, make-move,
the table, the per-search allocation) and by whose code it is (the source file of the
instruction: ours, shakmaty's, the standard library's or arrayvec's, libc's).

    valgrind --tool=callgrind --callgrind-out-file=cg.out BINARY bench 8
    python3 scripts/node_cost.py cg.out NODES

NODES is the node count `BINARY bench 8` prints. Whose code it is needs a build with line
tables (`CARGO_PROFILE_RELEASE_DEBUG=line-tables-only`); a plain release build still gives
the concerns, with all of its code counted as ours. docs/bench.md shows the tables it prints.
"""
import argparse
import collections
import re
import subprocess

CONCERNS = [
    ("evaluation (NNUE: evaluate, accumulator updates; endgame scaling)", r"nnue|evaluate|endgame"),
    (
        "picker (generate, score, select, SEE, hash-move legality)",
        r"movepick|pick_next|insertion_sort|see::|legal_move_from_packed|OrderingContext|legal_moves|gen_|SliceContains",
    ),
    (
        "make-move (copy, shakmaty's play, key, changes; the null move's setup)",
        r"play_into|updated|play_unchecked|Position::|from_setup|swap_turn",
    ),
    ("table", r"tt::"),
    ("per-search allocation (bench's fresh searches)", r"calloc|memset|histories|Worker<O>::new|Box<T>|malloc|free"),
    ("node logic (negamax, quiescence, ProbCut)", r"negamax|quiesce|probcut|heuristics|search::"),
]
SOURCES = ["ours", "shakmaty", "std", "libc"]


def source_of(file):
    if "shakmaty" in file:
        return "shakmaty"
    if "/rustc/" in file or "arrayvec" in file:
        return "std"
    if file.startswith("./") or "libc" in file:
        return "libc"
    return "ours"


def concern_of(function):
    for name, pattern in CONCERNS:
        if re.search(pattern, function):
            return name
    return "other"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", help="callgrind's output file")
    parser.add_argument("nodes", type=int, help="the nodes the profiled bench searched")
    args = parser.parse_args()
    listing = subprocess.run(
        ["callgrind_annotate", "--auto=no", "--threshold=100", args.profile],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    total = None
    rows = collections.defaultdict(collections.Counter)
    in_functions = False
    for line in listing.splitlines():
        found = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line)
        if not found:
            in_functions = in_functions or "file:function" in line
            continue
        count = int(found.group(1).replace(",", ""))
        rest = found.group(2)
        if rest.startswith("PROGRAM TOTALS"):
            total = count
            continue
        if not in_functions:
            continue
        file, _, function = rest.partition(":")
        rows[concern_of(function)][source_of(file)] += count
    if not total:
        raise SystemExit(f"{args.profile}: no PROGRAM TOTALS in callgrind_annotate's listing")

    def cells(counter):
        shares = [f"{counter[s] / total * 100:.1f}%" for s in SOURCES]
        whole = sum(counter.values())
        return shares + [f"{whole / total * 100:.1f}%", f"{whole / args.nodes:,.0f}"]

    print("| concern | " + " | ".join(SOURCES) + " | all | a node |")
    print("|---" * (len(SOURCES) + 3) + "|")
    everything = collections.Counter()
    for name, counter in sorted(rows.items(), key=lambda kv: -sum(kv[1].values())):
        everything.update(counter)
        print(f"| {name} | " + " | ".join(cells(counter)) + " |")
    print("| all | " + " | ".join(cells(everything)) + " |")
    print(f"\n{total:,} instructions, {args.nodes:,} nodes: {total / args.nodes:,.0f} a node")


if __name__ == "__main__":
    main()
