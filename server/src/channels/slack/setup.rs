//! Setting Slack up: both tokens checked with Slack (`auth.test`, `apps.connections.open`)
//! before they are kept, forgetting them, and the app's report for settings and `hark status`.

use super::web_api::wrong_token;
use super::{APP_TOKEN, BOT_TOKEN, CHANNEL, Slack, WebApi};
use crate::channels::Relay;
use crate::channels::chat::credentials::{self, StatusLine};
use crate::channels::chat::{ChatSettings, Shared};
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::PairingReport;
use hark_core::model::channels::slack::{SlackRefusal, SlackReport, SlackSetup};
use hark_core::model::{ChannelSummary, Channels, ChannelsReport};
use std::sync::Arc;

#[async_trait::async_trait]
impl ChatSettings for Slack {
    type Setup = SlackSetup;
    type Refusal = SlackRefusal;
    type Report = SlackReport;

    async fn set_up(
        &self,
        relay: &Arc<Relay>,
        shared: &Arc<Shared>,
        request: SlackSetup,
    ) -> Result<(), SlackRefusal> {
        let api_base = credentials::server(relay, CHANNEL);
        let bot = match credentials::given(request.bot_token) {
            Some(token) if !token.starts_with("xoxb-") => return Err(SlackRefusal::BotTokenShape),
            Some(token) => token,
            None => relay
                .secrets
                .bound(BOT_TOKEN, &api_base)
                .ok_or(SlackRefusal::NoToken)?,
        };
        let app = match credentials::given(request.app_token) {
            Some(token) if !token.starts_with("xapp-") => return Err(SlackRefusal::AppTokenShape),
            Some(token) => token,
            None => relay
                .secrets
                .bound(APP_TOKEN, &api_base)
                .ok_or(SlackRefusal::NoToken)?,
        };
        let unreachable = |reason| SlackRefusal::Unreachable { reason };
        let identity = credentials::checked(
            WebApi::new(relay.http.clone(), &api_base, &bot)
                .identity()
                .await,
            wrong_token,
            SlackRefusal::WrongBotToken,
            unreachable,
        )?;
        credentials::checked(
            WebApi::new(relay.http.clone(), &api_base, &app)
                .socket_address()
                .await,
            wrong_token,
            SlackRefusal::WrongAppToken,
            unreachable,
        )?;
        self.identity.set(Some(identity));
        let tokens = vec![(BOT_TOKEN, bot), (APP_TOKEN, app)];
        let on = |channels: &mut Channels| channels.slack.enabled = true;
        credentials::take_on(relay, shared, tokens, &api_base, on)
            .await
            .map_err(|_| SlackRefusal::SaveFailed)
    }

    const CREDENTIALS: &'static [BoundKey] = &[BOT_TOKEN, APP_TOKEN];
    const CREDENTIALS_NAMED: &'static str = "the Slack tokens";

    async fn forgot(&self, _: &Arc<Relay>) {
        self.identity.set(None);
    }

    fn report(&self, relay: &Relay, shared: &Shared) -> SlackReport {
        let config = relay
            .store
            .read_config(|config| config.channels.slack.clone());
        let identity = self.identity.get();
        SlackReport {
            token: relay.secrets.bound(BOT_TOKEN, &config.api_base).is_some()
                && relay.secrets.bound(APP_TOKEN, &config.api_base).is_some(),
            bot: identity.as_ref().and_then(|identity| identity.user.clone()),
            team: identity.and_then(|identity| identity.team),
            connected: shared.connected(),
            paired: config.user_id.is_some(),
            pairings: shared.pairings(),
            pairing: shared.codes.waiting(),
        }
    }

    fn summary(app: &SlackReport) -> Option<ChannelSummary> {
        StatusLine::of(CHANNEL, "app", app.shared()).map(StatusLine::summary)
    }

    fn file(report: SlackReport, into: &mut ChannelsReport) {
        into.slack = report;
    }
}
