//! Situation keys: everything the rest of a game depends on, as bytes, for
//! solvers that walk every situation a rule set allows.
//!
//! Two games with equal keys go on alike. The history is left out, so the
//! tower games' T10 counters (turns without progress, repetitions) are not
//! in the key: keys describe those games truly only with T10 off.

use std::hash::{Hash, Hasher};

use crate::Side;

/// A [`Hasher`] that keeps the bytes it is fed: a derived `Hash` then writes
/// a value's fields in order, which makes an exact key.
pub(crate) struct KeyBytes<'a>(pub(crate) &'a mut Vec<u8>);

impl Hasher for KeyBytes<'_> {
    fn finish(&self) -> u64 {
        0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

/// Writes a hashable value's fields into `out`.
pub(crate) fn push_hashed<T: Hash>(out: &mut Vec<u8>, value: &T) {
    value.hash(&mut KeyBytes(out));
}

/// A side as one byte.
pub(crate) fn side_byte(side: Side) -> u8 {
    side as u8
}

/// An optional small number as one byte (`0xff` for none).
pub(crate) fn opt_byte(value: Option<u8>) -> u8 {
    value.unwrap_or(u8::MAX)
}
