//! The shape of the positional evaluation's weights: the `S` pair, the `Weights` record and
//! its flat layout for the tuner (`index`, `to_flat`, `from_flat`).
//!
//! The type lives here, the values the engine plays with in `params.rs` (the file `brudno
//! tune` writes) and the code that uses them in `positional.rs`; both of those import this
//! module and neither imports the other's code, so the dependency goes one way. This module
//! holds no values and evaluates nothing.

/// A weight: (middlegame, endgame) centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

/// All weights of the positional evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Piece values, pawn to king (the king's is unused).
    pub material: [S; 6],
    /// Piece-square tables, pawn to king, White's view, rank 8 first.
    pub pst: [[S; 64]; 6],
    /// Knight mobility by the number of safe squares it attacks.
    pub mobility_knight: [S; 9],
    /// Bishop mobility.
    pub mobility_bishop: [S; 14],
    /// Rook mobility.
    pub mobility_rook: [S; 15],
    /// Queen mobility.
    pub mobility_queen: [S; 28],
    /// Passed pawn by relative rank.
    pub passed_pawn: [S; 8],
    /// Per extra pawn on a file.
    pub doubled_pawn: S,
    /// Per pawn with no friendly pawn on an adjacent file.
    pub isolated_pawn: S,
    /// For having two bishops or more.
    pub bishop_pair: S,
    /// Rook on a file without pawns.
    pub rook_open_file: S,
    /// Rook on a file without own pawns.
    pub rook_semi_open_file: S,
    /// Own pawns one and two ranks in front of the king (on its file and the adjacent ones).
    pub king_shield: [S; 2],
    /// Per square of the enemy king's zone attacked, by knight, bishop, rook, queen.
    pub king_attack: [S; 4],
    /// For the side to move.
    pub tempo: S,
}

/// Offsets of each section in the flat weight vector the tuner works on.
pub mod index {
    /// `material[6]`.
    pub const MATERIAL: usize = 0;
    /// `pst[6][64]`.
    pub const PST: usize = MATERIAL + 6;
    /// `mobility_knight[9]`.
    pub const MOBILITY_KNIGHT: usize = PST + 6 * 64;
    /// `mobility_bishop[14]`.
    pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
    /// `mobility_rook[15]`.
    pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
    /// `mobility_queen[28]`.
    pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
    /// `passed_pawn[8]`.
    pub const PASSED_PAWN: usize = MOBILITY_QUEEN + 28;
    /// `doubled_pawn`.
    pub const DOUBLED_PAWN: usize = PASSED_PAWN + 8;
    /// `isolated_pawn`.
    pub const ISOLATED_PAWN: usize = DOUBLED_PAWN + 1;
    /// `bishop_pair`.
    pub const BISHOP_PAIR: usize = ISOLATED_PAWN + 1;
    /// `rook_open_file`.
    pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
    /// `rook_semi_open_file`.
    pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
    /// `king_shield[2]`.
    pub const KING_SHIELD: usize = ROOK_SEMI_OPEN_FILE + 1;
    /// `king_attack[4]`.
    pub const KING_ATTACK: usize = KING_SHIELD + 2;
    /// `tempo`.
    pub const TEMPO: usize = KING_ATTACK + 4;
    /// Number of weights.
    pub const COUNT: usize = TEMPO + 1;
}

impl Weights {
    /// Every weight zero: the starting point `from_flat` fills in.
    pub const ZERO: Weights = Weights {
        material: [S(0, 0); 6],
        pst: [[S(0, 0); 64]; 6],
        mobility_knight: [S(0, 0); 9],
        mobility_bishop: [S(0, 0); 14],
        mobility_rook: [S(0, 0); 15],
        mobility_queen: [S(0, 0); 28],
        passed_pawn: [S(0, 0); 8],
        doubled_pawn: S(0, 0),
        isolated_pawn: S(0, 0),
        bishop_pair: S(0, 0),
        rook_open_file: S(0, 0),
        rook_semi_open_file: S(0, 0),
        king_shield: [S(0, 0); 2],
        king_attack: [S(0, 0); 4],
        tempo: S(0, 0),
    };

    /// The weights as one flat vector (the tuner's view), in `index` order.
    pub fn to_flat(&self) -> Vec<S> {
        let mut flat = Vec::with_capacity(index::COUNT);
        flat.extend_from_slice(&self.material);
        for table in &self.pst {
            flat.extend_from_slice(table);
        }
        flat.extend_from_slice(&self.mobility_knight);
        flat.extend_from_slice(&self.mobility_bishop);
        flat.extend_from_slice(&self.mobility_rook);
        flat.extend_from_slice(&self.mobility_queen);
        flat.extend_from_slice(&self.passed_pawn);
        flat.extend([
            self.doubled_pawn,
            self.isolated_pawn,
            self.bishop_pair,
            self.rook_open_file,
            self.rook_semi_open_file,
        ]);
        flat.extend_from_slice(&self.king_shield);
        flat.extend_from_slice(&self.king_attack);
        flat.push(self.tempo);
        debug_assert_eq!(flat.len(), index::COUNT);
        flat
    }

    /// Rebuilds weights from a flat vector of `index::COUNT` entries.
    pub fn from_flat(flat: &[S]) -> Self {
        assert_eq!(flat.len(), index::COUNT, "flat weight vector length");
        let mut weights = Weights::ZERO;
        let mut at = 0;
        let mut take = |out: &mut [S]| {
            out.copy_from_slice(&flat[at..at + out.len()]);
            at += out.len();
        };
        take(&mut weights.material);
        for table in &mut weights.pst {
            take(table);
        }
        take(&mut weights.mobility_knight);
        take(&mut weights.mobility_bishop);
        take(&mut weights.mobility_rook);
        take(&mut weights.mobility_queen);
        take(&mut weights.passed_pawn);
        let mut singles = [S::default(); 5];
        take(&mut singles);
        [
            weights.doubled_pawn,
            weights.isolated_pawn,
            weights.bishop_pair,
            weights.rook_open_file,
            weights.rook_semi_open_file,
        ] = singles;
        take(&mut weights.king_shield);
        take(&mut weights.king_attack);
        let mut tempo = [S::default()];
        take(&mut tempo);
        weights.tempo = tempo[0];
        weights
    }
}
