//! The readers count their work, so a test can tell a linear reading from a quadratic one
//! without a clock: every figure visited, every byte of a sentence, clause or line read for
//! one decision, every byte a regex is run over by the readers' hot paths. The count is this
//! thread's (a check runs on one thread), only ever added to; read it before and after.

use std::cell::Cell;

thread_local! {
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// The work counted on this thread so far.
pub fn count() -> u64 {
    WORK.with(Cell::get)
}

/// Count `n` units of work: figures visited, or bytes read.
pub(crate) fn add(n: usize) {
    WORK.with(|w| w.set(w.get().saturating_add(n as u64)));
}
