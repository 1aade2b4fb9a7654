//! The bodies of the daemon's own routes: its health (how a shim recognises a Hark daemon),
//! its stopping, and how a phone reaches it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// `GET /api/health`: how the shim and the CLI recognise a Hark daemon.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    pub status: String,
    pub service: String,
    pub version: String,
    pub browser_clients: usize,
    pub pending: usize,
    /// Waits for an outcome open now: agents (and `hark ask`) waiting on a question.
    #[serde(default)]
    pub waits: usize,
    #[serde(deserialize_with = "super::rfc3339::deserialize")]
    pub timestamp: DateTime<Utc>,
}

impl Health {
    /// The `service` value every Hark daemon reports.
    pub const SERVICE: &'static str = "hark";
}

/// `POST /api/stop`: the daemon is stopping; `pid` is the process that will be gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stopping {
    pub pid: u32,
}

/// How a phone reaches this daemon (`GET /api/pairing`, the settings page, `hark url`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pairing {
    /// Whether the daemon listens on every interface (`--lan` or config `lan`).
    pub lan: bool,
    /// The page on this machine.
    pub local_url: String,
    /// In LAN mode, the page for a phone, with the token that pairs it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lan_url: Option<String>,
    /// In LAN mode, `lan_url` as a QR code in SVG (for the settings page only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qr_svg: Option<String>,
}
