//! What `hark mcp`'s tools take and give: their input and output schemas (self-contained, as
//! several clients cannot follow references), their arguments read with a tool error naming
//! the field, the question's `source`, progress while a call waits, and the result of an
//! outcome (its structured content, text, and image blocks).

use crate::client::asking::AskError;
use hark_core::model::{AskOutcome, AskRequest, GetAnswerRequest, Source, validate_ask};
use rmcp::RoleServer;
use rmcp::handler::server::common::schema_for_output;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, ProgressNotificationParam};
use rmcp::service::RequestContext;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// How often a waiting call reports progress, keeping clients with call timeouts patient.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

pub(super) fn ask_schema() -> Arc<JsonObject> {
    inline_schema::<AskRequest>()
}

pub(super) fn get_answer_schema() -> Arc<JsonObject> {
    inline_schema::<GetAnswerRequest>()
}

/// A type's JSON Schema (2020-12) with every definition written in place, no `$ref` nor
/// `$defs`: several clients and model adapters cannot follow references.
pub(super) fn inline_schema<T: schemars::JsonSchema>() -> Arc<JsonObject> {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    let schema = settings.into_generator().into_root_schema_for::<T>();
    match serde_json::to_value(schema) {
        Ok(serde_json::Value::Object(mut object)) => {
            // The Rust type's name and doc are noise to a model.
            object.remove("title");
            Arc::new(object)
        }
        _ => Arc::default(),
    }
}

pub(super) fn outcome_schema() -> Arc<JsonObject> {
    schema_for_output::<AskOutcome>()
}

pub(super) fn tool_error(error: &AskError) -> CallToolResult {
    let text = match &error.field {
        Some(field) if !error.message.contains(field.as_str()) => {
            format!("{field}: {}", error.message)
        }
        _ => error.message.clone(),
    };
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// The structured outcome plus its text block (SPEC §4), and one image block per image in the
/// answers, in order (SPEC §13): the bytes travel once, in the image blocks.
pub(super) fn outcome_result(outcome: &AskOutcome) -> CallToolResult {
    let structured = serde_json::to_value(outcome.without_image_data()).unwrap_or_default();
    let mut result = CallToolResult::structured(structured);
    result.content = std::iter::once(ContentBlock::text(outcome.text()))
        .chain(outcome.images().map(|image| match &image.data {
            Some(data) => ContentBlock::image(data.clone(), image.media_type.clone()),
            // Keeps the blocks in step with the images the answer lists.
            None => ContentBlock::text(
                "(This image could not be read from Hark's history.)".to_string(),
            ),
        }))
        .collect();
    result
}

/// A tool's arguments as `T`; a bad one is a tool error naming its field (SPEC §4), which the
/// model can read and fix, not a protocol error.
pub(super) fn parse_arguments<T: serde::de::DeserializeOwned>(
    arguments: JsonObject,
) -> Result<T, AskError> {
    let value = serde_json::Value::Object(arguments);
    serde_path_to_error::deserialize(value).map_err(|error| {
        let field = hark_core::model::field_of(&error);
        AskError {
            message: format!("{field}: {}", error.inner()),
            field: Some(field),
        }
    })
}

pub(super) fn parse_ask(arguments: JsonObject) -> Result<AskRequest, AskError> {
    let request: AskRequest = parse_arguments(arguments)?;
    validate_ask(&request).map_err(|error| AskError {
        message: error.error,
        field: error.field,
    })?;
    // The shim sets these; the model cannot (the schema does not offer them). Nor may a model
    // make its question a permission prompt, whose "Always allow" would keep a rule.
    Ok(AskRequest {
        id: None,
        source: None,
        permission: None,
        ..request
    })
}

/// The client's name as it declared it (none: empty), which a request state is bound to.
pub(super) fn client_name(context: &RequestContext<RoleServer>) -> String {
    context
        .client_info()
        .map(|info| info.name)
        .unwrap_or_default()
}

/// `source`: the client's `clientInfo`, this shim's working directory and pid.
pub(super) fn source_of(context: &RequestContext<RoleServer>, agents_process: bool) -> Source {
    let client = context
        .client_info()
        .map(|implementation| format!("{} {}", implementation.name, implementation.version));
    Source {
        client,
        cwd: agents_process
            .then(std::env::current_dir)
            .and_then(Result::ok)
            .map(|dir| dir.display().to_string()),
        pid: agents_process.then(std::process::id),
    }
}

/// Whether the call's protocol carries the client's dialog in the call's own rounds (MCP
/// 2026-07-28 on; no `initialize` there) rather than in a request to the client.
pub(super) fn rounds_trip(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| !version.has_initialize())
}

/// Sends `notifications/progress` every 10 s while the call carries a progress token.
pub(super) async fn report_progress(context: &RequestContext<RoleServer>) {
    let Some(token) = context.meta.get_progress_token() else {
        return std::future::pending().await;
    };
    let started = Instant::now();
    let mut ticks = tokio::time::interval_at(Instant::now() + PROGRESS_EVERY, PROGRESS_EVERY);
    loop {
        ticks.tick().await;
        let waited = started.elapsed().as_secs();
        let notification = ProgressNotificationParam::new(token.clone(), waited as f64)
            .with_message(format!("waiting for the person's answer ({waited} s)"));
        let _ = context.peer.notify_progress(notification).await;
    }
}
