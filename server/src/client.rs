//! A typed HTTP client of the daemon, shared by the CLI commands (and, later, the MCP shim).

use app::model::Health;
use std::time::Duration;

/// A daemon at `base` (`http://127.0.0.1:13390`).
#[derive(Clone)]
pub struct DaemonClient {
    base: String,
    http: reqwest::Client,
}

/// What answers on a port.
#[derive(Debug)]
pub enum Probe {
    Hark(Health),
    /// Something answered, but it is not Hark.
    Foreign,
    Nothing,
}

impl DaemonClient {
    /// A client of the daemon on this machine's `port`.
    pub fn local(port: u16) -> Self {
        Self::new(format!("http://127.0.0.1:{port}"))
    }

    /// A client of the daemon at `base`.
    pub fn new(base: String) -> Self {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(2))
            .build()
            .unwrap_or_default();
        Self { base, http }
    }

    /// The daemon's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Asks `/api/health` who is there.
    pub async fn probe(&self) -> Probe {
        let response = self
            .http
            .get(format!("{}/api/health", self.base))
            .timeout(Duration::from_secs(2))
            .send()
            .await;
        let Ok(response) = response else {
            return Probe::Nothing;
        };
        match response.json::<Health>().await {
            Ok(health) if health.service == Health::SERVICE => Probe::Hark(health),
            _ => Probe::Foreign,
        }
    }
}
