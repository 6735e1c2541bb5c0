//! The accumulators: the hidden layer before its activation, one row of `hidden` values per
//! perspective, and how a move changes them.
//!
//! A move takes at most two pieces off squares and puts at most two on squares (the
//! `PieceChanges` that making it computed), so for a perspective whose king key (bucket and
//! mirroring) stays the same it adds at most two input rows and subtracts at most two. The
//! search keeps a `Stack` of accumulators by ply; making a move only records its changes,
//! and each perspective's accumulator is computed when its node is evaluated, from the
//! nearest computed ancestor with the same key (nodes that are never evaluated cost
//! nothing). When a king move changes its side's key, or no ancestor is near, that side is
//! *refreshed* from a per-thread cache that keeps, for every key, the last accumulator
//! computed with it and the board it was computed for (Stockfish's "Finny tables"): only the
//! pieces that differ between that board and this one are added or taken away. A refresh
//! from scratch (`Accumulator::refreshed`) is the reference every update is tested against.

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use super::simd::Kernels;
use super::{Architecture, KingKey, Network, QA};
use crate::eval::Value;
use crate::position::{PieceChanges, Position};

/// Beyond this many pending updates, a refresh from the cache is cheaper.
const MAX_PENDING: usize = 16;

/// The arithmetic of an evaluation: one perspective's accumulator from its parent's, and the
/// output layer's dot product. The network's run-time kernels are one (`Kernels`, any width,
/// any processor); `fixed.rs` compiles another for each width it knows, so that one
/// evaluation path serves both.
trait Arithmetic {
    /// The hidden layer's width: `hidden`, the network's, or the one compiled in (the same
    /// number, known to the compiler).
    fn width(&self, hidden: usize) -> usize;
    /// Row `index` of `rows`, a matrix of rows of `width(hidden)` values.
    #[inline(always)]
    fn row<'n>(&self, rows: &'n [i16], hidden: usize, index: usize) -> &'n [i16] {
        let width = self.width(hidden);
        &rows[index * width..][..width]
    }
    /// `out = parent + the rows of the pieces `changes` puts on the board - the rows of those
    /// it takes off`, each piece's row given by `row`.
    fn update<'n>(
        &self,
        out: &mut [i16],
        parent: &[i16],
        changes: &PieceChanges,
        row: impl Fn(&(Piece, Square)) -> &'n [i16],
    );
    /// `sum(clamp(v, 0, QA)^2 * w)` over the values `v` and the weights `w`.
    fn screlu_dot(&self, values: &[i16], weights: &[i16]) -> i64;
}

impl Arithmetic for Kernels {
    #[inline(always)]
    fn width(&self, hidden: usize) -> usize {
        hidden
    }

    #[inline(always)]
    fn update<'n>(
        &self,
        out: &mut [i16],
        parent: &[i16],
        changes: &PieceChanges,
        row: impl Fn(&(Piece, Square)) -> &'n [i16],
    ) {
        let (added, removed) = (changes.added(), changes.removed());
        let mut add: [&[i16]; 2] = [&[]; 2];
        let mut sub: [&[i16]; 2] = [&[]; 2];
        for (slot, change) in add.iter_mut().zip(added) {
            *slot = row(change);
        }
        for (slot, change) in sub.iter_mut().zip(removed) {
            *slot = row(change);
        }
        (self.update)(out, parent, &add[..added.len()], &sub[..removed.len()])
    }

    #[inline(always)]
    fn screlu_dot(&self, values: &[i16], weights: &[i16]) -> i64 {
        (self.screlu_dot)(values, weights, QA as i16)
    }
}

/// The hidden layer of both perspectives before the activation (White's, then Black's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// `2 x hidden` values: White's perspective, then Black's.
    values: Vec<i16>,
}

impl Accumulator {
    /// The accumulator of `board`, computed from scratch.
    pub fn refreshed(board: &Board, network: &Network) -> Self {
        let hidden = network.arch.hidden;
        let mut values = Vec::with_capacity(2 * hidden);
        for perspective in [Color::White, Color::Black] {
            let key = network.arch.board_key(perspective, board);
            let mut side = network.b1.clone();
            for (square, piece) in board.iter() {
                let row = network.row(network.arch.feature(perspective, key, piece, square));
                for (v, w) in side.iter_mut().zip(row) {
                    *v = v.wrapping_add(*w);
                }
            }
            values.extend_from_slice(&side);
        }
        Accumulator { values }
    }

    /// The values of `perspective`.
    #[inline]
    pub fn side(&self, perspective: Color) -> &[i16] {
        let hidden = self.values.len() / 2;
        match perspective {
            Color::White => &self.values[..hidden],
            Color::Black => &self.values[hidden..],
        }
    }
}

/// Whether the processor counts bits in one instruction (every one with AVX2 does).
fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("popcnt");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Where a perspective's values sit: White's first, then Black's (shakmaty numbers Black 0).
#[inline]
fn side_index(perspective: Color) -> usize {
    match perspective {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The piece bitboards of a board, by colour and role (`Piece` order: colour, then role).
type Pieces = [Bitboard; 12];

fn pieces_of(board: &Board) -> Pieces {
    let mut out = [Bitboard::EMPTY; 12];
    for (index, slot) in out.iter_mut().enumerate() {
        *slot = board.by_piece(piece_of(index));
    }
    out
}

fn piece_of(index: usize) -> Piece {
    let color = if index < 6 {
        Color::White
    } else {
        Color::Black
    };
    Piece {
        color,
        role: Role::ALL[index % 6],
    }
}

/// One perspective's cached accumulator for one king key, and the pieces it was computed
/// for (empty before its first use, when the accumulator holds the biases alone).
#[derive(Clone)]
struct CacheEntry {
    values: Vec<i16>,
    pieces: Pieces,
}

/// What the stack knows of the node at one ply besides its values (one array of plies: a
/// move writes one entry).
#[derive(Clone, Copy, Debug)]
struct PlyState {
    /// The change from the node at `ply - 1` to the node at `ply`.
    changes: PieceChanges,
    /// Each perspective's king key.
    keys: [KingKey; 2],
    /// Whether each perspective's accumulator is up to date for the node on the current
    /// path.
    computed: [bool; 2],
    /// Whether the move to this ply changed a perspective's king key (then that side cannot
    /// be updated from the ply before).
    key_changed: [bool; 2],
}

/// The accumulators of one searching thread, by ply, with their refresh cache.
pub struct Stack {
    arch: Architecture,
    /// Whether a king move can change a king key (more than one bucket, or mirroring).
    keys_vary: bool,
    /// `plies x 2 x hidden` values: the node at `ply`, White's then Black's perspective.
    values: Vec<i16>,
    /// The nodes by ply.
    plies: Vec<PlyState>,
    /// The refresh cache: per perspective, per king key index.
    cache: [Vec<CacheEntry>; 2],
    /// Whether the network runs its AVX2 loops on a processor with `popcnt` as well (then a
    /// width of `fixed.rs` takes its path).
    avx2: bool,
    /// The output bucket by number of pieces on the board (`Architecture::output_bucket`).
    output_bucket: [u8; 65],
}

impl Stack {
    /// A stack for plies `0..plies` of a network of shape `arch`.
    pub fn new(plies: usize, network: &Network) -> Self {
        let arch = network.arch;
        let hidden = arch.hidden;
        let entry = CacheEntry {
            values: network.b1.clone(),
            pieces: [Bitboard::EMPTY; 12],
        };
        let keys_per_side = arch.king_buckets * 2;
        let ply = PlyState {
            changes: PieceChanges::NONE,
            keys: [KingKey::default(); 2],
            computed: [false; 2],
            key_changed: [true; 2],
        };
        Self {
            arch,
            keys_vary: arch.king_buckets > 1 || arch.mirrored,
            values: vec![0; plies * 2 * hidden],
            plies: vec![ply; plies],
            cache: [
                vec![entry.clone(); keys_per_side],
                vec![entry; keys_per_side],
            ],
            avx2: network.simd_name() == "avx2" && has_popcnt(),
            output_bucket: std::array::from_fn(|pieces| arch.output_bucket(pieces) as u8),
        }
    }

    /// The root of a new search: `pos` is the node at ply 0.
    pub fn set_root(&mut self, pos: &Position) {
        self.reset();
        for perspective in [Color::White, Color::Black] {
            self.plies[0].keys[side_index(perspective)] =
                self.arch.board_key(perspective, pos.board());
        }
        self.plies[0].key_changed = [true; 2];
    }

    /// The node at `ply` is reached by a move that made `changes`.
    #[inline]
    pub fn push_move(&mut self, ply: usize, changes: &PieceChanges) {
        let mut keys = self.plies[ply - 1].keys;
        let mut key_changed = [false; 2];
        // Only a king move can change a key, and a king move puts its king down first.
        if self.keys_vary
            && let Some(&(piece, square)) = changes.added().first()
            && piece.role == Role::King
        {
            let side = side_index(piece.color);
            let key = self.arch.king_key(piece.color, square);
            key_changed[side] = key != keys[side];
            keys[side] = key;
        }
        self.plies[ply] = PlyState {
            changes: *changes,
            keys,
            computed: [false; 2],
            key_changed,
        };
    }

    /// The node at `ply` is reached by a null move.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        self.plies[ply] = PlyState {
            changes: PieceChanges::NONE,
            keys: self.plies[ply - 1].keys,
            computed: [false; 2],
            key_changed: [false; 2],
        };
    }

    /// Forgets every accumulator (a new root with the same keys is set by `set_root`).
    pub fn reset(&mut self) {
        self.plies.iter_mut().for_each(|p| p.computed = [false; 2]);
    }

    /// Where the values of side `side` at `ply` sit in `values` (for the tests; the
    /// evaluation computes it with its arithmetic's width).
    #[cfg(test)]
    fn slot(&self, ply: usize, side: usize) -> std::ops::Range<usize> {
        let hidden = self.arch.hidden;
        let start = (ply * 2 + side) * hidden;
        start..start + hidden
    }

    /// The evaluation of `pos`, the node at `ply` on the current path, from the side to
    /// move: each perspective's accumulator brought up to date from the nearest computed
    /// ancestor, or refreshed from the cache. A network whose width `fixed.rs` compiles in,
    /// on a processor with AVX2, runs with that width's arithmetic; any other with the
    /// network's kernels. Both run the one path of `evaluate_with`.
    #[inline]
    pub fn evaluate(&mut self, ply: usize, pos: &Position, network: &Network) -> Value {
        if let Some(value) = self.evaluate_fixed(ply, pos, network) {
            return value;
        }
        self.evaluate_generic(ply, pos, network)
    }

    /// `evaluate` with the network's kernels (any width, any processor): the reference the
    /// fixed-width arithmetic of `fixed.rs` is tested against.
    pub fn evaluate_generic(&mut self, ply: usize, pos: &Position, network: &Network) -> Value {
        self.evaluate_with(network.kernels(), ply, pos, network)
    }

    /// The evaluation with `arithmetic`: both perspectives brought up to date, then the
    /// output layer of the board's output bucket.
    #[inline(always)]
    fn evaluate_with(
        &mut self,
        arithmetic: &impl Arithmetic,
        ply: usize,
        pos: &Position,
        network: &Network,
    ) -> Value {
        let board = pos.board();
        for perspective in [Color::White, Color::Black] {
            self.bring_up_to_date(arithmetic, ply, perspective, board, network);
        }
        let width = arithmetic.width(self.arch.hidden);
        let node = &self.values[ply * 2 * width..][..2 * width];
        let (white, black) = node.split_at(width);
        let (us, them) = match pos.turn() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        // The bucket from a table: `output_bucket`'s two divisions cost more than the rest.
        let pieces = board.occupied().0.count_ones() as usize;
        let bucket = usize::from(self.output_bucket[pieces.min(64)]);
        let weights = &network.w2[bucket * 2 * width..][..2 * width];
        let (w_us, w_them) = weights.split_at(width);
        let sum = arithmetic.screlu_dot(us, w_us) + arithmetic.screlu_dot(them, w_them);
        network.output_from(sum, bucket)
    }

    /// The nearest computed ancestor of the node at `ply` that `side` reaches without a
    /// change of its king key, and no more than `MAX_PENDING` plies up.
    #[inline(always)]
    fn nearest_computed(&self, ply: usize, side: usize) -> Option<usize> {
        let mut at = ply;
        while !self.plies[at].key_changed[side] && at > 0 && ply - at < MAX_PENDING {
            at -= 1;
            if self.plies[at].computed[side] {
                return Some(at);
            }
        }
        None
    }

    /// Brings `perspective`'s accumulator at `ply` up to date: one update per move from the
    /// nearest computed ancestor, or a refresh from the cache when there is none.
    #[inline(always)]
    fn bring_up_to_date(
        &mut self,
        arithmetic: &impl Arithmetic,
        ply: usize,
        perspective: Color,
        board: &Board,
        network: &Network,
    ) {
        let side = side_index(perspective);
        if self.plies[ply].computed[side] {
            return;
        }
        let Some(start) = self.nearest_computed(ply, side) else {
            self.refresh(ply, perspective, board, network);
            return;
        };
        let (arch, key) = (self.arch, self.plies[ply].keys[side]);
        let width = arithmetic.width(arch.hidden);
        let row = |&(piece, square): &(Piece, Square)| {
            arithmetic.row(
                &network.w1,
                width,
                arch.feature(perspective, key, piece, square),
            )
        };
        for p in start + 1..=ply {
            let child = (p * 2 + side) * width;
            let (before, after) = self.values.split_at_mut(child);
            let parent = &before[child - 2 * width..][..width];
            let changes = &self.plies[p].changes;
            arithmetic.update(&mut after[..width], parent, changes, row);
            self.plies[p].computed[side] = true;
        }
    }

    /// Refreshes `perspective` at `ply` from the cache entry of its king key: the pieces
    /// that differ between the entry's board and `board` are added or taken away, then the
    /// entry remembers this board.
    fn refresh(&mut self, ply: usize, perspective: Color, board: &Board, network: &Network) {
        let side = side_index(perspective);
        let key = self.plies[ply].keys[side];
        let arch = self.arch;
        let entry = &mut self.cache[side][key.index()];
        let now = pieces_of(board);
        let mut add: ArrayVec<&[i16], 32> = ArrayVec::new();
        let mut sub: ArrayVec<&[i16], 32> = ArrayVec::new();
        for (index, (&was, &is)) in entry.pieces.iter().zip(&now).enumerate() {
            let piece = piece_of(index);
            let row = |square| network.row(arch.feature(perspective, key, piece, square));
            for square in is & !was {
                if add.is_full() {
                    (network.kernels().apply)(&mut entry.values, &add, &[]);
                    add.clear();
                }
                add.push(row(square));
            }
            for square in was & !is {
                if sub.is_full() {
                    (network.kernels().apply)(&mut entry.values, &[], &sub);
                    sub.clear();
                }
                sub.push(row(square));
            }
        }
        (network.kernels().apply)(&mut entry.values, &add, &sub);
        entry.pieces = now;
        let hidden = arch.hidden;
        let start = (ply * 2 + side) * hidden;
        self.values[start..start + hidden].copy_from_slice(&entry.values);
        self.plies[ply].computed[side] = true;
    }
}

mod fixed;
#[cfg(test)]
mod tests;
