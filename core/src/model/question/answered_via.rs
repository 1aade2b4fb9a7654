//! Where a question was answered or declined (`answeredVia`), and whether an answer may say it
//! came from there.

use serde::{Deserialize, Serialize};

/// Where a question was answered or declined, beside Hark's own page. Read from its name
/// (`TryFrom<String>`): the derive's reading of the untagged channel buffers the value, which
/// cost the page's WebAssembly a second reader of every type (issue 30).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", try_from = "String")]
pub enum AnsweredVia {
    /// Hark's page, on this computer or a paired device.
    Page,
    /// The agent's own window (MCP elicitation).
    Client,
    /// A push's answer button.
    Push,
    /// A rule the person kept ("Always allow", "Always deny"), at once.
    Rule,
    /// A chat channel, by its name.
    #[serde(untagged)]
    Channel(super::super::ChannelName),
}

impl TryFrom<String> for AnsweredVia {
    type Error = String;

    fn try_from(name: String) -> Result<AnsweredVia, String> {
        match name.as_str() {
            "page" => Ok(AnsweredVia::Page),
            "client" => Ok(AnsweredVia::Client),
            "push" => Ok(AnsweredVia::Push),
            "rule" => Ok(AnsweredVia::Rule),
            channel => super::super::ChannelName::ALL
                .into_iter()
                .find(|known| known.as_str() == channel)
                .map(AnsweredVia::Channel)
                .ok_or_else(|| {
                    format!(
                        "\"{name}\" is not a place to answer from: page, client, push or a channel"
                    )
                }),
        }
    }
}

impl AnsweredVia {
    /// Whether an answer can come from there: a channel only when a person answers in it.
    pub fn possible(self) -> bool {
        match self {
            AnsweredVia::Channel(channel) => channel.answers(),
            AnsweredVia::Page | AnsweredVia::Client | AnsweredVia::Push => true,
            // Only the daemon answers by a rule.
            AnsweredVia::Rule => false,
        }
    }
}
