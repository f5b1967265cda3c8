//! `boardkit serve`: the games in a browser. A kit-only tool, like
//! [`crate::tui`] and [`crate::net`]: starters never get it nor its crates
//! (tokio, axum).
//!
//! The rules and the AIs stay in the library and run on the server; the
//! page (HTML, script and style embedded in the binary, no build step, no
//! network) only draws the state it is sent and sends the player's choice.
//!
//! - [`api`]: the JSON a client sends and gets back.
//! - [`games`]: each game as a browser table sees it, over the library.
//! - [`store`]: the live games, bounded (a cap, an idle expiry).
//! - [`server`]: the HTTP routes, the limits, `boardkit serve` itself.

pub(crate) mod api;
pub(crate) mod games;
pub(crate) mod server;
pub(crate) mod store;

pub(crate) use games::WebTable;
pub(crate) use server::{ServeArgs, serve};
