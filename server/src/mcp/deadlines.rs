//! What MCP clients do with a long tool call, in one place, so `hark mcp --max-wait auto` can
//! hand off to `get_answer` before a client cuts the call. Known behaviour (2026): Codex stops a
//! tool call after `tool_timeout_sec`, 60 s unless configured; Claude Desktop cuts calls at
//! about 60 s whatever progress it hears; Cursor has cut calls at 5 min. Claude Code, VS Code
//! and clients that honour progress notifications keep waiting, so they get no deadline. A
//! person who changed a client's limit (Codex's `tool_timeout_sec`) says so with
//! `--client-limit codex=600`, which comes before what is known.

use std::str::FromStr;
use std::time::Duration;

/// A client's `clientInfo.name` (matched without regard to case, anywhere in the name) and
/// the longest call it allows.
const HARD_LIMITS: [(&str, Duration); 3] = [
    ("codex", Duration::from_secs(60)),
    ("claude-ai", Duration::from_secs(60)),
    ("cursor", Duration::from_secs(300)),
];

/// How long before a client's limit the call hands off, so the pending result arrives in time.
const MARGIN: Duration = Duration::from_secs(10);

/// When a call from `client` should hand off to `get_answer`: `None` for a client that waits.
/// `configured` (the person's `--client-limit`s) is looked through before the known limits.
pub fn handoff_for(client: &str, configured: &[ClientLimit]) -> Option<Duration> {
    let client = client.to_ascii_lowercase();
    let configured = configured
        .iter()
        .map(|limit| (limit.pattern.as_str(), limit.limit));
    configured
        .chain(HARD_LIMITS)
        .find(|(pattern, _)| client.contains(pattern))
        // A short limit keeps half of itself for the answer to arrive in.
        .map(|(_, limit)| limit.saturating_sub(MARGIN).max(limit / 2))
}

/// `--client-limit NAME=SECS`: the longest call a client allows, as the person configured it.
/// `NAME` is matched as the known names are (without regard to case, anywhere in the
/// client's `clientInfo.name`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientLimit {
    pattern: String,
    limit: Duration,
}

impl FromStr for ClientLimit {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let refused = || {
            format!(
                "--client-limit must be a client's name, = and a number of seconds above 0 (codex=600), not \"{text}\""
            )
        };
        let (name, seconds) = text.split_once('=').ok_or_else(refused)?;
        let name = name.trim().to_ascii_lowercase();
        match seconds.trim().parse::<u64>() {
            Ok(seconds) if seconds > 0 && !name.is_empty() => Ok(ClientLimit {
                pattern: name,
                limit: Duration::from_secs(seconds),
            }),
            _ => Err(refused()),
        }
    }
}

/// How `hark mcp` hands calls off: `--max-wait` and the person's `--client-limit`s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandOff {
    pub max_wait: MaxWait,
    pub client_limits: Vec<ClientLimit>,
}

impl HandOff {
    /// The hand-off for a call from `client` (its `clientInfo.name`, if it gave one).
    pub fn for_client(&self, client: Option<&str>) -> Option<Duration> {
        match self.max_wait {
            MaxWait::Auto => client.and_then(|client| handoff_for(client, &self.client_limits)),
            MaxWait::Off => None,
            MaxWait::After(after) => Some(after),
        }
    }
}

/// `--max-wait`: `auto` (the client's known limit), `off`, or a number of seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MaxWait {
    #[default]
    Auto,
    Off,
    After(Duration),
}

impl FromStr for MaxWait {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim() {
            "auto" => Ok(MaxWait::Auto),
            "off" => Ok(MaxWait::Off),
            seconds => match seconds.parse::<u64>() {
                Ok(seconds) if seconds > 0 => Ok(MaxWait::After(Duration::from_secs(seconds))),
                _ => Err(format!(
                    "--max-wait must be auto, off or a number of seconds above 0, not \"{text}\""
                )),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clients_that_cut_calls_get_a_hand_off_before_their_limit() {
        assert_eq!(
            handoff_for("codex-mcp-client", &[]),
            Some(Duration::from_secs(50))
        );
        assert_eq!(handoff_for("claude-ai", &[]), Some(Duration::from_secs(50)));
        assert_eq!(
            handoff_for("Cursor-VSCode", &[]),
            Some(Duration::from_secs(290))
        );
        for waits in ["claude-code", "Visual Studio Code", "hark-test", ""] {
            assert_eq!(handoff_for(waits, &[]), None, "{waits}");
        }
    }

    #[test]
    fn the_flag_reads_auto_off_or_seconds() {
        assert_eq!("auto".parse(), Ok(MaxWait::Auto));
        assert_eq!("off".parse(), Ok(MaxWait::Off));
        assert_eq!("45".parse(), Ok(MaxWait::After(Duration::from_secs(45))));
        for bad in ["0", "-3", "soon", ""] {
            assert!(bad.parse::<MaxWait>().is_err(), "{bad}");
        }
        let auto = HandOff::default();
        assert_eq!(
            auto.for_client(Some("codex-mcp-client")),
            Some(Duration::from_secs(50))
        );
        assert_eq!(auto.for_client(None), None);
        let off = HandOff {
            max_wait: MaxWait::Off,
            ..HandOff::default()
        };
        assert_eq!(off.for_client(Some("codex-mcp-client")), None);
    }

    #[test]
    fn a_limit_the_person_configured_comes_first() {
        let raised: ClientLimit = " Codex = 600 ".parse().unwrap();
        let short: ClientLimit = "slowpoke=8".parse().unwrap();
        let configured = [raised, short];
        assert_eq!(
            handoff_for("codex-mcp-client", &configured),
            Some(Duration::from_secs(590))
        );
        assert_eq!(
            handoff_for("SlowPoke 1.0", &configured),
            Some(Duration::from_secs(4)),
            "half of a short limit"
        );
        assert_eq!(
            handoff_for("claude-ai", &configured),
            Some(Duration::from_secs(50))
        );
        for bad in ["codex", "codex=", "=60", "codex=0", "codex=soon"] {
            let refused = bad.parse::<ClientLimit>().unwrap_err();
            assert!(refused.contains("--client-limit"), "{bad}: {refused}");
        }
    }
}
