//! One trial contained: a hostile model, the sandbox, the behavioural probe.

mod hostile;
mod probe;
mod reasoning;
mod round3;
mod round4;
mod sandbox;
