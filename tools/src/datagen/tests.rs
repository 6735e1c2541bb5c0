//! The tests of `datagen.rs`: games, the soft node limit, the output's independence of the
//! thread count, continued runs.

use super::*;

#[test]
fn game_over_by_the_rules() {
    let mated = Position::from_fen("7k/7P/6K1/8/3B4/8/8/8 b - - 0 1", false).unwrap();
    assert_eq!(game_over(&mated, &[]), Some(2));
    let stalemate = Position::from_fen("8/8/8/8/8/6k1/6p1/6K1 w - - 0 1", false).unwrap();
    assert_eq!(game_over(&stalemate, &[]), Some(1));
    let start = Position::default();
    assert_eq!(game_over(&start, &[]), None);
    assert_eq!(game_over(&start, &[start.key(), 1, start.key()]), Some(1));
}

#[test]
fn games_are_deterministic_and_record_every_move() {
    let limit = MoveLimit {
        nodes: 300,
        hard_nodes: 3000,
        depth: None,
        eval: Evaluation::Positional,
        network: brudno_engine::eval::nnue::embedded(),
    };
    let openings = [Position::default()];
    let plies = RandomPlies { least: 6, most: 7 };
    let game = play_game(&openings, plies, &limit, 7, 3);
    assert!(!game.moves.is_empty());
    let bytes = game.to_bytes();
    assert_eq!(bytes, play_game(&openings, plies, &limit, 7, 3).to_bytes());
    assert_ne!(bytes, play_game(&openings, plies, &limit, 7, 4).to_bytes());
    let (read, used) = viriformat::Game::read(&bytes).unwrap();
    assert_eq!(used, bytes.len());
    assert_eq!(read.moves, game.moves);
    // The start is 6 or 7 plies in; every later move is there, whatever it is.
    let ply = |p: &Position| {
        let fen = p.fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        2 * (fields[5].parse::<usize>().unwrap() - 1) + usize::from(fields[1] == "b")
    };
    assert!((6..=7).contains(&ply(&game.start)), "{}", game.start.fen());
    // A repetition counts the positions from the recorded start on (the random plies before
    // it are not in the file; this game's repetition lies after them).
    let mut position = game.start.clone();
    let mut keys = Vec::new();
    for &(m, _) in &game.moves {
        assert!(position.legal_moves().contains(&m));
        keys.push(position.key());
        position.play_in_place(m);
    }
    let over = game_over(&position, &keys).is_some();
    let long = game.moves.len() + ply(&game.start) >= MAX_PLIES;
    // Ended by the rules, by adjudication (a score held long enough), or at the ply limit.
    let last: Vec<i32> = game
        .moves
        .iter()
        .rev()
        .take(WIN_PLIES)
        .map(|m| i32::from(m.1))
        .collect();
    let adjudicated = last.len() == WIN_PLIES
        && (last.iter().all(|&s| s >= WIN_SCORE) || last.iter().all(|&s| s <= -WIN_SCORE))
        || game
            .moves
            .iter()
            .rev()
            .take(DRAW_PLIES)
            .all(|m| i32::from(m.1).abs() <= DRAW_SCORE);
    assert!(over || long || adjudicated, "{}", position.fen());
}

/// A soft node limit stops between iterations: the search goes past it, but not as far as
/// the hard cap allows.
#[test]
fn the_soft_node_limit_ends_the_search_between_iterations() {
    let soft = MoveLimit {
        nodes: 2000,
        hard_nodes: 1_000_000,
        depth: None,
        eval: Evaluation::Positional,
        network: brudno_engine::eval::nnue::embedded(),
    };
    let tt = TranspositionTable::new(1);
    let control = SearchControl::default();
    control.begin(false);
    let limits = soft.limits();
    let result = Search {
        position: &Position::default(),
        history: &[],
        limits: &limits,
        config: &SearchConfig {
            eval: Evaluation::Positional,
            ..SearchConfig::default()
        },
        tt: &tt,
        control: &control,
        histories: None,
    }
    .run(&mut |_| {});
    assert!(result.stats.nodes >= 2000, "{}", result.stats.nodes);
    assert!(result.stats.nodes < 1_000_000, "{}", result.stats.nodes);
}

fn fast_limit() -> MoveLimit {
    MoveLimit {
        nodes: 200,
        hard_nodes: 2000,
        depth: None,
        eval: Evaluation::Positional,
        network: brudno_engine::eval::nnue::embedded(),
    }
}

/// Plays from `start` to 1000 moves; returns the bytes and every checkpoint.
fn play(threads: usize, start: Progress) -> (Vec<u8>, Vec<Progress>) {
    let openings = [Position::default()];
    let mut out = Vec::new();
    let report = Generation::new(1000, true);
    let checkpoints = Mutex::new(Vec::new());
    let record = |progress| {
        checkpoints.lock().unwrap().push(progress);
        Ok(())
    };
    let run = Run {
        start,
        target: 1000,
    };
    let plies = RandomPlies { least: 8, most: 9 };
    let end = generate(
        &openings,
        plies,
        fast_limit(),
        11,
        threads,
        run,
        &mut out,
        &report,
        &record,
    )
    .unwrap();
    assert!(end.moves >= 1000);
    assert_eq!(checkpoints.lock().unwrap().last(), Some(&end));
    (out, checkpoints.into_inner().unwrap())
}

#[test]
fn the_output_does_not_depend_on_the_thread_count() {
    let (one, checkpoints) = play(1, Progress::default());
    let end = *checkpoints.last().unwrap();
    assert_eq!(one.len() as u64, end.bytes);
    assert_eq!(viriformat::count(&one), Ok((end.next_game, end.moves)));
    assert_eq!(one, play(2, Progress::default()).0);
}

/// A run stopped after any game and continued from its checkpoint writes the same bytes
/// as a run that was never stopped.
#[test]
fn a_continued_run_writes_what_an_uninterrupted_one_does() {
    let (whole, checkpoints) = play(1, Progress::default());
    assert!(checkpoints.len() >= 3, "{checkpoints:?}");
    for &stop in &checkpoints[..checkpoints.len() - 1] {
        let (rest, _) = play(2, stop);
        let mut joined = whole[..stop.bytes as usize].to_vec();
        joined.extend_from_slice(&rest);
        assert!(joined == whole, "continued from {stop:?}");
    }
}
