//! The `Channel` every chat app is: it starts the engine and the link, hands them the hub's
//! events and the settings' changes, sends the test message, unpairs and forgets the same way
//! for every app, and leaves setup and the report to the app.

use super::words::Words;
use super::{ChatApp, Input, credentials, engine, link};
use crate::channels::pairing::PairingCodes;
use crate::channels::{Channel, Relay};
use hark_core::model::channels::SetupRefusal;
use hark_core::model::{
    ActionRefusal, ChannelAction, ChannelError, ChannelName, Channels, ChannelsReport, Config,
    ErrorBody, Event,
};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{Notify, mpsc};

/// Events and inbounds waiting for the engine at most.
const INBOX: usize = 1024;
/// How long logging out waits for the goodbye at most.
const GOODBYE_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// What an app's engine, link and actions share: the pairing code, whether the link is up,
/// how many people paired since the start, and the wake-up of settings changes.
#[derive(Default)]
pub struct Shared {
    pub codes: PairingCodes<String>,
    connected: AtomicBool,
    pairings: AtomicU64,
    /// Wakes the link when the settings change.
    pub wake: Notify,
}

impl Shared {
    pub fn set_connected(&self, connected: bool) {
        self.connected.store(connected, Ordering::SeqCst);
    }

    pub fn connected(&self) -> bool {
        self.connected.load(Ordering::SeqCst)
    }

    pub fn paired(&self) {
        self.pairings.fetch_add(1, Ordering::SeqCst);
    }

    /// People paired since the daemon started, so `hark <app> setup` knows its code worked.
    pub fn pairings(&self) -> u64 {
        self.pairings.load(Ordering::SeqCst)
    }
}

/// A chat app as the relay knows it.
pub struct ChatChannel<A: ChatApp> {
    app: Arc<A>,
    shared: Arc<Shared>,
    inbox: mpsc::Sender<Input<A::Responder>>,
    receiver: Mutex<Option<mpsc::Receiver<Input<A::Responder>>>>,
}

impl<A: ChatApp> ChatChannel<A> {
    pub fn new(app: A) -> ChatChannel<A> {
        let (inbox, receiver) = mpsc::channel(INBOX);
        ChatChannel {
            app: Arc::new(app),
            shared: Arc::new(Shared::default()),
            inbox,
            receiver: Mutex::new(Some(receiver)),
        }
    }

    /// Unpairs the person, who hears so; an app whose unpairing logs out then forgets its
    /// credentials, once the goodbye was tried.
    async fn unpair(&self, relay: &Arc<Relay>) -> Result<(), ChannelError> {
        let before = relay
            .store
            .read_config(|config| config.channels.chat_app(A::NAME).1);
        relay
            .change_channels(|channels| channels.pair_chat_app(A::NAME, None))
            .await?;
        if let Some(person) = before {
            let _ = self.inbox.try_send(Input::Unpaired(person));
        }
        if A::UNPAIR_LOGS_OUT {
            let (settled, said) = tokio::sync::oneshot::channel();
            if self.inbox.try_send(Input::Settled(settled)).is_ok() {
                let _ = tokio::time::timeout(GOODBYE_WAIT, said).await;
            }
            self.forget(relay).await?;
        }
        Ok(())
    }

    /// Its report alone, as its actions answer.
    fn own_report(&self, relay: &Relay) -> Result<serde_json::Value, ActionRefusal> {
        crate::channels::output(&self.app.report(relay, &self.shared))
    }

    async fn forget(&self, relay: &Arc<Relay>) -> Result<(), ChannelError> {
        credentials::forget(relay, A::NAME, A::CREDENTIALS, A::CREDENTIALS_NAMED).await?;
        self.app.forgot(relay).await;
        relay
            .change_channels(|channels| {
                channels.enable_chat_app(A::NAME, false);
                channels.pair_chat_app(A::NAME, None);
            })
            .await?;
        self.settings_changed();
        Ok(())
    }
}

#[async_trait::async_trait]
impl<A: ChatApp> Channel for ChatChannel<A> {
    fn name(&self) -> ChannelName {
        A::NAME
    }

    fn on(&self, channels: &Channels) -> bool {
        channels.chat_app(A::NAME).0
    }

    /// Starts the engine and the link.
    fn start(self: Arc<Self>, relay: &Arc<Relay>) {
        let receiver = self
            .receiver
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .take();
        if let Some(receiver) = receiver {
            let (app, shared, inbox) = (&self.app, &self.shared, self.inbox.clone());
            let engine = engine::run(relay.clone(), app.clone(), shared.clone(), receiver);
            let link = link::supervise(relay.clone(), app.clone(), shared.clone(), inbox);
            tokio::spawn(engine);
            tokio::spawn(link);
        }
    }

    fn settings_changed(&self) {
        self.shared.wake.notify_waiters();
    }

    fn handle(&self, _relay: &Arc<Relay>, event: &Arc<Event>, _config: &Config) {
        if self.inbox.try_send(Input::Event(event.clone())).is_err() {
            tracing::warn!(channel = %A::NAME, "the chat fell behind; an event was not handled");
        }
    }

    /// A message in the paired person's conversation.
    async fn test(&self, relay: &Arc<Relay>) -> Result<String, ChannelError> {
        let name = A::NAME;
        let words = Words::of::<A>(relay);
        let Some(line) = super::line_of(&*self.app, relay) else {
            return Err(ChannelError::NotSetUp(format!(
                "{} is not set up: run `hark {name} setup`, or turn it on and pair in settings (\"Notify me elsewhere\")",
                words.app
            )));
        };
        let Some(person) = relay
            .store
            .read_config(|config| config.channels.chat_app(A::NAME).1)
        else {
            return Err(ChannelError::NotSetUp(if A::PAIRS_BY_CODE {
                format!(
                    "nobody is paired in {} yet: run `hark {name} setup` and send the bot `{} <code>`",
                    words.app,
                    A::PAIR_COMMAND
                )
            } else {
                format!(
                    "nobody is logged in to {} yet: run `hark {name} setup`",
                    words.app
                )
            }));
        };
        let view = self.app.said(&words.in_app("chat-test"));
        let sent = async {
            let at = self.app.open(&line, &person).await?;
            self.app.post(&line, &at, &view).await
        };
        match sent.await {
            Ok(_) => {
                relay.statuses.sent(name, &line.server);
                Ok(format!(
                    "sent a test message to the paired person in {}",
                    words.app
                ))
            }
            Err(error) => {
                relay.statuses.failed(name, &line.server, error.to_string());
                Err(ChannelError::Undelivered(error.to_string()))
            }
        }
    }

    fn report(&self, relay: &Relay, report: &mut ChannelsReport) {
        let own = self.app.report(relay, &self.shared);
        report.summaries.extend(A::summary(&own));
        A::file(own, report);
    }

    fn actions(&self) -> &'static [ChannelAction] {
        A::ACTIONS
    }

    async fn act(
        &self,
        relay: &Arc<Relay>,
        action: ChannelAction,
        input: serde_json::Value,
    ) -> Result<serde_json::Value, ActionRefusal> {
        match action {
            _ if !A::ACTIONS.contains(&action) => Err(ActionRefusal::no_action(A::NAME, action)),
            ChannelAction::Setup => {
                let request: A::Setup = crate::channels::input(input)?;
                let set_up = self.app.set_up(relay, &self.shared, request).await;
                set_up.map_err(|refusal| refused(&refusal))?;
                self.settings_changed();
                self.own_report(relay)
            }
            ChannelAction::Unpair => {
                self.unpair(relay).await?;
                self.own_report(relay)
            }
            ChannelAction::Forget => {
                self.forget(relay).await?;
                self.own_report(relay)
            }
            ChannelAction::Verify => {
                self.app
                    .other_action(relay, &self.shared, action, input)
                    .await
            }
        }
    }
}

/// A refusal of an app's setup, as its action answers it.
pub fn refused(refusal: &impl SetupRefusal) -> ActionRefusal {
    ActionRefusal {
        status: refusal.status(),
        body: ErrorBody::field(refusal.field(), refusal.message()),
        refusal: serde_json::to_value(refusal).ok().map(Box::new),
    }
}
