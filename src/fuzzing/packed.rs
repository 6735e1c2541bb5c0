//! Fuzz target for the training-data records of `brudno datagen` (`tools/packed.rs`).
//!
//! The input is a data file. Every record is decoded or refused with a reason, the trailing
//! part of a record included; the count of both adds up. A record that decodes is a legal
//! position whose key is right, it prints as text, and encoding it again gives a record that
//! decodes to the same position, score, result and game start.

use crate::tools::packed::{self, RECORD_BYTES};

/// Reads the input as a file of records.
pub fn records(data: &[u8]) {
    let mut refused = 0;
    let records = packed::decode_all(data, &mut |_, why| {
        assert!(!why.is_empty(), "a record refused without a reason");
        refused += 1;
    });
    let trailing = usize::from(!data.len().is_multiple_of(RECORD_BYTES));
    assert_eq!(
        records.len() + refused,
        data.len() / RECORD_BYTES + trailing
    );
    for record in &records {
        let position = &record.position;
        assert_eq!(position.key(), position.full_key());
        assert!(record.result <= 2);
        let text = packed::to_text(record);
        assert!(text.starts_with(&position.fen()), "{text}");
        let bytes = packed::encode(position, record.score, record.result, record.game_start);
        let again = packed::decode(&bytes)
            .unwrap_or_else(|why| panic!("{text}: its own encoding is refused: {why}"));
        assert_eq!(again.position.fen(), position.fen(), "{text}");
        assert_eq!(again.position.key(), position.key(), "{text}");
        assert_eq!(
            (again.score, again.result, again.game_start),
            (record.score, record.result, record.game_start),
            "{text}"
        );
    }
}
