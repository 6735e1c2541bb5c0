//! The picker against the order it replaced and against the rules: every legal move exactly
//! once in every mode, and the main order equal to scoring every move into bands and sorting
//! them (stably) best first, over the order in which the picker generates them (captures,
//! then quiet moves; every evasion at once in check).

use shakmaty::{Move, Role};

use super::*;
use crate::rng::splitmix64;
use crate::search::features::Features;
use crate::search::history::ContinuationHistory;
use crate::search::see::see_non_negative;

/// The shared starts and two positions in check (evasions only).
fn fens() -> Vec<(&'static str, bool)> {
    crate::position::test_positions::starts_and(&[
        ("4k3/8/8/8/1b6/8/3P4/R3K2R w KQ - 0 1", false),
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            false,
        ),
    ])
}

/// Random playouts from `fens()`: many positions of every kind.
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    let mut state = 3;
    for (fen, chess960) in fens() {
        for _ in 0..6 {
            let mut pos = Position::from_fen(fen, chess960).unwrap();
            for _ in 0..40 {
                out.push(pos.clone());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state = splitmix64(state);
                pos = pos.play(moves[(state % moves.len() as u64) as usize]);
            }
        }
    }
    out
}

/// Histories with varied values, so that quiet moves have different scores.
fn varied_histories(seed: u64) -> Box<Histories> {
    let mut histories = Histories::new();
    let mut state = seed;
    for _ in 0..3000 {
        state = splitmix64(state);
        let side = if state & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let bonus = (state >> 8) as i32 % 2000 - 1000;
        histories
            .butterfly
            .update(side, (state >> 20) as usize & 0xfff, bonus, 16_384);
        let row = ContinuationHistory::row(((state >> 40) % 769) as u16);
        histories
            .continuation
            .update(row, ((state >> 50) % 769) as u16, bonus, 16_384);
    }
    histories
}

fn drain(picker: &mut MovePicker, pos: &Position, context: &OrderingContext) -> Vec<Move> {
    let mut out = Vec::new();
    while let Some(mv) = picker.next(pos, context) {
        out.push(mv);
        assert!(out.len() <= 256, "the picker never ends");
    }
    out
}

fn sorted(moves: &[Move]) -> Vec<String> {
    let mut names: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
    names.sort();
    names
}

/// Every mode yields each of its moves exactly once and nothing else: main and lab every
/// legal move (evasions in check), quiescence the captures and promotions (every evasion in
/// check), ProbCut those captures that clear the threshold; the hash move and the killers
/// come first when legal, a bogus hash move or killer is ignored, an excluded move never
/// comes, and skipping the quiet moves drops exactly the quiet moves not yet yielded.
#[test]
fn every_mode_yields_each_legal_move_once() {
    let histories = varied_histories(5);
    let all_features = Features::ALL;
    let mut checks = 0;
    let mut state = 11;
    for pos in positions() {
        let legal = pos.legal_moves();
        state = splitmix64(state);
        let pick = |i: u64| {
            if legal.is_empty() {
                0
            } else {
                tt::pack_move(legal[(i % legal.len() as u64) as usize])
            }
        };
        let hash = if state % 4 == 0 { 0 } else { pick(state) };
        let killers = [pick(state >> 10), pick(state >> 20)];
        let countermove = pick(state >> 30);
        let bogus = 63 | (62 << 6);
        let excluded = if state % 3 == 0 { pick(state >> 40) } else { 0 };
        let hash_move = tt::legal_move_from_packed(hash, &pos);
        let context = OrderingContext {
            features: all_features,
            histories: &histories,
            continuation: Some([
                ContinuationHistory::row((state % 769) as u16),
                ContinuationHistory::row((state % 31) as u16),
            ]),
            killers: [killers[0], bogus],
            countermove,
        };

        // Main.
        let mut picker = MovePicker::main(hash_move, excluded, pos.is_check());
        let main = drain(&mut picker, &pos, &context);
        let expected: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| tt::pack_move(m) != excluded)
            .collect();
        assert_eq!(sorted(&main), sorted(&expected), "{}", pos.fen());
        assert_eq!(picker.legal(), Some(legal.len()));
        assert_eq!(picker.yielded(), main.len());
        if let Some(h) = hash_move.filter(|&h| tt::pack_move(h) != excluded) {
            assert_eq!(main[0], h);
        }

        // Skipping quiet moves after the first few.
        let context = OrderingContext { killers, ..context };
        let mut picker = MovePicker::main(hash_move, excluded, pos.is_check());
        let mut seen = Vec::new();
        while let Some(mv) = picker.next(&pos, &context) {
            seen.push(mv);
            if seen.iter().filter(|m| !is_tactical(**m)).count() == 2 {
                picker.skip_quiets();
            }
        }
        let quiet_seen = seen.iter().filter(|m| !is_tactical(**m)).count();
        assert!(quiet_seen <= 2 || hash_move.is_some_and(|h| !is_tactical(h)));
        let tactical_expected = expected.iter().filter(|m| is_tactical(**m)).count();
        assert_eq!(seen.len() - quiet_seen, tactical_expected, "{}", pos.fen());

        // Quiescence: tactical moves, or every evasion in check.
        let mut picker = MovePicker::quiescence();
        let quiescence = drain(&mut picker, &pos, &context);
        let tactical: Vec<Move> = if pos.is_check() {
            legal.to_vec()
        } else {
            legal.iter().copied().filter(|m| is_tactical(*m)).collect()
        };
        assert_eq!(sorted(&quiescence), sorted(&tactical), "{}", pos.fen());

        // ProbCut: the captures clearing the threshold, by MVV-LVA.
        if !pos.is_check() {
            let mut picker = MovePicker::probcut(150);
            let probcut = drain(&mut picker, &pos, &context);
            let clearing: Vec<Move> = tactical
                .iter()
                .copied()
                .filter(|&m| see::see_ge(&pos, m, 150))
                .collect();
            assert_eq!(sorted(&probcut), sorted(&clearing), "{}", pos.fen());
        }

        // The lab's orders.
        for order in [
            MoveOrder::Generation,
            MoveOrder::Worst,
            MoveOrder::Random(3),
            MoveOrder::Staged,
        ] {
            let mut picker = MovePicker::lab(&legal, order, hash, pos.key(), 0);
            let lab = drain(&mut picker, &pos, &context);
            assert_eq!(sorted(&lab), sorted(&legal), "{}", pos.fen());
        }
        checks += 1;
    }
    assert!(checks > 1500, "{checks} positions");
}

/// The order the picker replaced: every legal move scored into bands (hash move, good
/// captures by MVV-LVA, killers, countermove, quiet moves by history, losing captures) and
/// sorted stably, best first. The moves are listed as the picker generates them: the
/// captures and promotions, then the quiet moves (in check, every evasion as generated).
fn banded_order(
    pos: &Position,
    hash: PackedMove,
    killers: [PackedMove; 2],
    countermove: PackedMove,
    context: &OrderingContext,
) -> Vec<Move> {
    const GOOD_CAPTURE: i32 = 1 << 24;
    const KILLER_FIRST: i32 = 1 << 22;
    let us = pos.turn();
    let legal = pos.legal_moves();
    let listed: Vec<Move> = if pos.is_check() {
        legal.to_vec()
    } else {
        let quiets = legal.iter().copied().filter(|m| !is_tactical(*m));
        let mut captures = Vec::new();
        pos.generate_captures(|m| captures.push(m));
        captures.into_iter().chain(quiets).collect()
    };
    let mut scored: Vec<(Move, i32)> = listed
        .iter()
        .map(|&mv| {
            let packed = tt::pack_move(mv);
            let score = if packed == hash {
                i32::MAX
            } else if is_tactical(mv) {
                let value = mvv_lva_score(mv);
                if !context.features.see || see_non_negative(pos, mv) {
                    GOOD_CAPTURE + value
                } else {
                    -GOOD_CAPTURE + value
                }
            } else if context.features.killers && packed == killers[0] {
                KILLER_FIRST
            } else if context.features.killers && packed == killers[1] {
                KILLER_FIRST - 1
            } else if packed == countermove {
                KILLER_FIRST - 2
            } else {
                let (butterfly, continuation) = context.quiet_histories(us, mv);
                butterfly + continuation
            };
            (mv, score)
        })
        .collect();
    scored.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    scored.into_iter().map(|(mv, _)| mv).collect()
}

/// The bench positions and six random plies played from each (`state` drawing the moves):
/// `visit` gets each position with its legal moves and the random state, and returns it.
fn bench_walk(mut state: u64, mut visit: impl FnMut(&Position, &[Move], u64) -> u64) {
    let bench = include_str!("../../../../epd/bench.epd");
    for line in bench.lines().filter(|l| !l.trim().is_empty()) {
        let fen: String = line
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" ");
        let mut pos = Position::from_fen(&fen, false).unwrap();
        for _ in 0..6 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            state = visit(&pos, &legal, state);
            state = splitmix64(state);
            pos = pos.play(legal[(state % legal.len() as u64) as usize]);
        }
    }
}

/// On the bench positions and positions played from them, with varied histories, killers
/// and countermoves, the main picker gives exactly the banded order (the order of the
/// search before the picker, over the picker's generation order), for the engine's switches,
/// for none of them and with capture history.
#[test]
fn the_main_order_equals_the_banded_order() {
    let mut compared = 0;
    bench_walk(17, |pos, legal, mut state| {
        for features in [Features::ALL, Features::NONE, Features::ALL] {
            state = splitmix64(state);
            let histories = varied_histories(state);
            let pick = |i: u64| tt::pack_move(legal[(i % legal.len() as u64) as usize]);
            let hash = if state % 5 == 0 { 0 } else { pick(state >> 3) };
            let killers = [pick(state >> 13), pick(state >> 23)];
            let killers = if killers[0] == killers[1] {
                [killers[0], 0]
            } else {
                killers
            };
            let countermove = if features.countermove {
                pick(state >> 33)
            } else {
                0
            };
            let hash_move = tt::legal_move_from_packed(hash, pos);
            let context = OrderingContext {
                features,
                histories: &histories,
                continuation: features
                    .continuation_history
                    .then(|| [ContinuationHistory::row((state % 769) as u16), 0]),
                killers,
                countermove,
            };
            let mut picker = MovePicker::main(hash_move, 0, pos.is_check());
            let picked = drain(&mut picker, pos, &context);
            let reference = banded_order(pos, hash, killers, countermove, &context);
            assert_eq!(picked, reference, "{}", pos.fen());
            compared += 1;
        }
        state
    });
    assert!(compared > 500, "{compared}");
}

/// With `quiets_giving_check_only` called after the first move (as the search calls it at a
/// futile node), the picker yields the moves it yields without it, in the same order, less
/// exactly the quiet moves of the quiet stage that give no check: the moves futility pruning
/// would have skipped.
#[test]
fn checks_only_leaves_out_exactly_the_quiet_moves_without_check() {
    let mut left_out = 0;
    bench_walk(29, |pos, legal, mut state| {
        state = splitmix64(state);
        let histories = varied_histories(state);
        let pick = |i: u64| tt::pack_move(legal[(i % legal.len() as u64) as usize]);
        let hash = if state % 3 == 0 { 0 } else { pick(state >> 3) };
        let killers = [pick(state >> 13), pick(state >> 23)];
        let context = OrderingContext {
            features: Features::ALL,
            histories: &histories,
            continuation: Some([ContinuationHistory::row((state % 769) as u16), 0]),
            killers,
            countermove: pick(state >> 33),
        };
        let hash_move = tt::legal_move_from_packed(hash, pos);
        let mut plain = MovePicker::main(hash_move, 0, pos.is_check());
        let all = drain(&mut plain, pos, &context);
        let mut filtered = MovePicker::main(hash_move, 0, pos.is_check());
        let mut kept = Vec::new();
        if let Some(first) = filtered.next(pos, &context) {
            kept.push(first);
            if let Some(info) = pos.check_info() {
                filtered.quiets_giving_check_only(info);
            }
            kept.extend(drain(&mut filtered, pos, &context));
        }
        // `kept` is `all` less some moves, in the same order; each one left out is a quiet
        // move without check, and every such move after the killers' stages is left out
        // unless the picker was past generating them (in check: evasions come at once).
        let mut rest = all.iter();
        for mv in &kept {
            assert!(rest.any(|m| m == mv), "{} {mv}", pos.fen());
        }
        let info = pos.check_info().unwrap();
        for mv in all.iter().filter(|m| !kept.contains(m)) {
            assert!(!is_tactical(*mv), "{} {mv}", pos.fen());
            assert!(!pos.gives_check(*mv, &info), "{} {mv}", pos.fen());
            left_out += 1;
        }
        let early: Vec<_> = [hash, killers[0], killers[1], context.countermove]
            .into_iter()
            .filter(|&p| p != 0)
            .collect();
        let quiet_stage = |mv: &Move| !is_tactical(*mv) && !early.contains(&tt::pack_move(*mv));
        if !pos.is_check() && all.len() > 1 && !quiet_stage(&all[0]) {
            for mv in all.iter().skip(1) {
                if quiet_stage(mv) && !pos.gives_check(*mv, &info) {
                    assert!(!kept.contains(mv), "{} {mv}", pos.fen());
                }
            }
        }
        state
    });
    assert!(left_out > 1000, "{left_out}");
}

/// Queens and rooks to take, by pawns and a knight.
const MVV_LVA_FEN: &str = "4k3/8/3r1q2/4P3/2N5/8/8/R3K2Q w - - 0 1";

#[test]
fn mvv_lva_takes_the_queen_with_the_pawn_first() {
    let pos = Position::from_fen(MVV_LVA_FEN, false).unwrap();
    let histories = Histories::new();
    let context = OrderingContext {
        features: Features::ALL,
        histories: &histories,
        continuation: None,
        killers: [0; 2],
        countermove: 0,
    };
    let mut picker = MovePicker::main(None, 0, false);
    let moves: Vec<Move> = std::iter::from_fn(|| picker.next(&pos, &context)).collect();
    let uci: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    // Queen victims first (pawn takes before knight... only the pawn can), then the rook.
    assert_eq!(moves[0].capture(), Some(Role::Queen));
    assert_eq!(moves[0].role(), Role::Pawn);
    assert_eq!(moves[1].capture(), Some(Role::Rook));
    assert_eq!(moves[1].role(), Role::Pawn, "{uci:?}");
    assert_eq!(moves[2].capture(), Some(Role::Rook));
    assert_eq!(moves[2].role(), Role::Knight);
    let first_quiet = moves.iter().position(|m| !is_tactical(*m)).unwrap();
    assert!(moves[first_quiet..].iter().all(|m| !is_tactical(*m)));
}

#[test]
fn picking_one_by_one_is_a_stable_sort() {
    let pos = Position::from_fen(MVV_LVA_FEN, false).unwrap();
    let legal = pos.legal_moves();
    // Scores with many ties, as quiet moves' histories have.
    let scored = |order| {
        let mut moves = fixed::score(&legal, order, 0, pos.key());
        for m in moves.iter_mut().filter(|m| !is_tactical(m.mv)) {
            m.score = (m.mv.to() as i32 * 7) % 13;
        }
        moves
    };
    let mut by_selection = scored(MoveOrder::Worst);
    for i in 0..legal.len() {
        pick_next(&mut by_selection, i);
    }
    let mut stable = scored(MoveOrder::Worst);
    stable.sort_by_key(|m| std::cmp::Reverse(m.score));
    let names = |list: &ScoredMoves| list.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(names(&by_selection), names(&stable));
    assert!(by_selection.windows(2).all(|w| w[0].score >= w[1].score));
}
