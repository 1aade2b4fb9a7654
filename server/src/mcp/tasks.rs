//! `ask_user` as a task (the tasks extension of MCP 2026-07-28, SEP-2663, through rmcp's
//! `TaskManager`): a client that declares the extension gets the task's handle at once instead
//! of a call that waits, so no tool-call timeout applies. The question lives as long as the task:
//! `tasks/get` says it is working (or `input_required` while Hark's form waits in the client),
//! its result is the answer, and `tasks/cancel` leaves the question to the late-answer rules of
//! SPEC §12 (answerable for `lateSecs`; `get_answer` collects it). The race with the page holds:
//! an answer given anywhere first completes the task and clears the form's request.
//!
//! rmcp 3.11 has only this extension; the experimental tasks of 2025-11-25 (`task` on a call,
//! `tasks/result`) are served on it by `tasks_2025` (`tasks/list` is not offered: the spec
//! asks servers that cannot tell requestors apart not to).

use super::server::{FORM_KEY, HarkMcp, tool_error};
use super::task_store::Owner;
use crate::client::Messages;
use crate::client::asking::{self, Ended};
use hark_core::model::{AskOutcome, AskRequest, QuestionId};
use rmcp::model::{
    CallToolResult, ClientResult, ElicitRequest, ElicitRequestParams, ElicitResult, InputRequest,
    Task,
};
use rmcp::task_manager::{TaskContext, TaskExit, TaskOptions};

/// How often a client is asked to poll `tasks/get`: a person answers in seconds, not
/// milliseconds.
const POLL_EVERY_MS: u64 = 2_000;
/// How long a task that ended at once (a refused question) is kept for the client to read.
const ENDED_KEPT_MS: u64 = 10 * 60 * 1000;

impl HarkMcp {
    /// Runs the wait for question `id` as a task, with Hark's `form` in the client if any;
    /// returns the task for the call's `CreateTaskResult`.
    pub(super) fn as_task(
        &self,
        owner: Owner,
        id: QuestionId,
        request: AskRequest,
        form: Option<ElicitRequestParams>,
    ) -> Task {
        let server = self.clone();
        // The question decides when it ends, not a TTL; once it ends, the store keeps its
        // result a while (`task_store`).
        let options = TaskOptions::new()
            .with_ttl_ms(None)
            .with_poll_interval_ms(POLL_EVERY_MS)
            .with_status_message("waiting for the person's answer");
        self.tasks().spawn(owner, options, move |task| {
            Box::pin(async move { server.run_task(id, request, form, task).await })
        })
    }

    /// A task that has already ended with `result`: what a client that asked for a task gets
    /// when the question could not be asked.
    pub(super) fn ended_task(&self, owner: Owner, result: CallToolResult) -> Task {
        let options = TaskOptions::new()
            .with_ttl_ms(Some(ENDED_KEPT_MS))
            .with_poll_interval_ms(POLL_EVERY_MS);
        self.tasks()
            .spawn(owner, options, move |_| Box::pin(async move { Ok(result) }))
    }

    async fn run_task(
        self,
        id: QuestionId,
        request: AskRequest,
        form: Option<ElicitRequestParams>,
        task: TaskContext,
    ) -> Result<CallToolResult, TaskExit> {
        let waiting = asking::wait(self.connection(), &request, None, Messages::TakeAlong);
        let mut waiting = std::pin::pin!(waiting);
        let dialog = form.map(|form| {
            let request = InputRequest::Elicitation(ElicitRequest::new(form));
            Box::pin(task.request_input(FORM_KEY, request))
        });
        let mut dialog = dialog;
        let ended = loop {
            let reply = async {
                match dialog.as_mut() {
                    Some(reply) => reply.await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                ended = &mut waiting => break ended,
                reply = reply => {
                    dialog = None;
                    if let Ok(reply) = reply.map(serde_json::from_value::<ElicitResult>)
                        && let Ok(reply) = reply
                    {
                        // The close it makes (if any) ends the wait above, like any other.
                        self.settle_elicitation(id, &request, Ok(ClientResult::ElicitResult(reply)))
                            .await;
                    }
                }
                () = task.cancelled() => {
                    tracing::info!(%id, "the client cancelled the task; the question stays answerable");
                    self.abandon(id).await;
                    return Err(TaskExit::Cancelled);
                }
            }
        };
        Ok(match ended {
            Ok(Ended::Closed(result)) => {
                self.forget(id);
                self.reported(AskOutcome::closed(id, &request.questions, result), &request)
                    .await
            }
            Ok(Ended::StillPending) => self.reported(AskOutcome::pending(id), &request).await,
            Err(error) => tool_error(&error),
        })
    }
}
