//! What MCP clients do with a long tool call, in one place, so `hark mcp --max-wait auto` can
//! hand off to `get_answer` before a client cuts the call. Known behaviour (2026): Codex stops a
//! tool call after `tool_timeout_sec`, 60 s unless configured; Claude Desktop cuts calls at
//! about 60 s whatever progress it hears; Cursor has cut calls at 5 min. Claude Code, VS Code
//! and clients that honour progress notifications keep waiting, so they get no deadline.

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
pub fn handoff_for(client: &str) -> Option<Duration> {
    let client = client.to_ascii_lowercase();
    HARD_LIMITS
        .iter()
        .find(|(pattern, _)| client.contains(pattern))
        .map(|(_, limit)| limit.saturating_sub(MARGIN))
}

/// `--max-wait`: `auto` (the client's known limit), `off`, or a number of seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MaxWait {
    #[default]
    Auto,
    Off,
    After(Duration),
}

impl MaxWait {
    /// The hand-off for a call from `client` (its `clientInfo.name`, if it gave one).
    pub fn for_client(self, client: Option<&str>) -> Option<Duration> {
        match self {
            MaxWait::Auto => client.and_then(handoff_for),
            MaxWait::Off => None,
            MaxWait::After(after) => Some(after),
        }
    }
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
            handoff_for("codex-mcp-client"),
            Some(Duration::from_secs(50))
        );
        assert_eq!(handoff_for("claude-ai"), Some(Duration::from_secs(50)));
        assert_eq!(handoff_for("Cursor-VSCode"), Some(Duration::from_secs(290)));
        for waits in ["claude-code", "Visual Studio Code", "hark-test", ""] {
            assert_eq!(handoff_for(waits), None, "{waits}");
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
        assert_eq!(
            MaxWait::Auto.for_client(Some("codex-mcp-client")),
            Some(Duration::from_secs(50))
        );
        assert_eq!(MaxWait::Auto.for_client(None), None);
        assert_eq!(MaxWait::Off.for_client(Some("codex-mcp-client")), None);
    }
}
