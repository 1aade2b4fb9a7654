//! Hark's words, below every surface that shows them: the Fluent catalogues of `locales/` and
//! their lookup (`t_in`), choosing a language (`negotiate`), and the plain-text renderings that
//! more than one surface shows (`question`, `plain`). The page, the chat channels, pushes,
//! desktop notifications, exports and the daemon's own refusal pages all take their words from
//! here, so a question's headline or an answer in a line reads the same everywhere.
//!
//! # Layout
//! - `catalogues` — the Fluent sources and bundles (all five compiled in with the `server`
//!   feature); the browser installs the resolved catalogue its page carried instead;
//! - `words` — a catalogue resolved for the page (made by the daemon, walked by the browser,
//!   which thus needs no Fluent);
//! - `lookup` — a message in a language, with its variables, and dates as each language writes
//!   them;
//! - `negotiate` — the best language of an `Accept-Language`, and the daemon's own (config,
//!   else the desktop's locale); `request` reads a request's headers for it (server only);
//! - `markdown` — Markdown as one plain line (server only); `plain` — cutting to a length;
//! - `question` — a question's headline and name, an answer in a line, an outcome, a status;
//! - `session` — an agent session's state, and the notice of one that finished or waits.
//!
//! The `server` feature holds what only the daemon needs (Fluent and the compiled catalogues,
//! headers, Markdown); the page's WebAssembly goes without it. Imports run one way (SPEC §14):
//! `app` and `server` use this crate, which uses `hark-core` for the model alone and knows no
//! leptos.

pub mod catalogues;
pub mod lookup;
#[cfg(feature = "server")]
pub mod markdown;
pub mod negotiate;
pub mod plain;
pub mod question;
#[cfg(feature = "server")]
pub mod request;
pub mod session;
pub mod words;

#[cfg(all(test, feature = "server"))]
mod tests;

pub use hark_core::model::{Lang, UnknownLang};
pub use lookup::{date_time_in, language_name, t_in};
pub use words::Arg;
