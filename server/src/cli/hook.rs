//! `hark hook <agent>`: an agent's own dialogs, asked in Hark (SPEC §12, §19). The agent runs it
//! as a hook command with the event's JSON on stdin, and reads what it prints:
//! - `claude`: Claude Code's questions, plans, other MCP servers' forms, permissions, after
//!   each tool the messages the person left for it, and its session (working, waiting in its
//!   own dialog, finished, continued by a reply);
//! - `codex`: Codex's permissions;
//! - `gemini`: Gemini CLI's tool calls (`BeforeTool`);
//! - `cursor`: Cursor's shell and MCP calls, and at `stop` the messages left for it;
//! - `copilot`: GitHub Copilot CLI's permissions (`permissionRequest`).
//!
//! Each agent's module reads its own input and writes its own answer, in the shapes of its own
//! reference (cited there); what they share is here (reading the input, asking and waiting) and
//! in `permission` (a permission prompt, the same for every agent), `elicitation` and `plan`.
//! Without an answer within `--wait` it prints nothing and exits 0, so the agent shows its own
//! dialog, and the Hark question is withdrawn with a note. Anything else is left alone.

mod claude;
mod codex;
mod copilot;
mod cursor;
mod elicitation;
mod gemini;
pub(in crate::cli) mod permission;
mod plan;
mod session;

use crate::client::Messages;
use crate::client::asking::{self, Ended};
use crate::client::connection::Connection;
use hark_core::model::{AskRequest, Source, WaitResult};
use hark_text::Lang;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::io::Read;
use std::process::ExitCode;
use std::time::Duration;
use tokio::time::Instant;

/// Claude Code's default hook timeout is 60 s: Hark gives up a little before, and as soon for
/// Codex (whose hooks may take 600 s), so the person at the terminal is not kept from their own
/// dialog for long.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(55);

/// The agents whose hooks Hark answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookAgent {
    Claude,
    Codex,
    Gemini,
    Cursor,
    Copilot,
}

impl HookAgent {
    /// The agent `hark hook <name>` names.
    ///
    /// # Errors
    /// A name Hark has no hook for, said in a sentence.
    pub fn named(name: &str) -> Result<HookAgent, String> {
        match name {
            "claude" => Ok(HookAgent::Claude),
            "codex" => Ok(HookAgent::Codex),
            "gemini" => Ok(HookAgent::Gemini),
            "cursor" => Ok(HookAgent::Cursor),
            "copilot" => Ok(HookAgent::Copilot),
            other => Err(format!(
                "hark hook: \"claude\" (Claude Code), \"codex\" (Codex), \"gemini\" (Gemini CLI), \
                 \"cursor\" (Cursor) and \"copilot\" (GitHub Copilot CLI) have hooks, not \"{other}\""
            )),
        }
    }

    fn product(self) -> &'static str {
        match self {
            HookAgent::Claude => "Claude Code",
            HookAgent::Codex => "Codex",
            HookAgent::Gemini => "Gemini CLI",
            HookAgent::Cursor => "Cursor",
            HookAgent::Copilot => "Copilot CLI",
        }
    }

    /// The name the agent's MCP client gives itself: its hook and its tools are one agent.
    fn client_name(self) -> &'static str {
        match self {
            HookAgent::Claude => "claude-code",
            HookAgent::Codex => "codex",
            HookAgent::Gemini => "gemini-cli",
            HookAgent::Cursor => "cursor",
            HookAgent::Copilot => "copilot-cli",
        }
    }

    /// The client a question of this hook says it came from (the page groups by it).
    fn client(self) -> String {
        format!(
            "{} (hark hook {})",
            self.client_name(),
            env!("CARGO_PKG_VERSION")
        )
    }

    /// What the hook prints when it cannot take an event at all: nothing, so the agent asks in
    /// its own dialog; but Gemini CLI (run with its tools approved) and Cursor let a call through
    /// on empty output, so for them an explicit "ask".
    fn own_dialog(self) -> ExitCode {
        match self {
            HookAgent::Gemini => println!("{}", serde_json::json!({"decision": "ask"})),
            HookAgent::Cursor => println!("{}", serde_json::json!({"permission": "ask"})),
            HookAgent::Claude | HookAgent::Codex | HookAgent::Copilot => {}
        }
        ExitCode::SUCCESS
    }

    /// The note on a question the hook withdrew.
    fn no_answer_note(self) -> String {
        format!(
            "no answer in time: {} asks in its own dialog",
            self.product()
        )
    }
}
/// The most of stdin the hook reads: far more than any question Hark takes (a permission's
/// tool input is cut to a summary), and bounded, so a runaway input cannot fill memory.
const MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;

/// Runs `agent`'s hook: reads the event (`event`, else stdin), asks, prints the agent's answer
/// (or nothing).
pub async fn run(
    connection: Connection,
    agent: HookAgent,
    event: Option<String>,
    wait: Duration,
) -> ExitCode {
    let text = match event {
        Some(event) => event,
        None => {
            let mut text = String::new();
            let read = std::io::stdin()
                .take(MAX_INPUT_BYTES as u64 + 1)
                .read_to_string(&mut text);
            if read.is_err() {
                return agent.own_dialog();
            }
            text
        }
    };
    if text.len() > MAX_INPUT_BYTES {
        eprintln!(
            "hark hook: the hook's input is over {} MB, too large for Hark; {} asks itself",
            MAX_INPUT_BYTES / (1024 * 1024),
            agent.product()
        );
        return agent.own_dialog();
    }
    let Some(input) = read_input::<Value>(agent, &text) else {
        return agent.own_dialog();
    };
    let hook = Hook {
        connection: &connection,
        agent,
        // Cursor names its workspace where the others name their directory.
        cwd: (input["cwd"].as_str())
            .or_else(|| input["workspace_roots"][0].as_str())
            .map(str::to_string),
        wait,
    };
    let output = match agent {
        HookAgent::Claude => match read_input(agent, &text) {
            Some(input) => claude::answer(&hook, &input).await,
            None => None,
        },
        HookAgent::Codex => match read_input(agent, &text) {
            Some(input) => codex::answer(&hook, &input).await,
            None => None,
        },
        HookAgent::Gemini => match read_input(agent, &text) {
            Some(input) => gemini::answer(&hook, &input).await,
            None => None,
        },
        HookAgent::Cursor => match read_input(agent, &text) {
            Some(input) => cursor::answer(&hook, &input).await,
            None => None,
        },
        HookAgent::Copilot => match read_input(agent, &text) {
            Some(input) => copilot::answer(&hook, &input).await,
            None => None,
        },
    };
    if let Some(output) = output {
        println!("{output}");
    }
    ExitCode::SUCCESS
}

/// The hook's input as `agent` sends it; `None`, said on stderr, when it is not.
fn read_input<T: DeserializeOwned>(agent: HookAgent, text: &str) -> Option<T> {
    match serde_json::from_str(text) {
        Ok(input) => Some(input),
        Err(error) => {
            // Never in the agent's way: it shows its own dialog.
            eprintln!(
                "hark hook: the hook's input is not what {} sends: {error}",
                agent.product()
            );
            None
        }
    }
}

/// One run of a hook: what it was given and where it asks.
struct Hook<'a> {
    connection: &'a Connection,
    agent: HookAgent,
    /// The directory the agent works in, as its input says.
    cwd: Option<String>,
    wait: Duration,
}

impl Hook<'_> {
    fn source(&self) -> Source {
        Source {
            client: Some(self.agent.client()),
            cwd: self.cwd.clone(),
            pid: Some(std::process::id()),
        }
    }

    /// Asks `request` and waits up to `wait`; withdraws it (with a note) when nobody answers.
    async fn ask(&self, request: AskRequest) -> Option<WaitResult> {
        self.ask_until(request, Instant::now() + self.wait).await
    }

    /// Asks `request` and waits until `deadline`; withdraws it (with a note) when nobody
    /// answers.
    async fn ask_until(&self, request: AskRequest, deadline: Instant) -> Option<WaitResult> {
        let (request, _) = asking::with_id(request);
        let request = match asking::submit(self.connection, request).await {
            Ok(request) => request,
            Err(error) => {
                eprintln!("hark hook: {error}");
                return None;
            }
        };
        let id = request.id?;
        match asking::wait(self.connection, &request, Some(deadline), Messages::Leave).await {
            Ok(Ended::Closed(result)) => Some(result),
            Ok(Ended::StillPending) => {
                let note = self.agent.no_answer_note();
                let _ = self.connection.client().withdraw(id, &note).await;
                None
            }
            Err(error) => {
                eprintln!("hark hook: {error}");
                None
            }
        }
    }
}

/// The language the person reads Hark in: the daemon's (picked last in a browser), else this
/// desktop's.
async fn person_lang(hook: &Hook<'_>) -> Lang {
    match hook.connection.client().config().await {
        Ok(config) => hark_text::negotiate::daemon_lang(&config),
        Err(_) => hark_text::negotiate::desktop_lang(),
    }
}
