#!/usr/bin/env python3
"""Tunes Brudno's search numbers by SPSA on this machine, the way OpenBench does it.

The engine must be the tuning build (`cargo build --release --features tune`), in which every
number of `engine/src/search/params.rs` is a UCI `spin` option. The script reads the table from
`ENGINE tunables` (OpenBench's SPSA input: `name, int, value, min, max, c_end, r_end`), then
repeats, one game pair at a time on each of `--concurrency` workers:

1. draws a flip of +1 or -1 for every parameter and plays `dev = value + c * flip` against
   `base = value - c * flip` (integers rounded at random, clamped to the range), a pair of
   games from one opening with the colours swapped;
2. moves every value by `r * c * (wins - losses) * flip`, from dev's point of view.

The gains are OpenBench's (`OpenBench/spsa_utils.py`, `Client/worker.py`): with N the planned
pairs and k the pair now, `c = c_end * N^gamma / k^gamma` (at least 0.5 for integers) and
`r = r_end * c_end^2 * (A + N)^alpha / (A + k)^alpha / c^2`, alpha 0.602, gamma 0.101,
A = 0.1 N. So a run here and a tune on an OpenBench server with the same input follow the same
rule; only the number of games differs.

Games are played at a fixed number of nodes a move (time-management numbers, `tm_*`, do
nothing there and are left out by default), end by checkmate, stalemate, insufficient
material, a position's third occurrence or the fifty-move rule, and are adjudicated as a
tablebase-free runner would: a win when both engines agree on +/- 1000 cp or more for 4 moves
each, a draw after move 40 when both report at most 10 cp for 8 moves each, a draw at 400
plies. The current values are written to `--out` after every 10 pairs as `name, value`
lines (OpenBench's "optimal values"), and the script prints its progress.

    python3 scripts/spsa.py --engine target/release/brudno --pairs 2000 --nodes 10000 \\
        --openings ../shared/epd/openings/8moves_v3.epd --concurrency 2 --out spsa.txt
"""
import argparse
import math
import random
import re
import subprocess
import sys
import threading
import time

import chess
import chess.engine

ALPHA, GAMMA, A_RATIO = 0.602, 0.101, 0.1


class Param:
    """One line of the SPSA input, with its gains for a run of `pairs` pairs."""

    def __init__(self, line, pairs, r_end_override):
        name, kind, value, lo, hi, c_end, r_end = [f.strip() for f in line.split(",")]
        if kind != "int":
            raise ValueError(f"{name}: only int parameters, not {kind}")
        self.name = name
        self.start = self.value = float(value)
        self.lo, self.hi = float(lo), float(hi)
        self.c_end = float(c_end)
        r_end = r_end_override if r_end_override is not None else float(r_end)
        self.c_value = self.c_end * pairs**GAMMA
        self.a_value = r_end * self.c_end**2 * (A_RATIO * pairs + pairs) ** ALPHA

    def gains(self, k, pairs):
        """c and r at pair k (from 1)."""
        c = max(self.c_value / k**GAMMA, 0.5)
        r = self.a_value / (A_RATIO * pairs + k) ** ALPHA / c**2
        return c, r


def rounded(x, lo, hi, u):
    """OpenBench's probabilistic rounding, clamped to the range."""
    return int(min(max(math.floor(x + u), lo), hi))


class Tuner:
    """The shared state: the values, the pair counter and the totals."""

    def __init__(self, params, pairs, out):
        self.params = params
        self.pairs = pairs
        self.out = out
        self.lock = threading.Lock()
        self.started = 0
        self.done = 0
        self.wdl = [0, 0, 0]
        self.errors = 0

    def assign(self, rng):
        """The next pair's dev and base values and flips, or None when the run is over."""
        with self.lock:
            if self.started >= self.pairs:
                return None
            self.started += 1
            k = self.started
            plan = []
            for p in self.params:
                c, r = p.gains(k, self.pairs)
                flip = rng.choice((-1, 1))
                u = rng.random()
                dev = rounded(p.value + flip * c, p.lo, p.hi, u)
                base = rounded(p.value - flip * c, p.lo, p.hi, u)
                plan.append((p, c, r, flip, dev, base))
            return plan

    def report(self, plan, wins, draws, losses):
        """Applies a finished pair's result to every value."""
        with self.lock:
            result = wins - losses
            for p, c, r, flip, _, _ in plan:
                p.value = min(max(p.value + r * c * result * flip, p.lo), p.hi)
            self.done += 1
            self.wdl[0] += wins
            self.wdl[1] += draws
            self.wdl[2] += losses
            if self.done % 10 == 0 or self.done == self.pairs:
                self.write()

    def write(self):
        with open(self.out, "w") as f:
            for p in self.params:
                f.write(f"{p.name}, {int(round(p.value))}\n")


def white_score(info):
    """The engine's score from White's point of view in centipawns (mates as +/- 100000)."""
    score = info.get("score")
    if score is None:
        return None
    return score.white().score(mate_score=100000)


def play_game(engines, values, fen, nodes, game_id):
    """Plays one game; engines[0] has White. Returns 1, 0.5 or 0 for White."""
    for engine, vals in zip(engines, values):
        engine.configure(vals)
    board = chess.Board(fen)
    win_run = [0, 0]
    draw_run = 0
    limit = chess.engine.Limit(nodes=nodes)
    for ply in range(400):
        outcome = board.outcome(claim_draw=False)
        if outcome is not None:
            return {True: 1.0, False: 0.0, None: 0.5}[outcome.winner]
        if board.is_repetition(3) or board.halfmove_clock >= 100:
            return 0.5
        engine = engines[0] if board.turn == chess.WHITE else engines[1]
        result = engine.play(board, limit, game=game_id, info=chess.engine.INFO_SCORE)
        if result.move is None or result.move not in board.legal_moves:
            raise RuntimeError(f"illegal or no move {result.move} in {board.fen()}")
        score = white_score(result.info)
        if score is not None:
            if abs(score) >= 1000:
                side = 0 if score > 0 else 1
                win_run[side] += 1
                win_run[1 - side] = 0
            else:
                win_run = [0, 0]
            if win_run[0] >= 8:
                return 1.0
            if win_run[1] >= 8:
                return 0.0
            draw_run = draw_run + 1 if abs(score) <= 10 and board.fullmove_number > 40 else 0
            if draw_run >= 16:
                return 0.5
        board.push(result.move)
    return 0.5


def start_engines(args):
    """Two fresh processes of the tuning build, one thread and `--hash` MiB each."""
    engines = [chess.engine.SimpleEngine.popen_uci(args.engine) for _ in range(2)]
    for engine in engines:
        engine.configure({"Hash": args.hash, "Threads": 1})
    return engines


def worker(tuner, args, openings, seed):
    rng = random.Random(seed)
    engines = start_engines(args)
    try:
        while True:
            plan = tuner.assign(rng)
            if plan is None:
                return
            dev = {p.name: d for p, _, _, _, d, _ in plan}
            base = {p.name: b for p, _, _, _, _, b in plan}
            fen = rng.choice(openings)
            wins = draws = losses = 0
            try:
                # engines[0] plays dev, engines[1] base; dev has White, then Black.
                first = play_game(engines, (dev, base), fen, args.nodes, object())
                second = play_game(engines[::-1], (base, dev), fen, args.nodes, object())
            except (chess.engine.EngineError, RuntimeError) as e:
                with tuner.lock:
                    tuner.errors += 1
                print(f"pair skipped: {e}", file=sys.stderr)
                for engine in engines:
                    engine.quit()
                engines = start_engines(args)
                continue
            for score in (first, 1.0 - second):
                if score == 1.0:
                    wins += 1
                elif score == 0.0:
                    losses += 1
                else:
                    draws += 1
            tuner.report(plan, wins, draws, losses)
    finally:
        for engine in engines:
            engine.quit()


def read_openings(path):
    fens = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 4:
                fen = " ".join(fields[:4]) + " 0 1"
                try:
                    chess.Board(fen)
                except ValueError:
                    continue
                fens.append(fen)
    return fens


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="the tuning build of brudno")
    ap.add_argument("--pairs", type=int, required=True, help="game pairs in the run (OpenBench's iterations)")
    ap.add_argument("--nodes", type=int, required=True, help="nodes a move")
    ap.add_argument("--openings", required=True, help="EPD file of start positions")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--exclude", default=r"^(tm_|lazy_eval)", help="regex of names left at their default")
    ap.add_argument("--only", default=None, help="regex of the names to tune (default: all not excluded)")
    ap.add_argument("--r-end", type=float, default=None, help="replace every r_end of the input")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="file for the current values, `name, value` lines")
    args = ap.parse_args()

    table = subprocess.run([args.engine, "tunables"], capture_output=True, text=True, check=True).stdout
    params = []
    for line in table.splitlines():
        p = Param(line, args.pairs, args.r_end)
        if re.search(args.exclude, p.name):
            continue
        if args.only and not re.search(args.only, p.name):
            continue
        params.append(p)
    openings = read_openings(args.openings)
    print(f"{len(params)} parameters, {args.pairs} pairs at {args.nodes} nodes, {len(openings)} openings", flush=True)

    tuner = Tuner(params, args.pairs, args.out)
    threads = [
        threading.Thread(target=worker, args=(tuner, args, openings, args.seed * 1000 + i))
        for i in range(args.concurrency)
    ]
    began = time.time()
    for t in threads:
        t.start()
    last = 0
    while any(t.is_alive() for t in threads):
        time.sleep(5)
        with tuner.lock:
            done, (w, d, l) = tuner.done, tuner.wdl
        if done >= last + 50 or not any(t.is_alive() for t in threads):
            last = done
            moved = sorted(params, key=lambda p: -abs(p.value - p.start) / p.c_end)[:6]
            shifts = ", ".join(f"{p.name} {p.start:g}->{p.value:.1f}" for p in moved)
            print(f"{done}/{args.pairs} pairs, {time.time() - began:.0f} s, dev W-D-L {w}-{d}-{l}; moved most: {shifts}", flush=True)
    tuner.write()
    print(f"done: {tuner.done} pairs, {tuner.errors} skipped, values in {args.out}")
    for p in params:
        print(f"{p.name}, {p.start:g} -> {p.value:.2f}")


if __name__ == "__main__":
    main()
