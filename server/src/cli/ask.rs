//! `hark ask`: the same round trip as the MCP tool, from a shell, a script or a git hook.

use crate::client::Messages;
use crate::client::asking::{self, Ended};
use crate::client::connection::Connection;
use hark_core::model::{AskOutcome, AskRequest, QuestionOption, Source, Status, SubQuestion};
use std::process::ExitCode;

/// Exit codes, documented in `hark ask --help`.
pub mod exit {
    pub const ANSWERED: u8 = 0;
    pub const ERROR: u8 = 1;
    pub const DECLINED: u8 = 3;
    pub const TIMEOUT: u8 = 4;
    pub const CANCELLED: u8 = 5;
    pub const INTERRUPTED: u8 = 130;
}

/// What to ask, from the command line.
#[derive(clap::Args)]
pub struct AskArgs {
    /// The question (Markdown).
    pub question: Option<String>,
    /// An option to pick; repeat for more. Without options the answer is free text.
    #[arg(short = 'o', long = "option", value_name = "LABEL")]
    pub options: Vec<String>,
    /// Allow picking several options.
    #[arg(long)]
    pub multi: bool,
    /// A short chip shown above the question.
    #[arg(long)]
    pub header: Option<String>,
    /// Context shown above the question (Markdown).
    #[arg(long)]
    pub title: Option<String>,
    /// Give up after this many seconds (status timeout, exit code 4).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<u64>,
    /// Print the whole outcome as JSON instead of the answer's text.
    #[arg(long)]
    pub json: bool,
    /// Read a whole request (JSON, as POST /api/questions takes) from a file, or - for stdin.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["question", "options", "multi", "header", "title", "timeout"])]
    pub file: Option<std::path::PathBuf>,
}

fn build_request(args: &AskArgs) -> Result<AskRequest, String> {
    if let Some(path) = &args.file {
        let text = if path.as_os_str() == "-" {
            std::io::read_to_string(std::io::stdin())
                .map_err(|error| format!("cannot read the request from stdin: {error}"))?
        } else {
            std::fs::read_to_string(path)
                .map_err(|error| format!("cannot read {}: {error}", path.display()))?
        };
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        return serde_path_to_error::deserialize(&mut deserializer)
            .map_err(|error| format!("{}: {}: {}", path.display(), error.path(), error.inner()));
    }
    let question = args
        .question
        .clone()
        .ok_or("give a question, or a whole request with --file")?;
    Ok(AskRequest {
        questions: vec![SubQuestion {
            header: args.header.clone(),
            multi_select: args.multi,
            options: args.options.iter().map(QuestionOption::new).collect(),
            ..SubQuestion::text(question)
        }],
        title: args.title.clone(),
        timeout_secs: args.timeout,
        ..AskRequest::default()
    })
}

/// Asks, waits, prints the answer and returns the exit code for its status.
pub async fn run(connection: Connection, args: AskArgs) -> ExitCode {
    let request = match build_request(&args) {
        Ok(request) => request,
        Err(error) => {
            eprintln!("hark ask: {error}");
            return ExitCode::from(exit::ERROR);
        }
    };
    let request = AskRequest {
        source: Some(Source {
            client: Some(format!("hark-ask {}", env!("CARGO_PKG_VERSION"))),
            cwd: std::env::current_dir()
                .ok()
                .map(|dir| dir.display().to_string()),
            pid: Some(std::process::id()),
        }),
        ..request
    };
    let (request, _) = asking::with_id(request);
    // The same question asked again soon after an earlier `hark ask` was killed picks it up.
    let request = match asking::submit(&connection, request).await {
        Ok(request) => request,
        Err(error) => {
            match &error.field {
                Some(field) if !error.message.contains(field.as_str()) => {
                    eprintln!("hark ask: {field}: {}", error.message)
                }
                _ => eprintln!("hark ask: {}", error.message),
            }
            return ExitCode::from(exit::ERROR);
        }
    };
    let Some(id) = request.id else {
        eprintln!("hark ask: the daemon gave the question no id");
        return ExitCode::from(exit::ERROR);
    };
    let ended = tokio::select! {
        ended = asking::wait(&connection, &request, None, Messages::Leave) => ended,
        _ = tokio::signal::ctrl_c() => {
            let _ = connection.client().cancel(id).await;
            eprintln!("hark ask: interrupted; the question was withdrawn");
            return ExitCode::from(exit::INTERRUPTED);
        }
    };
    let outcome = match ended {
        Ok(Ended::Closed(result)) => AskOutcome::closed(id, &request.questions, result),
        Ok(Ended::StillPending) => AskOutcome::pending(id),
        Err(error) => {
            eprintln!("hark ask: {error}");
            return ExitCode::from(exit::ERROR);
        }
    };
    if args.json {
        println!("{}", serde_json::to_string(&outcome).unwrap_or_default());
    } else {
        println!("{}", outcome.text());
    }
    ExitCode::from(match outcome.status {
        Status::Answered => exit::ANSWERED,
        Status::Declined => exit::DECLINED,
        Status::Timeout => exit::TIMEOUT,
        Status::Cancelled => exit::CANCELLED,
        Status::Pending => exit::ERROR,
    })
}
