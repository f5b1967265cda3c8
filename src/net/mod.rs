//! Network play (SPEC 7, "Network"): `boardkit host <GAME>` and
//! `boardkit join <HOST:PORT>`, two people over TCP, velha or connect four
//! (Mastermind has one player and is not played over the network).
//!
//! - [`protocol`]: the messages (line-delimited JSON, a versioned hello),
//!   the bounded reader, the faults a peer can commit.
//! - [`games`]: each game's rules and words for network play, over the
//!   library's boards, and [`games::Round`], one game's moves.

pub mod games;
pub mod protocol;
