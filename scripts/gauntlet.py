#!/usr/bin/env python3
"""The gauntlet: Brudno at 10+0.1 against engines with published ratings, and its performance
on that rating list.

Each rung plays `--games` games against Brudno under fastchess (one thread and 16 MiB each,
balanced openings from `8moves_v3.epd`, each opening with both colours). The script prints
per opponent W-D-L, the score and the Elo difference with its 95% interval, then Brudno's
performance rating on CCRL 40/15: the rating R at which the expected score against the rated
rungs, game-weighted, equals the score made (the maximum-likelihood fit of the logistic Elo
model), with its standard error from the same model.

The rungs and where their figures come from:

  ethereal-12.00  Debian's package `ethereal-chess` (/usr/games/ethereal-chess). No CCRL
                  figure is quoted here: pass `--rating ethereal-12.00=R` with one read from
                  the CCRL 40/15 list to take it into the fit; without it the rung is played
                  and reported, and left out of the fit.
  carp-2.0.0      CCRL 40/15 3087, from the table "Rating Lists" in Carp's readme (its
                  current version, which lists 3.0.1 and 2.0.0 on CCRL 40/15). Built from
                  source, tag `v.2.0.0` (the network is in the repository):
                      git clone https://github.com/dede1751/carp carp-v2 && cd carp-v2
                      git checkout v.2.0.0
                      cargo rustc -r --bins -- -C target-cpu=native --emit link=carp-2.0.0
                  and the binary copied to LADDER/carp-2.0.0.
  carp-3.0.1      CCRL 40/15 3502, the same table. Tag `v3.0.1`:
                      git checkout v3.0.1 && make rule EXE=carp-3.0.1
                  and the binary copied to LADDER/carp-3.0.1.
  sf-2600         Debian's `stockfish` (15.1) at UCI_LimitStrength, UCI_Elo 2600: kept for
                  continuity with the earlier figures; its scale is Stockfish's 2019
                  calibration, not a rating list, so it is never in the fit.

The engines of the ladder stay outside the repository (`--ladder DIR`, default
`../ladder` beside the checkout). A rung that is missing is refused with what to do, before
any game is played. `fastchess` must be on PATH (build it from its source:
`make -j` in a clone of Disservin/fastchess).

    python3 scripts/gauntlet.py                       # every rung, 100 games each
    python3 scripts/gauntlet.py --only carp-2.0.0 --games 20
    python3 scripts/gauntlet.py --check               # only say which rungs are ready
    python3 scripts/gauntlet.py --self-test           # the fit on known figures

A 10+0.1 match wants the machine to itself: stop datagen (SIGSTOP) while it runs.
"""

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name -> (command relative to the ladder folder or absolute, published rating or None,
#          options, what to do when it is missing)
RUNGS = {
    "ethereal-12.00": (
        "/usr/games/ethereal-chess",
        None,
        [],
        "apt-get install ethereal-chess",
    ),
    "carp-2.0.0": (
        "carp-2.0.0",
        3087,
        [],
        "build Carp 2.0.0 from its tag v.2.0.0 (see this script's description) into LADDER",
    ),
    "carp-3.0.1": (
        "carp-3.0.1",
        3502,
        [],
        "build Carp 3.0.1 from its tag v3.0.1 (see this script's description) into LADDER",
    ),
    "sf-2600": (
        "/usr/games/stockfish",
        None,
        ["option.UCI_LimitStrength=true", "option.UCI_Elo=2600"],
        "apt-get install stockfish",
    ),
}

# Rungs whose figure is not on a rating list: reported, never fitted.
NOT_A_RATING = {"sf-2600"}

K = math.log(10) / 400


def expected(diff):
    """The expected score of a player `diff` Elo above the opponent."""
    return 1 / (1 + 10 ** (-diff / 400))


def elo_of_score(score):
    """The Elo difference that a score (0 < score < 1) stands for."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def match_interval(wins, draws, losses):
    """Elo difference of a match and the half-width of its 95% interval (trinomial)."""
    games = wins + draws + losses
    score = (wins + draws / 2) / games
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / games
    se = math.sqrt(variance / games)
    low = elo_of_score(score - 1.96 * se)
    high = elo_of_score(score + 1.96 * se)
    return elo_of_score(score), (high - low) / 2


def performance(results):
    """Brudno's performance rating from `results`, a list of (opponent rating, games,
    points): the R at which the expected points over all games equal the points made, and
    its standard error (the logistic model's Fisher information). None without results."""
    results = [r for r in results if r[1] > 0]
    if not results:
        return None
    points = sum(p for _, _, p in results)
    games = sum(g for _, g, _ in results)
    if points <= 0 or points >= games:
        # All won or all lost: no finite fit; bound it by the best and worst rungs.
        return None
    low, high = -2000.0, 6000.0
    for _ in range(200):
        middle = (low + high) / 2
        made = sum(g * expected(middle - r) for r, g, _ in results)
        if made < points:
            low = middle
        else:
            high = middle
    rating = (low + high) / 2
    information = sum(g * expected(rating - r) * (1 - expected(rating - r)) for r, g, _ in results)
    return rating, 1 / (K * math.sqrt(information))


def self_test():
    """The fit on figures with a known answer; exits non-zero on a wrong one."""
    failures = []
    # 50% against one rung is its rating.
    rating, _ = performance([(3000, 100, 50)])
    if abs(rating - 3000) > 0.5:
        failures.append(f"50% against 3000 gave {rating:.1f}")
    # 75% against 3000 is 3000 + 190.8.
    rating, se = performance([(3000, 100, 75)])
    if abs(rating - 3190.8) > 0.5:
        failures.append(f"75% against 3000 gave {rating:.1f}")
    if not 30 < se < 45:
        failures.append(f"the error of 100 games at 75% is {se:.1f}")
    # Two rungs with the same performance each give that performance.
    rating, _ = performance([(3000, 100, 100 * expected(200)), (3400, 100, 100 * expected(-200))])
    if abs(rating - 3200) > 0.5:
        failures.append(f"two rungs at 3200 gave {rating:.1f}")
    faults = brudno_faults(
        "Finished game 1 (brudno vs carp): 0-1 {White loses on time}\n"
        "Finished game 2 (carp vs brudno): 0-1 {White loses on time}\n"
        "Finished game 3 (carp vs brudno): 1-0 {Black makes an illegal move: e1e9}\n"
        "Finished game 4 (brudno vs carp): 1-0 {White mates}\n"
    )
    if faults != 2:
        failures.append(f"Brudno's faults counted {faults}, not 2")
    # More games weigh more: 73% against 3087 in 300 games and 5% against 3502 in 10.
    heavy, _ = performance([(3087, 300, 219), (3502, 10, 0.5)])
    light, _ = performance([(3087, 30, 21.9), (3502, 100, 5)])
    if not heavy > light:
        failures.append(f"weights: {heavy:.1f} should be above {light:.1f}")
    if performance([(3000, 10, 10)]) is not None:
        failures.append("a clean sweep has no finite fit")
    elo, half = match_interval(30, 40, 30)
    if abs(elo) > 1e-9 or not 30 < half < 60:
        failures.append(f"an even match gave {elo:.1f} +- {half:.1f}")
    for failure in failures:
        print("self-test:", failure, file=sys.stderr)
    print("self-test:", "failed" if failures else "ok")
    return 1 if failures else 0


def resolve(name, ladder):
    command, _, _, _ = RUNGS[name]
    path = command if os.path.isabs(command) else os.path.join(ladder, command)
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


def play(brudno, name, path, options, args):
    """One match under fastchess; returns (wins, draws, losses) for Brudno."""
    with tempfile.TemporaryDirectory() as scratch:
        if args.pgn_dir:
            # fastchess writes no PGN, and says nothing, into a folder that does not exist.
            os.makedirs(args.pgn_dir, exist_ok=True)
        pgn = os.path.join(args.pgn_dir or scratch, f"gauntlet-{name}.pgn")
        command = [
            "fastchess",
            "-engine", f"cmd={brudno}", "name=brudno",
            "-engine", f"cmd={path}", f"name={name}", *options,
            "-each", f"tc={args.tc}", "option.Hash=16", "option.Threads=1",
            "-openings", f"file={args.openings}", "format=epd", "order=random",
            "-srand", str(args.seed),
            "-rounds", str(args.games // 2), "-repeat",
            "-concurrency", str(args.concurrency),
            "-recover",
            "-pgnout", f"file={pgn}",
        ]
        print("$", " ".join(command), flush=True)
        output = subprocess.run(command, capture_output=True, text=True, check=False).stdout
    found = re.findall(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", output)
    if not found:
        print(output[-3000:], file=sys.stderr)
        raise SystemExit(f"gauntlet: fastchess gave no result against {name}")
    _, wins, losses, draws = (int(x) for x in found[-1])
    return wins, draws, losses, brudno_faults(output)


def brudno_faults(output):
    """Games Brudno lost by the clock, an illegal move or a crash, from fastchess's lines
    `Finished game N (WHITE vs BLACK): RESULT {Colour loses on time}`."""
    faults = 0
    for white, black, reason in re.findall(
        r"Finished game \d+ \((\S+) vs (\S+)\): \S+ \{([^}]*)\}", output
    ):
        loser = white if reason.startswith("White") else black
        if loser == "brudno" and re.search(r"time|illegal|disconnect|stall|crash", reason):
            faults += 1
    return faults


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default=os.path.join(ROOT, "target/release/brudno"))
    parser.add_argument("--ladder", default=os.path.join(os.path.dirname(ROOT), "ladder"))
    parser.add_argument("--games", type=int, default=100, help="games per rung (even)")
    parser.add_argument("--tc", default="10+0.1")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=4501)
    parser.add_argument(
        "--openings",
        default=os.path.join(os.path.dirname(ROOT), "shared/epd/openings/8moves_v3.epd"),
    )
    parser.add_argument("--only", nargs="*", choices=sorted(RUNGS), help="these rungs alone")
    parser.add_argument(
        "--rating", action="append", default=[], metavar="RUNG=R",
        help="a published rating for a rung (overrides the table; takes Ethereal into the fit)",
    )
    parser.add_argument("--pgn-dir", help="keep each match's games here")
    parser.add_argument("--check", action="store_true", help="only say which rungs are ready")
    parser.add_argument("--self-test", action="store_true", help="test the fit and exit")
    args = parser.parse_args()
    if args.self_test:
        return self_test()

    ratings = {name: rung[1] for name, rung in RUNGS.items()}
    for item in args.rating:
        name, _, value = item.partition("=")
        if name not in RUNGS or not value.isdigit():
            parser.error(f"--rating wants RUNG=NUMBER with a rung of {sorted(RUNGS)}: {item}")
        ratings[name] = int(value)

    names = args.only or list(RUNGS)
    missing = [(name, RUNGS[name][3]) for name in names if resolve(name, args.ladder) is None]
    if not os.access(args.engine, os.X_OK):
        missing.append(("brudno", f"cargo build --release (no {args.engine})"))
    if shutil.which("fastchess") is None:
        missing.append(("fastchess", "build fastchess from its source and put it on PATH"))
    for name in names:
        state = "ready" if resolve(name, args.ladder) else "missing"
        rating = ratings[name] if name not in NOT_A_RATING else None
        print(f"{name:15} {state:8} {'CCRL 40/15 ' + str(rating) if rating else 'not fitted'}")
    if missing:
        for name, remedy in missing:
            print(f"gauntlet: {name} is missing: {remedy} (ladder folder {args.ladder})",
                  file=sys.stderr)
        return 2
    if args.check:
        return 0
    if args.games < 2 or args.games % 2:
        parser.error("--games must be even (each opening is played with both colours)")

    rows, fit = [], []
    for name in names:
        _, _, options, _ = RUNGS[name]
        wins, draws, losses, forfeits = play(
            args.engine, name, resolve(name, args.ladder), options, args
        )
        games = wins + draws + losses
        elo, half = match_interval(wins, draws, losses)
        score = (wins + draws / 2) / games
        rows.append((name, wins, draws, losses, score, elo, half, forfeits))
        if ratings[name] is not None and name not in NOT_A_RATING:
            fit.append((ratings[name], games, wins + draws / 2))
        print(f"{name}: W-D-L {wins}-{draws}-{losses}, {100 * score:.1f}%, "
              f"{elo:+.1f} +- {half:.1f}", flush=True)

    print()
    print("| opponent | rating (CCRL 40/15) | games | W-D-L | score | Elo | losses on time, illegal moves, crashes |")
    print("|---|---|---|---|---|---|---|")
    for name, wins, draws, losses, score, elo, half, forfeits in rows:
        rating = ratings[name] if name not in NOT_A_RATING else None
        print(f"| {name} | {rating or '-'} | {wins + draws + losses} | {wins}-{draws}-{losses} "
              f"| {100 * score:.1f}% | {elo:+.1f} +- {half:.1f} | {forfeits} |")
    result = performance(fit)
    if result is None:
        print("performance: no finite fit (no rated rung, or all games won or lost)")
    else:
        rating, se = result
        print(f"performance on CCRL 40/15: {rating:.0f} +- {1.96 * se:.0f} (95%), "
              f"from {sum(g for _, g, _ in fit)} games against {len(fit)} rated rungs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
