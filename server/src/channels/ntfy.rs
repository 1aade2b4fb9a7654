//! ntfy (SPEC §11): a push per question to `channels.ntfy`'s server and topic, published as
//! JSON. It opens the question, and a single choice of at most two options gets one button per
//! option that answers through a capability URL. When the question closes, a second push with
//! the same sequence id replaces the first, saying how it ended. An agent that finishes its turn
//! or waits in its own dialog (`notifyOn`, SPEC §20) is a push too, one per session (each
//! replaces the session's last), opening the Agents page. One worker sends in order, so a
//! replacement never overtakes its push.

mod push_text;

use super::outbound;
use super::retry::retried;
use super::workers::Workers;
use super::{Channel, Relay};
use crate::daemon::secrets::BoundKey;
use hark_core::model::{
    AgentSession, ChannelError, ChannelName, Channels, ChannelsReport, Config, Event, Question,
    QuestionId,
};
use hark_text::negotiate::daemon_lang;
use serde::Serialize;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// ntfy's access token in `secrets.json`, bound to the server it was given for.
pub const TOKEN: BoundKey = BoundKey {
    token: "ntfyToken",
    server: "ntfyServer",
};
/// Priority of a new question (4: high), and of the push that replaces it (2: low, no alert).
const NEW_PRIORITY: u8 = 4;
const CLOSED_PRIORITY: u8 = 2;

/// The channel: its worker, and the questions it pushed (only those get a replacement).
#[derive(Default)]
pub struct Ntfy {
    worker: Workers<Job>,
    pushed: Arc<Mutex<HashSet<QuestionId>>>,
}

#[async_trait::async_trait]
impl Channel for Ntfy {
    fn name(&self) -> ChannelName {
        ChannelName::Ntfy
    }

    fn on(&self, channels: &Channels) -> bool {
        channels.ntfy.enabled
    }

    fn handle(&self, relay: &Arc<Relay>, event: &Arc<Event>, _config: &Config) {
        match &**event {
            Event::QuestionCreated(question) => {
                self.send(relay, Job::Publish(question.clone()));
            }
            Event::QuestionAnswered(question) | Event::QuestionClosed(question) => {
                self.send(relay, Job::Replace(question.clone()));
            }
            Event::SessionUpdated(session) => self.send(relay, Job::Session(session.clone())),
            _ => {}
        }
    }

    async fn test(&self, relay: &Arc<Relay>) -> Result<String, ChannelError> {
        test(relay).await
    }

    async fn set_token(
        &self,
        relay: &Arc<Relay>,
        token: Option<String>,
    ) -> Result<(), ChannelError> {
        let server = relay
            .store
            .read_config(|config| config.channels.ntfy.server.clone());
        relay
            .save_credentials(vec![(TOKEN, token)], &server)
            .await
            .map_err(|error| {
                ChannelError::NotSaved(format!(
                    "ntfy's access token could not be saved in secrets.json: {}",
                    error.kind()
                ))
            })
    }

    fn report(&self, relay: &Relay, report: &mut ChannelsReport) {
        let server = relay
            .store
            .read_config(|config| config.channels.ntfy.server.clone());
        report.ntfy_token = relay.secrets.bound(TOKEN, &server).is_some();
    }
}

/// What the worker does.
enum Job {
    Publish(Question),
    Replace(Question),
    Session(AgentSession),
}

impl Ntfy {
    /// Queues `job` for the worker, without waiting.
    fn send(&self, relay: &Arc<Relay>, job: Job) {
        let (worker, pushed) = (relay.clone(), self.pushed.clone());
        let work = move |job| {
            let (relay, pushed) = (worker.clone(), pushed.clone());
            async move { work(&relay, &pushed, job).await }
        };
        let server = relay.store.config().channels.ntfy.server;
        self.worker
            .send(relay, ChannelName::Ntfy, &server, job, work);
    }
}

/// Pushes a new question, or replaces the push of one this daemon pushed.
async fn work(relay: &Relay, pushed: &Mutex<HashSet<QuestionId>>, job: Job) {
    let message = {
        let mut pushed = pushed.lock().unwrap_or_else(|poison| poison.into_inner());
        match job {
            Job::Publish(question) => {
                // What closed meanwhile (or while events were lost) needs no push, and its
                // buttons none either.
                let pending: HashSet<QuestionId> =
                    relay.store.pending().iter().map(|open| open.id).collect();
                pushed.retain(|id| pending.contains(id));
                relay.capabilities.retain(|id| pending.contains(id));
                if !pending.contains(&question.id) {
                    return;
                }
                pushed.insert(question.id);
                Some(new_question(relay, &question))
            }
            Job::Replace(question) => {
                relay.capabilities.forget(question.id);
                let replaced = pushed.remove(&question.id);
                replaced.then(|| closed_question(relay, &question))
            }
            Job::Session(session) => session_notice(relay, &session),
        }
    };
    if let Some(message) = message {
        let _ = publish(relay, &message).await;
    }
}

/// One push, as ntfy's JSON publishing takes it.
#[derive(Serialize)]
struct Message {
    topic: String,
    title: String,
    message: String,
    priority: u8,
    tags: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    click: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    actions: Vec<Action>,
    /// Pushes with the same sequence id replace each other on the phone.
    sequence_id: String,
}

/// A button on the push.
#[derive(Serialize)]
#[serde(tag = "action", rename_all = "lowercase")]
enum Action {
    View {
        label: String,
        url: String,
        clear: bool,
    },
    Http {
        label: String,
        url: String,
        method: &'static str,
        clear: bool,
    },
}

fn new_question(relay: &Relay, question: &Question) -> Message {
    let config = relay.store.config();
    let lang = daemon_lang(&config);
    let base = relay.public_base_in(&config);
    let page = base
        .as_ref()
        .map(|base| format!("{base}/q/{}", question.id));
    let (title, mut message) = if config.channels.content_in_push {
        (push_text::title(question), push_text::questions(question))
    } else {
        (
            "Hark".to_string(),
            hark_text::t_in(lang, "push-waiting", &[]),
        )
    };
    let mut actions = Vec::new();
    match (&base, &page) {
        (Some(base), Some(page)) => {
            actions.push(Action::View {
                label: hark_text::t_in(lang, "push-open", &[]),
                url: page.clone(),
                clear: false,
            });
            for (label, url) in answer_buttons(relay, &config, base, question) {
                actions.push(Action::Http {
                    label,
                    url,
                    method: "POST",
                    clear: true,
                });
            }
        }
        _ => {
            let hint = hark_text::t_in(lang, "push-open-on-computer", &[]);
            message = hark_text::plain::cut(
                &format!("{message}\n\n{hint}"),
                push_text::MAX_MESSAGE_BYTES,
            );
        }
    }
    Message {
        topic: config.channels.ntfy.topic.clone(),
        title,
        message,
        priority: NEW_PRIORITY,
        tags: vec!["question"],
        click: page,
        actions,
        sequence_id: sequence_id(question.id),
    }
}

/// One button per option for a single choice of at most two options (ntfy shows three
/// buttons at most, and "Open" takes one); none otherwise, and none with the text hidden.
fn answer_buttons(
    relay: &Relay,
    config: &Config,
    base: &str,
    question: &Question,
) -> Vec<(String, String)> {
    let [sub] = question.questions.as_slice() else {
        return Vec::new();
    };
    if sub.multi_select
        || sub.options.is_empty()
        || sub.options.len() > 2
        || !config.channels.content_in_push
    {
        return Vec::new();
    }
    let labels: Vec<String> = sub
        .options
        .iter()
        .map(|option| option.label.clone())
        .collect();
    let Ok(capabilities) = relay.capabilities.issue(question.id, &labels) else {
        return Vec::new();
    };
    labels
        .into_iter()
        .zip(capabilities)
        .map(|(label, capability)| {
            (
                hark_text::plain::cut(&label, 64),
                format!("{base}/a/{}/{capability}", question.id),
            )
        })
        .collect()
}

fn closed_question(relay: &Relay, question: &Question) -> Message {
    let config = relay.store.config();
    let lang = daemon_lang(&config);
    let title = if config.channels.content_in_push {
        push_text::title(question)
    } else {
        "Hark".to_string()
    };
    let tag = match question.status {
        hark_core::model::Status::Answered => "white_check_mark",
        hark_core::model::Status::Timeout => "hourglass",
        _ => "x",
    };
    Message {
        topic: config.channels.ntfy.topic.clone(),
        title,
        message: push_text::outcome(lang, question),
        priority: CLOSED_PRIORITY,
        tags: vec![tag],
        click: None,
        actions: Vec::new(),
        sequence_id: sequence_id(question.id),
    }
}

/// The push of an agent that finished or waits, when the config tells of it: who, and what it
/// said last (unless pushes carry no content); one sequence id per session.
fn session_notice(relay: &Relay, session: &AgentSession) -> Option<Message> {
    let config = relay.store.config();
    let lang = daemon_lang(&config);
    let notice = hark_text::session::notice(lang, session, &config.notify_on)?;
    // Without content in pushes, not even the agent's folder leaves the machine.
    let (title, message) = if config.channels.content_in_push {
        let said = notice.said.clone().unwrap_or_else(|| notice.title.clone());
        let said = hark_text::plain::cut(&said, push_text::MAX_MESSAGE_BYTES);
        (notice.title, said)
    } else {
        let hidden = hark_text::t_in(lang, "push-session", &[]);
        ("Hark".to_string(), hidden)
    };
    let agents = relay
        .public_base_in(&config)
        .map(|base| format!("{base}/agents"));
    // "Reply" opens the Agents page, whose card tells the agent.
    let actions = (agents.iter())
        .map(|url| Action::View {
            label: hark_text::t_in(lang, "push-reply", &[]),
            url: url.clone(),
            clear: true,
        })
        .collect();
    Some(Message {
        topic: config.channels.ntfy.topic.clone(),
        title,
        message,
        priority: 3,
        tags: vec![match session.state {
            hark_core::model::SessionState::Waiting => "hourglass",
            _ => "white_check_mark",
        }],
        click: agents,
        actions,
        sequence_id: format!("session-{}", session.id),
    })
}

/// The question's id without dashes: ntfy's sequence ids are letters, digits, - and _.
fn sequence_id(id: QuestionId) -> String {
    id.to_string().replace('-', "")
}

/// Publishes `message`, retrying briefly; records the outcome.
async fn publish(relay: &Relay, message: &Message) -> Result<(), ChannelError> {
    let server = relay.store.config().channels.ntfy.server;
    let server = server.as_str();
    retried(super::retry::PUSH, |_| async move {
        let mut request = relay
            .http
            .post(format!("{server}/"))
            .header("X-Sequence-ID", &message.sequence_id)
            .json(message);
        if let Some(token) = relay.secrets.bound(TOKEN, server) {
            request = request.bearer_auth(token);
        }
        outbound::delivered(relay, ChannelName::Ntfy, server, request, |reason| reason).await
    })
    .await
}

/// `hark channel test ntfy`: one push saying Hark can reach the phone.
async fn test(relay: &Arc<Relay>) -> Result<String, ChannelError> {
    let config = relay.store.config();
    let ntfy = &config.channels.ntfy;
    if ntfy.topic.is_empty() {
        return Err(ChannelError::NotSetUp(
            "ntfy has no topic yet: set channels.ntfy.topic (settings, \"Notify me elsewhere\")"
                .into(),
        ));
    }
    let lang = daemon_lang(&config);
    let message = Message {
        topic: ntfy.topic.clone(),
        title: "Hark".into(),
        message: hark_text::t_in(lang, "push-test", &[]),
        priority: 3,
        tags: vec!["wave"],
        click: relay.public_base_in(&config),
        actions: Vec::new(),
        sequence_id: "hark-test".into(),
    };
    publish(relay, &message)
        .await
        .map(|()| format!("sent a test push through {}", ntfy.server))
}
