#!/usr/bin/env python3
"""Checks the draws of a match's PGN by repetition: did the position occur three times, or was
the game only stopped where the side to move *could* have repeated?

`../shared/tools/match.py` ends a game with `board.outcome(claim_draw=True)`, and python-chess
counts a threefold repetition as claimable when the position has occurred three times *or when
any legal move would make it occur a third time*. A tournament runner (fastchess, cutechess)
draws only the first. The second kind is a draw the side to move never chose: a player a piece
up, with a move that would repeat, is scored a draw though it would play on. This script
counts both kinds, and for the second says who was to move and who was ahead in material
(pawn 1, knight 3, bishop 3, rook 5, queen 9), from the point of view of the engine named
with --engine.

    python3 scripts/pgn_draws.py --engine brudno match.pgn
"""
import argparse

import chess
import chess.pgn

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def material(board, colour):
    """Material of `colour` minus its opponent's."""
    return sum(
        value * (len(board.pieces(piece, colour)) - len(board.pieces(piece, not colour)))
        for piece, value in VALUES.items()
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn", nargs="+", help="PGN files (match.py's --pgn, fastchess's -pgnout)")
    ap.add_argument("--engine", required=True, help="the engine whose side the counts take")
    args = ap.parse_args()

    games = threefold = claim_only = 0
    kinds = {}
    for path in args.pgn:
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                games += 1
                board = game.end().board()
                ending = (game.headers.get("Termination", "") + " "
                          + game.end().comment).lower()
                if "threefold" not in ending and "repetition" not in ending:
                    continue
                threefold += 1
                if board.is_repetition(3):
                    continue
                claim_only += 1
                ours = chess.WHITE if game.headers.get("White") == args.engine else chess.BLACK
                to_move = "engine" if board.turn == ours else "opponent"
                balance = material(board, ours)
                ahead = "engine" if balance > 1 else "opponent" if balance < -1 else "neither"
                kinds[(to_move, ahead)] = kinds.get((to_move, ahead), 0) + 1

    print(f"{games} games, {threefold} drawn by repetition: "
          f"{threefold - claim_only} where the position occurred three times, "
          f"{claim_only} where a move could only have made it so")
    for (to_move, ahead), count in sorted(kinds.items(), key=lambda kv: -kv[1]):
        name = {"engine": args.engine, "opponent": "the opponent", "neither": "neither side"}
        print(f"  {count:4d}  {name[to_move]} to move, {name[ahead]} ahead by more than a pawn")


if __name__ == "__main__":
    main()
