//! Reusable pieces of the UI.

pub mod age;
pub mod attachments;
pub mod draft;
pub mod elsewhere;
pub mod failure;
pub mod header;
pub mod keys;
pub mod phone;
pub mod prefs_picker;
pub mod presets;
pub mod presets_settings;
pub mod question_form;
pub mod rich_text;
#[cfg(feature = "hydrate")]
pub mod shrink;
pub mod status_chip;
pub mod telegram_bot;
