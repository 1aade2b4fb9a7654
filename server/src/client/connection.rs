//! Reaching a daemon for the shim and the CLI: the local one (started on demand, race-safe) or
//! one elsewhere given by `--url` (never started).

use crate::client::detach;
use crate::client::{DaemonClient, Probe};
use std::path::PathBuf;

/// Where the daemon is and whether this process may start it.
#[derive(Clone)]
pub struct Connection {
    client: DaemonClient,
    /// `HARK_HOME` and port of a local daemon that may be started when none answers.
    local: Option<(PathBuf, u16)>,
}

impl Connection {
    /// The daemon on this machine, started from this executable when none answers.
    pub fn local(home: PathBuf, port: u16) -> Self {
        Self {
            client: DaemonClient::local(port),
            local: Some((home, port)),
        }
    }

    /// A daemon elsewhere; never started from here.
    pub fn remote(url: String, token: Option<String>) -> Self {
        Self {
            client: DaemonClient::new(url, token),
            local: None,
        }
    }

    /// The HTTP client.
    pub fn client(&self) -> &DaemonClient {
        &self.client
    }

    /// Makes sure a Hark daemon answers, starting the local one if needed. Several callers may
    /// race here: every loser of the port finds the winner's daemon.
    ///
    /// # Errors
    /// A sentence for the person: the port is someone else's, or no daemon could be reached.
    pub async fn ensure(&self) -> Result<(), String> {
        match self.client.probe().await {
            Probe::Hark(_) => Ok(()),
            Probe::Foreign => Err(self.foreign_port()),
            Probe::Nothing => match &self.local {
                Some((home, port)) => detach::detach(home, *port, &[]).await.map(|_| ()).map_err(
                    |error| match error {
                        detach::DetachError::PortTaken(_) => self.foreign_port(),
                        other => other.to_string(),
                    },
                ),
                None => Err(format!(
                    "no Hark daemon answers at {} (set by --url or HARK_URL)",
                    self.client.base()
                )),
            },
        }
    }

    fn foreign_port(&self) -> String {
        match &self.local {
            Some((_, port)) => format!(
                "port {port} is used by another program, not by Hark. Give Hark a free port with \
                 the HARK_PORT setting (for example HARK_PORT=13391 in the MCP server's env)."
            ),
            None => format!("{} does not answer as a Hark daemon", self.client.base()),
        }
    }
}
