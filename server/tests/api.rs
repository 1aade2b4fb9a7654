//! Integration tests: each starts the real `hark` binary on an ephemeral port with a temporary
//! `HARK_HOME` and talks HTTP and WebSocket to it, as a user's tools would.

mod api {
    pub mod support;
    pub mod world;

    mod acp;

    mod ask;
    pub mod channels;
    mod clean_stop;
    mod cli;
    mod config;
    mod crowd;
    mod desktop;
    mod discord;
    mod errors;
    pub mod events;
    pub mod fake_discord;
    pub mod fake_feishu;
    #[cfg(target_os = "linux")]
    pub mod fake_notifications;
    pub mod fake_slack;
    pub mod fake_telegram;
    pub mod fake_wechat;
    mod feishu;
    mod hardening;
    mod history;
    pub mod hook;
    mod hook_agents;
    mod hook_forms;
    mod hub;
    mod images;
    mod in_process;
    mod lan;
    mod languages;
    mod mcp;
    mod mcp_clients;
    mod mcp_http;
    mod mcp_in_process;
    mod mcp_rounds;
    mod mcp_tasks;
    mod mcp_tasks_2025;
    mod mcp_waiting;
    mod messages;
    mod other_accounts;
    mod outbound;
    pub mod pages;
    mod pairing;
    mod questions;
    mod rules;
    mod security;
    mod sessions;
    mod slack;
    mod switched_wait;
    pub mod telegram;
    mod telegram_lifecycle;
    mod typing;
    mod wechat;
}
