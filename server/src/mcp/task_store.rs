//! The tasks of `ask_user` (rmcp's `TaskManager`, one for every `/mcp` request, as a
//! 2026-07-28 task outlives the request that made it), each bound to who made it: its MCP
//! session (`Mcp-Session-Id`, where there is one) and the client's declared name. Another
//! session's or client's task reads as unknown (-32602, as for a task that never was, so no one
//! learns it exists), for `tasks/get`, `tasks/update`, `tasks/cancel` and 2025-11-25's
//! `tasks/result` alike. A task's result is kept here, not in the manager (which keeps a small
//! marker of it): for `RESULT_KEPT` after the task ends, and only the latest `MOST_ENDED` ended
//! tasks of its owner (`MOST_ENDED_IN_ALL` in all); past that the task reads as unknown too.

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::{CallToolResult, DetailedTask, JsonObject, Task, TaskPayload};
use rmcp::service::RequestContext;
use rmcp::task_manager::{TaskContext, TaskFuture, TaskManager, TaskOptions};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long an ended task's result stays readable.
const RESULT_KEPT: Duration = Duration::from_secs(10 * 60);
/// Ended tasks kept at most for one owner (the owner's oldest go first), so one client's
/// tasks never push out another's; and for all owners together.
const MOST_ENDED: usize = 100;
const MOST_ENDED_IN_ALL: usize = 1_000;

/// Who made a task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    session: Option<String>,
    client: String,
}

impl Owner {
    /// The session and client of a request.
    pub fn of(context: &RequestContext<RoleServer>) -> Owner {
        let session = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.headers.get("mcp-session-id"))
            .and_then(|value| value.to_str().ok())
            .map(str::to_string);
        Owner {
            session,
            client: super::tool_io::client_name(context),
        }
    }
}

#[derive(Default)]
struct Owned {
    owners: HashMap<String, Owner>,
    /// Ended tasks' results (none for a cancelled or failed one), by task.
    results: HashMap<String, Option<JsonObject>>,
    /// Ended tasks, oldest first, with when they ended.
    ended: VecDeque<(String, Instant)>,
}

impl Owned {
    /// Forgets the tasks that ended too long ago, or past the most kept in all.
    fn sweep(&mut self) {
        let now = Instant::now();
        while let Some((task, at)) = self.ended.front() {
            if self.ended.len() <= MOST_ENDED_IN_ALL && now.duration_since(*at) < RESULT_KEPT {
                break;
            }
            let task = task.clone();
            self.forget(&task);
        }
    }

    fn forget(&mut self, task: &str) {
        self.ended.retain(|(ended, _)| ended != task);
        self.results.remove(task);
        self.owners.remove(task);
    }

    /// `task` ended with `result`: kept, and the owner's oldest ended task goes past the most.
    fn ended(&mut self, task: String, result: Option<JsonObject>) {
        let owner = self.owners.get(&task).cloned();
        self.results.insert(task.clone(), result);
        self.ended.push_back((task, Instant::now()));
        let of_owner: Vec<String> = self
            .ended
            .iter()
            .filter(|(ended, _)| owner.is_some() && self.owners.get(ended) == owner.as_ref())
            .map(|(ended, _)| ended.clone())
            .collect();
        if let Some(oldest) = of_owner.first().filter(|_| of_owner.len() > MOST_ENDED) {
            let oldest = oldest.clone();
            self.forget(&oldest);
        }
        self.sweep();
    }
}

/// The tasks and who made each.
#[derive(Clone, Default)]
pub struct Tasks {
    manager: TaskManager,
    owned: Arc<Mutex<Owned>>,
}

fn unknown(task: &str) -> ErrorData {
    ErrorData::invalid_params(format!("unknown task: {task}"), None)
}

impl Tasks {
    fn owned(&self) -> MutexGuard<'_, Owned> {
        self.owned
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// Runs `make`'s operation as a task of `owner`'s.
    pub fn spawn(
        &self,
        owner: Owner,
        options: TaskOptions,
        make: impl FnOnce(TaskContext) -> TaskFuture,
    ) -> Task {
        let owned = self.owned.clone();
        self.manager.spawn(options, move |context| {
            let id = context.task_id().to_string();
            // Known before the operation can end (a task that ends at once).
            owned
                .lock()
                .unwrap_or_else(|poison| poison.into_inner())
                .owners
                .insert(id.clone(), owner);
            let operation = make(context);
            Box::pin(async move {
                let ended = operation.await;
                let kept = ended
                    .as_ref()
                    .ok()
                    .map(|result| match serde_json::to_value(result) {
                        Ok(serde_json::Value::Object(result)) => result,
                        _ => JsonObject::new(),
                    });
                owned
                    .lock()
                    .unwrap_or_else(|poison| poison.into_inner())
                    .ended(id, kept);
                // The manager keeps a marker: the result itself is here.
                ended.map(|_| CallToolResult::success(Vec::new()))
            })
        })
    }

    /// Whether `owner` made `task`, and it is still kept.
    fn check(&self, owner: &Owner, task: &str) -> Result<(), ErrorData> {
        let mut owned = self.owned();
        owned.sweep();
        match owned.owners.get(task) {
            Some(made_by) if made_by == owner => Ok(()),
            _ => Err(unknown(task)),
        }
    }

    /// `tasks/get`.
    ///
    /// # Errors
    /// A task `owner` did not make, or no longer kept.
    pub fn get(&self, owner: &Owner, task: &str) -> Result<DetailedTask, ErrorData> {
        self.check(owner, task)?;
        let mut detailed = self.manager.get_task(task)?;
        if let TaskPayload::Completed { result } = &mut detailed.payload {
            match self.owned().results.get(task) {
                Some(Some(kept)) => result.clone_from(kept),
                _ => return Err(unknown(task)),
            }
        }
        Ok(detailed)
    }

    /// `tasks/update`.
    ///
    /// # Errors
    /// A task `owner` did not make, or no longer kept.
    pub fn update(
        &self,
        owner: &Owner,
        task: &str,
        responses: impl IntoIterator<Item = (String, serde_json::Value)>,
    ) -> Result<(), ErrorData> {
        self.check(owner, task)?;
        self.manager.update_task(task, responses)
    }

    /// `tasks/cancel`.
    ///
    /// # Errors
    /// A task `owner` did not make, or no longer kept.
    pub fn cancel(&self, owner: &Owner, task: &str) -> Result<(), ErrorData> {
        self.check(owner, task)?;
        self.manager.cancel_task(task)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner(session: Option<&str>, client: &str) -> Owner {
        Owner {
            session: session.map(str::to_string),
            client: client.to_string(),
        }
    }

    #[tokio::test]
    async fn only_the_owner_reads_updates_or_cancels_its_task() {
        let tasks = Tasks::default();
        let mine = owner(None, "claude-code");
        let task = tasks.spawn(mine.clone(), TaskOptions::new(), |context| {
            Box::pin(async move {
                context.cancelled().await;
                Err(rmcp::task_manager::TaskExit::Cancelled)
            })
        });
        let id = task.task_id.as_str();
        for other in [
            owner(None, "another-agent"),
            owner(Some("s1"), "claude-code"),
        ] {
            assert!(tasks.get(&other, id).is_err());
            assert!(tasks.update(&other, id, []).is_err());
            assert!(tasks.cancel(&other, id).is_err());
        }
        assert!(tasks.get(&mine, id).is_ok());
        assert!(tasks.cancel(&mine, id).is_ok());
    }

    /// A task of `owner`'s that ends at once with a result, and its id.
    fn ended_task(tasks: &Tasks, owner: &Owner) -> String {
        let result = CallToolResult::success(vec![rmcp::model::ContentBlock::text("kept")]);
        tasks
            .spawn(owner.clone(), TaskOptions::new(), move |_| {
                Box::pin(async move { Ok(result) })
            })
            .task_id
    }

    #[tokio::test]
    async fn one_clients_many_tasks_never_push_out_anothers_result() {
        let tasks = Tasks::default();
        let (quiet, busy) = (owner(None, "quiet"), owner(None, "busy"));
        let kept = ended_task(&tasks, &quiet);
        let first_busy = ended_task(&tasks, &busy);
        for _ in 0..MOST_ENDED {
            ended_task(&tasks, &busy);
        }
        for _ in 0..100 {
            if tasks.owned().ended.len() == MOST_ENDED + 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let read = tasks.get(&quiet, &kept).expect("the quiet client's result");
        let TaskPayload::Completed { result } = read.payload else {
            panic!("the task completed");
        };
        assert!(
            serde_json::Value::Object(result)
                .to_string()
                .contains("kept")
        );
        assert!(tasks.get(&busy, &first_busy).is_err());
    }
}
