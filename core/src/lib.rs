//! Hark's hub, without UI or HTTP: the shared model of SPEC §2 (`model`), the one place where
//! questions change state (`store`), and the durable log that records every change (`log`).
//!
//! # Layout
//! - `model` — every type that crosses a boundary (REST, WebSocket, server functions, MCP,
//!   CLI, channels), its validation, the event enum and `Lang`; compiles for wasm too;
//! - `store` — decides each change in memory under a short lock (no I/O), announces it, and
//!   hands it to the log; waiters, deadlines and reminders;
//! - `log` — SQLite on one writer thread that commits whatever has queued in one transaction
//!   and one fsync (group commit), and a read connection for pages and exports.
//!
//! Imports run one way (SPEC §14): `app`, `server` and `hark-text` use this crate, never the
//! other way. Nothing here knows HTTP statuses or Fluent keys; the edges map `StoreError` to
//! those.

pub mod model;

#[cfg(feature = "store")]
pub mod log;
#[cfg(feature = "store")]
pub mod store;
