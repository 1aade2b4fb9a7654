//! What only the server does with the app: the document around it (`shell`, with the page's
//! catalogue block, preloads and the event stream opened early), islands' data blocks
//! (`data_block`), Markdown and data rendered for
//! pages (`render`, `json_yaml`), and the services the daemon provides to server functions
//! (`services`).

pub mod catalogue_block;
pub mod data_block;
pub mod early_socket;
pub mod inline_script;
pub mod island_script;
pub mod json_yaml;
pub mod preload;
pub mod render;
pub mod services;
pub mod shell;
