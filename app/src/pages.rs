//! One page per file: the inbox, a question, and the not-found page.

pub mod home;
pub mod not_found;
pub mod question;
pub mod settings;
