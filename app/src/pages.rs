//! One module per page (the inbox, a question, the agents, settings, the not-found page), each
//! page's own parts in its folder.

pub mod agents;
pub mod home;
pub mod not_found;
pub mod question;
pub mod settings;
