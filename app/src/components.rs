//! The pieces of the UI more than one page uses (a page's own parts live in its folder under
//! `pages/`).

pub mod age;
pub mod failure_notice;
pub mod header;
pub mod prefs_picker;
pub mod status_chip;
pub mod tell_agent;
