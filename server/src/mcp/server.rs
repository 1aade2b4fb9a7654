//! `hark mcp`: the MCP stdio server agents talk to. Tool `ask_user` forwards each call to the
//! daemon and waits for the person; `get_answer` continues a wait handed off at `--max-wait`.
//! Nothing but protocol is written to stdout.
//!
//! The client's own dialog races the page: up to MCP 2025-11-25 by an `elicitation/create`
//! request during the call; from 2026-07-28, which has no server-to-client requests, by a
//! multi round-trip request (MRTR): the first round puts the question to the daemon and answers
//! `input_required` with the form, and the client's retry brings what the person did in it,
//! its `requestState` naming the question (signed, and bound to the client: `request_state`).
//! Whatever happened first wins either way: an answer given on the page before the retry is
//! what the retry returns.

use crate::client::Messages;
use crate::client::asking::{self, AskError, Ended};
use crate::client::connection::Connection;
use crate::mcp::deadlines::HandOff;
use crate::mcp::elicit;
use crate::mcp::open_questions::{OpenQuestions, SessionEnd};
use crate::mcp::request_state;
use crate::mcp::task_store::{Owner, Tasks};
pub(super) use crate::mcp::tool_io::tool_error;
use crate::mcp::tool_io::{
    ask_schema, client_name, get_answer_schema, outcome_result, outcome_schema, parse_arguments,
    parse_ask, report_progress, rounds_trip, source_of,
};
use hark_core::model::Elicitation;
use hark_core::model::{
    AgentRef, AskOutcome, AskRequest, GetAnswerRequest, PersonMessage, QuestionId, Status,
};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::model::{
    CallToolResponse, CallToolResult, CancelTaskParams, ClientCapabilities, ClientResult,
    ContentBlock, CreateTaskResult, CustomRequest, CustomResult, ElicitRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, ErrorCode, GetTaskParams, GetTaskResult,
    Implementation, InputRequest, InputRequests, InputRequiredResult, JsonObject,
    ServerCapabilities, ServerConfig, ServerRequest, TaskPayload, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::service::{PeerRequestOptions, RequestHandle, ServiceError};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// The key of the form in an MRTR round's (or a task's) input requests.
pub(super) const FORM_KEY: &str = "answer";

const INSTRUCTIONS: &str = "Hark puts your questions in front of the person you work for, in a \
web page on their computer or phone, and returns their answer. Call ask_user whenever you need \
a decision, a preference, a missing fact or an approval that only they can give, instead of \
guessing or stopping to ask in chat. Batch related questions (up to 4) in one call, offer \
concrete options, and mark the one you recommend. The call waits until they answer.";

const ASK_USER: &str = "Ask the person 1 to 4 questions and wait for their answer. Each question \
can offer options (single choice, or several with multiSelect); mark the option you recommend \
with recommended and risky ones with danger; an option's preview (Markdown: the diff, command or \
sketch it leads to) is shown beside it. An \"Other\" box for their own words is always \
offered unless allowFreeText is false, so never add an \"Other\" option yourself. Put shared \
context in title (Markdown). The result has status answered (with the selected labels and any \
free text, per question), declined (they skipped it, maybe with a note), timeout or cancelled; \
if it is pending, call get_answer with its id to keep waiting.";

const GET_ANSWER: &str = "Keep waiting for the answer to a question that ask_user (or an \
earlier get_answer) returned as pending, using its id. Returns the answer as soon as the person \
gives it, or pending again if they still have not.";

/// The MCP server: one per shim process, or per session of `/mcp`.
#[derive(Clone)]
pub struct HarkMcp {
    connection: Connection,
    hand_off: HandOff,
    open: OpenQuestions,
    /// Whether this process is the agent's own shim, whose folder and pid describe the agent
    /// (`hark mcp`), or serves a client elsewhere (`/mcp`), of which Hark knows neither.
    agents_process: bool,
    /// For `/mcp`: withdraws what is still open when the session's last copy goes.
    _session: Option<Arc<SessionEnd>>,
    /// `ask_user` calls running as tasks (shared by every copy).
    tasks: Tasks,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl HarkMcp {
    /// A server using `connection`, handing off to `get_answer` as `hand_off` says.
    pub fn new(connection: Connection, hand_off: HandOff) -> Self {
        Self {
            connection,
            hand_off,
            open: OpenQuestions::default(),
            agents_process: true,
            _session: None,
            tasks: Tasks::default(),
            tool_router: Self::tool_router(),
        }
    }

    /// A server for one session of `/mcp`, reaching the daemon through `connection`: the
    /// agent's folder and process are not this one's, and the session's questions still open
    /// when it ends are abandoned.
    pub fn for_session(connection: Connection, hand_off: HandOff, tasks: Tasks) -> Self {
        let open = OpenQuestions::default();
        let session = SessionEnd {
            connection: connection.clone(),
            open: open.clone(),
        };
        Self {
            open,
            agents_process: false,
            _session: Some(Arc::new(session)),
            tasks,
            ..Self::new(connection, hand_off)
        }
    }

    #[tool(
        name = "ask_user",
        description = ASK_USER,
        input_schema = ask_schema(),
        output_schema = outcome_schema()
    )]
    async fn ask_user(
        &self,
        arguments: JsonObject,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(state) = state {
            return Ok(self.retried(&state, responses, context).await.into());
        }
        let wants_task = context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.supports_tasks());
        // What goes wrong before the question exists is the result of a task that has ended,
        // for a client that asked for a task.
        let refuse = |error: &AskError| -> CallToolResponse {
            if wants_task {
                CreateTaskResult::new(self.ended_task(Owner::of(&context), tool_error(error)))
                    .into()
            } else {
                tool_error(error).into()
            }
        };
        let request = match parse_ask(arguments) {
            Ok(request) => request,
            Err(error) => return Ok(refuse(&error)),
        };
        let request = AskRequest {
            source: Some(source_of(&context, self.agents_process)),
            ..request
        };
        let (request, _) = asking::with_id(request);
        let request = match asking::submit(&self.connection, request).await {
            Ok(request) => request,
            Err(error) => return Ok(refuse(&error)),
        };
        let Some(id) = request.id else {
            return Ok(refuse(&AskError {
                message: "the daemon gave the question no id".into(),
                field: None,
            }));
        };
        // A client that declared tasks (the 2026-07-28 extension, or 2025-11-25's `task` as the
        // stdio bridge turns it into the extension) gets the task's handle at once.
        if wants_task || rounds_trip(&context) {
            // An `/mcp` request's server lives for that request: what it remembers would be
            // abandoned before the retry comes.
            if self.agents_process {
                self.remember(id, &request);
            }
            let form = self.form_for(&request, &context).await;
            if wants_task {
                return Ok(CreateTaskResult::new(self.as_task(
                    Owner::of(&context),
                    id,
                    request,
                    form,
                ))
                .into());
            }
            if let Some(form) = form {
                let requests = InputRequests::from([(
                    FORM_KEY.to_string(),
                    InputRequest::Elicitation(ElicitRequest::new(form)),
                )]);
                let state = request_state::issue(id, &client_name(&context));
                return Ok(InputRequiredResult::new(Some(requests), Some(state)).into());
            }
            return Ok(self
                .wait_and_report(id, request, None, context, None)
                .await
                .into());
        }
        self.remember(id, &request);
        let elicitation = self.start_elicitation(&request, &context).await;
        Ok(self
            .wait_and_report(id, request, None, context, elicitation)
            .await
            .into())
    }

    #[tool(
        name = "get_answer",
        description = GET_ANSWER,
        input_schema = get_answer_schema(),
        output_schema = outcome_schema()
    )]
    async fn get_answer(
        &self,
        arguments: JsonObject,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let GetAnswerRequest { id, wait_secs } = match parse_arguments(arguments) {
            Ok(request) => request,
            Err(error) => return Ok(tool_error(&error)),
        };
        let request = match self.request_for(id, "id").await {
            Ok(request) => request,
            Err(error) => return Ok(tool_error(&error)),
        };
        let wait = wait_secs.map(Duration::from_secs);
        Ok(self.wait_and_report(id, request, wait, context, None).await)
    }
}

impl HarkMcp {
    fn remember(&self, id: QuestionId, request: &AskRequest) {
        if let Ok(mut open) = self.open.lock() {
            open.insert(id, request.clone());
        }
    }

    pub(super) fn tasks(&self) -> &Tasks {
        &self.tasks
    }

    pub(super) fn connection(&self) -> &Connection {
        &self.connection
    }

    /// Tells the daemon nobody waits for question `id` any more (it stays answerable for
    /// `lateSecs`).
    pub(super) async fn abandon(&self, id: QuestionId) {
        let _ = self.connection.client().abandon(id).await;
        self.forget(id);
    }

    pub(super) fn forget(&self, id: QuestionId) {
        if let Ok(mut open) = self.open.lock() {
            open.remove(&id);
        }
    }

    /// The request of question `id`: as this server asked it, or rebuilt from what the daemon
    /// holds (asked by another shim, or before a restart of this one), so it can be re-submitted
    /// if the daemon restarts.
    ///
    /// # Errors
    /// No open question has that id; the error names `field`, where the id came from.
    async fn request_for(&self, id: QuestionId, field: &str) -> Result<AskRequest, AskError> {
        let known = self
            .open
            .lock()
            .ok()
            .and_then(|open| open.get(&id).cloned());
        if let Some(request) = known {
            return Ok(request);
        }
        match self.connection.client().question(id).await {
            Ok(question) => Ok(AskRequest {
                questions: question.questions,
                title: question.title,
                timeout_secs: None,
                timeout_action: Some(question.timeout_action),
                source: question.source,
                id: Some(id),
                permission: question.permission,
            }),
            Err(error) => Err(AskError {
                message: format!("{field}: no open question has the id {id} ({error})"),
                field: Some(field.into()),
            }),
        }
    }

    /// The form for the client's own dialog, when it can show forms and the config says
    /// `elicitation: "race"`.
    async fn form_for(
        &self,
        request: &AskRequest,
        context: &RequestContext<RoleServer>,
    ) -> Option<ElicitRequestParams> {
        let capabilities: ClientCapabilities = context.client_capabilities()?;
        if !elicit::client_has_forms(&capabilities) {
            return None;
        }
        let config = self.connection.client().config().await.ok()?;
        if config.elicitation != Elicitation::Race {
            return None;
        }
        elicit::form(request)
    }

    /// The retry of an MRTR round: what the person did in the client's form settles the
    /// question (unless the page was quicker), then the call waits as any other and returns
    /// whatever closed it first.
    async fn retried(
        &self,
        state: &str,
        responses: Option<rmcp::model::InputResponses>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let Some(id) = request_state::read(state, &client_name(&context)) else {
            return tool_error(&AskError {
                message: "requestState: not a state this server gave (call ask_user again)".into(),
                field: Some("requestState".into()),
            });
        };
        let request = match self.request_for(id, "requestState").await {
            Ok(request) => request,
            Err(error) => return tool_error(&error),
        };
        if self.agents_process {
            self.remember(id, &request);
        }
        let reply = responses
            .and_then(|mut responses| responses.remove(FORM_KEY))
            .and_then(|reply| serde_json::from_value::<ElicitResult>(reply).ok());
        if let Some(reply) = reply {
            self.settle_elicitation(id, &request, Ok(ClientResult::ElicitResult(reply)))
                .await;
        }
        self.wait_and_report(id, request, None, context, None).await
    }

    /// Asks in the client's own dialog too (before MCP 2026-07-28), when it can show forms and
    /// the config says `elicitation: "race"`; the handle of that request, to await or withdraw.
    async fn start_elicitation(
        &self,
        request: &AskRequest,
        context: &RequestContext<RoleServer>,
    ) -> Option<RequestHandle<RoleServer>> {
        let form = self.form_for(request, context).await?;
        context
            .peer
            .send_cancellable_request(
                ServerRequest::ElicitRequest(ElicitRequest::new(form)),
                PeerRequestOptions::no_options(),
            )
            .await
            .inspect_err(|error| tracing::debug!(%error, "the client took no form"))
            .ok()
    }

    /// What the person did in the client's dialog: an answer or a decline closes the question
    /// (unless the page was quicker); a dismissed dialog leaves the page to answer.
    pub(super) async fn settle_elicitation(
        &self,
        id: QuestionId,
        request: &AskRequest,
        reply: Result<ClientResult, ServiceError>,
    ) {
        let result = match reply {
            Ok(ClientResult::ElicitResult(result)) => result,
            Ok(_) | Err(_) => return,
        };
        let client = self.connection.client();
        let closed = match result.action {
            ElicitationAction::Accept => {
                let content = result.content.unwrap_or_default();
                client
                    .answer(id, &elicit::answers(request, &content))
                    .await
                    .map(|_| ())
            }
            ElicitationAction::Decline => client.decline(id).await,
            // Dismissed (or an action this release does not know): the page answers.
            _ => return,
        };
        if let Err(error) = closed {
            // Closed on the page meanwhile, or an answer the question does not take: the page
            // has the last word either way.
            tracing::info!(%id, %error, "the client's answer was not taken");
        }
    }

    /// Waits (reporting progress, honouring cancellation and the hand-off deadline, racing
    /// the client's dialog when one was opened) and turns the end into a tool result.
    async fn wait_and_report(
        &self,
        id: QuestionId,
        request: AskRequest,
        wait: Option<Duration>,
        context: RequestContext<RoleServer>,
        mut elicitation: Option<RequestHandle<RoleServer>>,
    ) -> CallToolResult {
        let client = context.client_info().map(|info| info.name);
        let max_wait = self.hand_off.for_client(client.as_deref());
        let limit = match (wait, max_wait) {
            (Some(wait), Some(max)) => Some(wait.min(max)),
            (wait, max) => wait.or(max),
        };
        let deadline = limit.map(|limit| Instant::now() + limit);
        let waiting = asking::wait(&self.connection, &request, deadline, Messages::TakeAlong);
        let mut waiting = std::pin::pin!(waiting);
        let ended = loop {
            let dialog = async {
                match elicitation.as_mut() {
                    Some(handle) => (&mut handle.rx).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                ended = &mut waiting => break ended,
                reply = dialog => {
                    elicitation = None;
                    let reply = reply.unwrap_or(Err(ServiceError::TransportClosed));
                    // The close it makes (if any) ends the wait above, like any other.
                    self.settle_elicitation(id, &request, reply).await;
                }
                () = report_progress(&context) => unreachable!("progress reporting never ends"),
                () = context.ct.cancelled() => {
                    // The person may be typing the answer: it stays answerable for `lateSecs`,
                    // and get_answer (or the same question asked again) collects it.
                    tracing::info!(%id, "the client cancelled the call; the question stays answerable");
                    let _ = self.connection.client().abandon(id).await;
                    self.forget(id);
                    return CallToolResult::error(vec![ContentBlock::text(format!(
                        "cancelled by the client; the question stays open for a while: call \
                         get_answer with id \"{id}\" to collect a late answer"
                    ))]);
                }
            }
        };
        // Answered elsewhere first (or handed off): the client's dialog is withdrawn.
        if let Some(handle) = elicitation {
            let _ = handle.cancel(Some("answered in Hark".into())).await;
        }
        match ended {
            Ok(Ended::Closed(result)) => {
                self.forget(id);
                self.reported(AskOutcome::closed(id, &request.questions, result), &request)
                    .await
            }
            Ok(Ended::StillPending) => self.reported(AskOutcome::pending(id), &request).await,
            Err(error) => tool_error(&error),
        }
    }

    /// The tool result of `outcome`, with the messages the person left for the asking agent
    /// since it last heard from Hark (SPEC §18). A closed question's wait brought them along
    /// (`Messages::TakeAlong`); a question handed off still open collects them here, the one
    /// case that costs a second round trip.
    pub(super) async fn reported(
        &self,
        mut outcome: AskOutcome,
        request: &AskRequest,
    ) -> CallToolResult {
        if outcome.status == Status::Pending
            && let Some(agent) = request.source.as_ref().and_then(AgentRef::of)
        {
            match self.connection.client().deliver_messages(&agent).await {
                Ok(messages) => {
                    outcome.messages = messages.iter().map(PersonMessage::from).collect();
                }
                Err(error) => {
                    tracing::warn!(%error, "could not collect the person's messages for the agent");
                }
            }
        }
        outcome_result(&outcome)
    }

    /// Tells the daemon nobody waits for the questions still open (they stay answerable for
    /// its `lateSecs`); called when the client goes away.
    pub async fn abandon_open_questions(&self) {
        let open: Vec<QuestionId> = self
            .open
            .lock()
            .map(|mut open| open.drain().map(|(id, _)| id).collect())
            .unwrap_or_default();
        for id in open {
            let _ = self.connection.client().abandon(id).await;
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for HarkMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build(),
        )
        .with_server_info(Implementation::new("hark", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.tasks
            .get(&Owner::of(&context), &request.task_id)
            .map(GetTaskResult::new)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks.update(
            &Owner::of(&context),
            &request.task_id,
            request.input_responses,
        )
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = Owner::of(&context);
        // 2025-11-25: a task that has ended cannot be cancelled (the extension only notes it).
        if !rounds_trip(&context)
            && !matches!(
                self.tasks.get(&owner, &request.task_id)?.payload,
                TaskPayload::Working | TaskPayload::InputRequired { .. }
            )
        {
            return Err(ErrorData::invalid_params(
                format!("task {} has already ended", request.task_id),
                None,
            ));
        }
        self.tasks.cancel(&owner, &request.task_id)
    }

    /// 2025-11-25's `tasks/result`; nothing else is served beyond the typed methods.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        match request.method.as_str() {
            "tasks/result" => self.task_result(request.params.as_ref(), &context).await,
            _ => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            )),
        }
    }
}

/// Serves MCP on stdin/stdout until the client closes stdin, then abandons what is still open.
///
/// # Errors
/// When the MCP handshake fails.
pub async fn serve_stdio(server: HarkMcp) -> Result<(), String> {
    let transport =
        super::tasks_2025::bridge::stand_between(tokio::io::stdin(), tokio::io::stdout());
    let running = server
        .clone()
        .serve(transport)
        .await
        .map_err(|error| format!("MCP handshake failed: {error}"))?;
    let _ = running.waiting().await;
    server.abandon_open_questions().await;
    Ok(())
}
