//! The experimental tasks of MCP 2025-11-25 (`basic/utilities/tasks.mdx` of that revision),
//! served on the tasks of `tasks.rs` (rmcp's `TaskManager`, the 2026-07-28 extension): `bridge`
//! rewrites the stdio shim's messages between the two shapes, and this module answers
//! `tasks/result`, which the extension does not have. It waits until the task ends and
//! answers what the call would have (the answer, with `io.modelcontextprotocol/related-task` in
//! its `_meta`); while the task waits on Hark's form, the form goes to the client as an
//! `elicitation/create` tied to the task, and its reply settles the question as the form's
//! would (the page, answered first, withdraws it).

pub mod bridge;

use super::server::HarkMcp;
use rmcp::model::{
    ClientResult, CustomResult, ElicitRequest, ElicitRequestParams, ErrorCode, InputRequest,
    RequestMetaObject, ServerRequest, TaskPayload,
};
use rmcp::service::{PeerRequestOptions, RequestContext, RequestHandle};
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::time::Duration;

/// The `_meta` key that ties a message to its task.
const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";
/// How often the task is looked at while `tasks/result` waits: the task manager has no way to
/// be woken, and a person's answer is seconds away anyway.
const LOOK_EVERY: Duration = Duration::from_millis(200);

/// `params.taskId` of a `tasks/result`.
fn task_id_of(params: Option<&Value>) -> Result<String, ErrorData> {
    params
        .and_then(|params| params["taskId"].as_str())
        .filter(|id| !id.is_empty())
        .map(str::to_string)
        .ok_or_else(|| ErrorData::invalid_params("taskId is required: the task's id", None))
}

/// The form, tied to task `task_id`.
fn tied(mut request: ElicitRequest, task_id: &str) -> ElicitRequest {
    let meta = match &mut request.params {
        ElicitRequestParams::FormElicitationParams { meta, .. }
        | ElicitRequestParams::UrlElicitationParams { meta, .. } => meta,
        _ => return request,
    };
    let mut tied = meta
        .take()
        .unwrap_or_else(|| RequestMetaObject::from(serde_json::Map::new()));
    tied.insert(RELATED_TASK.into(), json!({"taskId": task_id}));
    *meta = Some(tied);
    request
}

impl HarkMcp {
    /// `tasks/result`: the task's result once it ends, relaying its form meanwhile (Hark's
    /// tasks ask for one input at most: the form).
    pub(super) async fn task_result(
        &self,
        params: Option<&Value>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let task_id = task_id_of(params)?;
        let owner = super::task_store::Owner::of(context);
        let mut relayed = HashSet::new();
        let mut form: Option<(String, RequestHandle<RoleServer>)> = None;
        let ended = loop {
            let task = self.tasks().get(&owner, &task_id)?;
            match task.payload {
                TaskPayload::Working => {}
                TaskPayload::InputRequired { input_requests } => {
                    for (key, request) in input_requests {
                        let InputRequest::Elicitation(request) = request else {
                            continue;
                        };
                        if form.is_some() || !relayed.insert(key.clone()) {
                            continue;
                        }
                        match context
                            .peer
                            .send_cancellable_request(
                                ServerRequest::ElicitRequest(tied(request, &task_id)),
                                PeerRequestOptions::no_options(),
                            )
                            .await
                        {
                            Ok(handle) => form = Some((key, handle)),
                            Err(error) => {
                                tracing::debug!(%error, "the client took no form for the task");
                            }
                        }
                    }
                }
                payload => break payload,
            }
            let reply = async {
                match form.as_mut() {
                    Some((_, handle)) => (&mut handle.rx).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = tokio::time::sleep(LOOK_EVERY) => {}
                reply = reply => {
                    let key = form.take().map(|(key, _)| key).unwrap_or_default();
                    if let Ok(Ok(ClientResult::ElicitResult(reply))) = reply {
                        let reply = serde_json::to_value(reply).unwrap_or_default();
                        let _ = self.tasks().update(&owner, &task_id, [(key, reply)]);
                    }
                }
                () = context.ct.cancelled() => {
                    withdraw(form).await;
                    return Err(ErrorData::internal_error("tasks/result was cancelled by the client", None));
                }
            }
        };
        // Answered elsewhere first: the client's form is withdrawn.
        withdraw(form).await;
        match ended {
            TaskPayload::Completed { mut result } => {
                result.remove("resultType");
                let meta = result.entry("_meta").or_insert_with(|| json!({}));
                if let Some(meta) = meta.as_object_mut() {
                    meta.insert(RELATED_TASK.into(), json!({"taskId": task_id}));
                }
                Ok(CustomResult::new(Value::Object(result)))
            }
            TaskPayload::Failed { error } => Err(serde_json::from_value(Value::Object(error))
                .unwrap_or_else(|_| ErrorData::internal_error("the task failed", None))),
            _ => Err(ErrorData::new(
                ErrorCode::INVALID_PARAMS,
                format!(
                    "task {task_id} was cancelled and has no result; its question stays \
                     answerable for a while, and get_answer collects a late answer"
                ),
                None,
            )),
        }
    }
}

/// Withdraws the form still open in the client, if any.
async fn withdraw(form: Option<(String, RequestHandle<RoleServer>)>) {
    if let Some((_, handle)) = form {
        let _ = handle.cancel(Some("answered in Hark".into())).await;
    }
}
