#!/usr/bin/env python3
"""Times how long a UCI engine takes to answer `isready` after `setoption name Hash`.

For each engine and each Hash value: start the engine, `uci`, `isready` (to get past start-up),
then `setoption name Hash value N`, `isready` and the time until `readyok`; then `ucinewgame`,
`isready` (the table cleared after use) and that time too. Each measurement is repeated and the
median printed, engines interleaved so that the machine's load falls on all alike.

    python3 scripts/hash_ready.py --engine target/release/brudno --engine /usr/games/stockfish \
        --hash 16 1024 4096 --repeat 3
"""
import argparse
import statistics
import subprocess
import time


def ask(proc, command, until):
    start = time.perf_counter()
    proc.stdin.write(command + "\n")
    proc.stdin.flush()
    info = []
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"engine closed its output after {command!r}")
        line = line.strip()
        if line.startswith("info string"):
            info.append(line)
        if line == until:
            return time.perf_counter() - start, info


def measure(cmd, hash_mib):
    proc = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    try:
        ask(proc, "uci", "uciok")
        ask(proc, "isready", "readyok")
        proc.stdin.write(f"setoption name Hash value {hash_mib}\n")
        resize, info = ask(proc, "isready", "readyok")
        # Use the table a little, then time clearing it.
        proc.stdin.write("position startpos\ngo depth 8\n")
        proc.stdin.flush()
        while not proc.stdout.readline().startswith("bestmove"):
            pass
        proc.stdin.write("ucinewgame\n")
        clear, _ = ask(proc, "isready", "readyok")
        return resize, clear, info
    finally:
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", action="append", required=True)
    parser.add_argument("--hash", nargs="+", default=["16", "1024", "4096"])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    results = {}
    for hash_mib in args.hash:
        for _ in range(args.repeat):
            for engine in args.engine:
                resize, clear, info = measure(engine, hash_mib)
                results.setdefault((engine, hash_mib), []).append((resize, clear, info))
    print("| engine | Hash (MiB) | setoption -> readyok (median s) | ucinewgame -> readyok "
          "(median s) | info string |")
    print("|---|---|---|---|---|")
    for (engine, hash_mib), runs in results.items():
        resize = statistics.median(r[0] for r in runs)
        clear = statistics.median(r[1] for r in runs)
        info = "; ".join(runs[-1][2])
        print(f"| {engine} | {hash_mib} | {resize:.3f} | {clear:.3f} | {info} |")


if __name__ == "__main__":
    main()
