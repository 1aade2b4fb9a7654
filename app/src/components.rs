//! Reusable pieces of the UI.

pub mod header;
pub mod question_form;
pub mod status_chip;
