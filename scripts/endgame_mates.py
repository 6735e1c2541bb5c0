#!/usr/bin/env python3
"""Can Brudno mate a bare king? Games against Stockfish from random won endings.

    cargo build --release
    nice -n 5 python3 scripts/endgame_mates.py --seed 1 --games-per-type 20

For each of KQvK, KRvK, KBBvK (bishops on opposite colours) and KBNvK the script draws
positions at random (deterministic from --seed; the strong side White or Black at random),
keeps those that are legal, with the defender to move, not already over, and won for the
strong side under the 50-move rule according to the Syzygy tables (--syzygy). From each,
Brudno (--brudno, Hash 16, SyzygyPath empty: no tables) plays the strong side against
Stockfish (--stockfish, full strength) at 10+0.1 each, clocks kept here. A game ends in mate,
stalemate, insufficient material (the defender took a piece), the 50-move rule (halfmove
clock 100, counted from 0 at the start), a threefold repetition, or a lost clock. The report
is a markdown table per material: mates, games where Brudno announced the mate (`score mate`
in its last info line) before delivering it and how many plies before the end it first did,
plies to mate against the tables' optimum (DTZ, which is the distance to mate here, against
perfect defence), and the draws and forfeits; failures are listed below it.
Needs python-chess.
"""
import argparse
import concurrent.futures
import random
import sys
import time

import chess
import chess.engine
import chess.syzygy

MATERIALS = {
    "KQvK": [chess.QUEEN],
    "KRvK": [chess.ROOK],
    "KBBvK": [chess.BISHOP, chess.BISHOP],
    "KBNvK": [chess.BISHOP, chess.KNIGHT],
}


def random_position(rng, pieces, tables):
    """A legal position, defender to move, won for the strong side (50-move rule included)."""
    while True:
        strong = rng.choice([chess.WHITE, chess.BLACK])
        squares = rng.sample(chess.SQUARES, 2 + len(pieces))
        board = chess.Board(None)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, strong))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, not strong))
        for square, role in zip(squares[2:], pieces):
            board.set_piece_at(square, chess.Piece(role, strong))
        bishops = board.pieces(chess.BISHOP, strong)
        if len(bishops) == 2 and len(bishops & chess.BB_DARK_SQUARES) != 1:
            continue
        board.turn = not strong
        if not board.is_valid() or board.is_game_over():
            continue
        # The defender to move loses (-2; -1 would be a win the 50-move rule spoils).
        if tables.probe_wdl(board) != -2:
            continue
        return board, abs(tables.probe_dtz(board))


def play_game(args, material, board, optimum):
    """Brudno (strong side) against Stockfish from `board`; returns a result dict."""
    strong = not board.turn
    brudno = chess.engine.SimpleEngine.popen_uci(args.brudno)
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    try:
        brudno.configure({"Hash": 16})
        start_fen = board.fen()
        clocks = {chess.WHITE: args.time, chess.BLACK: args.time}
        announced_at = None
        end = None
        plies = 0
        while end is None:
            engine = brudno if board.turn == strong else stockfish
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE],
                black_clock=clocks[chess.BLACK],
                white_inc=args.inc,
                black_inc=args.inc,
            )
            started = time.monotonic()
            result = engine.play(board, limit, info=chess.engine.INFO_SCORE)
            clocks[board.turn] -= time.monotonic() - started
            if clocks[board.turn] < 0:
                end = "forfeit (Brudno)" if board.turn == strong else "forfeit (Stockfish)"
                break
            clocks[board.turn] += args.inc
            if board.turn == strong and announced_at is None:
                score = result.info.get("score")
                if score is not None and score.relative.is_mate() and score.relative.mate() > 0:
                    announced_at = plies
            board.push(result.move)
            plies += 1
            if board.is_checkmate():
                end = "mate"
            elif board.is_stalemate():
                end = "stalemate"
            elif board.is_insufficient_material() or len(board.piece_map()) < 2 + len(
                MATERIALS[material]
            ):
                end = "piece lost"
            elif board.halfmove_clock >= 100:
                end = "50-move rule"
            elif board.is_repetition(3):
                end = "repetition"
        return {
            "material": material,
            "fen": start_fen,
            "end": end,
            "plies": plies,
            "optimum": optimum,
            "announced": announced_at is not None and end == "mate",
            "warning": plies - announced_at if announced_at is not None else 0,
        }
    finally:
        brudno.quit()
        stockfish.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games-per-type", type=int, default=20)
    parser.add_argument("--concurrency", type=int, default=1, choices=[1, 2])
    parser.add_argument("--brudno", default="target/release/brudno")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--syzygy", default="../shared/syzygy")
    parser.add_argument("--time", type=float, default=10.0, help="seconds on each clock")
    parser.add_argument("--inc", type=float, default=0.1, help="increment in seconds")
    parser.add_argument("--only", choices=list(MATERIALS), action="append")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    jobs = []
    with chess.syzygy.open_tablebase(args.syzygy) as tables:
        for material, pieces in MATERIALS.items():
            for _ in range(args.games_per_type):
                board, optimum = random_position(rng, pieces, tables)
                if args.only is None or material in args.only:
                    jobs.append((material, board, optimum))

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        futures = [pool.submit(play_game, args, *job) for job in jobs]
        for future in concurrent.futures.as_completed(futures):
            game = future.result()
            results.append(game)
            print(
                f"# {game['material']} {game['fen']}: {game['end']} after {game['plies']} plies"
                f" (optimum {game['optimum']}){' announced' if game['announced'] else ''}",
                file=sys.stderr,
                flush=True,
            )

    print("| material | games | mates | mate announced | announced, plies before mate: mean "
          "(min) | plies to mate: mean (optimum) | max | 50-move | other draws | forfeits |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for material in MATERIALS:
        games = [g for g in results if g["material"] == material]
        if not games:
            continue
        mates = [g for g in games if g["end"] == "mate"]
        fifty = sum(g["end"] == "50-move rule" for g in games)
        forfeits = sum(g["end"].startswith("forfeit") for g in games)
        other = len(games) - len(mates) - fifty - forfeits
        if mates:
            mean = sum(g["plies"] for g in mates) / len(mates)
            optimum = sum(g["optimum"] for g in mates) / len(mates)
            plies = f"{mean:.1f} ({optimum:.1f})"
            longest = str(max(g["plies"] for g in mates))
        else:
            plies, longest = "-", "-"
        warned = [g["warning"] for g in mates if g["announced"]]
        announced = len(warned)
        warning = f"{sum(warned) / len(warned):.1f} ({min(warned)})" if warned else "-"
        print(f"| {material} | {len(games)} | {len(mates)} | {announced} | {warning} | {plies} "
              f"| {longest} "
              f"| {fifty} | {other} | {forfeits} |")
    failures = [g for g in results if g["end"] != "mate" or not g["announced"]]
    if failures:
        print()
        for g in sorted(failures, key=lambda g: g["material"]):
            print(f"- {g['material']} `{g['fen']}`: {g['end']} after {g['plies']} plies"
                  f"{'' if g['announced'] else ', mate not announced'}")


if __name__ == "__main__":
    main()
