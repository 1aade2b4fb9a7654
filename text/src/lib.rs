//! Hark's words, below every surface that shows them: the Fluent catalogues of `locales/` and
//! their lookup (`t_in`), choosing a language (`negotiate`), and the plain-text renderings that
//! more than one surface shows (`question`, `plain`). The page, the chat channels, pushes,
//! desktop notifications, exports and the daemon's own refusal pages all take their words from
//! here, so a question's headline or an answer in a line reads the same everywhere.
//!
//! # Layout
//! - `catalogues` — the Fluent sources (all five compiled in with the `compiled` feature; the
//!   browser installs the one its page carried) and the bundles made from them;
//! - `lookup` — a message in a language, with its variables, and dates as each language writes
//!   them;
//! - `negotiate` — the language a request asks for (cookie, `Accept-Language`) and the
//!   daemon's own (config, else the desktop's locale);
//! - `plain` — Markdown as one plain line, and cutting text to a length;
//! - `question` — a question's headline and name, an answer in a line, an outcome, a status.
//!
//! Imports run one way (SPEC §14): `app` and `server` use this crate, which uses `hark-core`
//! for the model alone. Nothing here knows leptos or HTTP.

pub mod catalogues;
pub mod lookup;
pub mod negotiate;
pub mod plain;
pub mod question;

#[cfg(all(test, feature = "compiled"))]
mod tests;

pub use fluent_bundle::FluentValue;
pub use hark_core::model::{Lang, UnknownLang};
pub use lookup::{date_time_in, t_in};
