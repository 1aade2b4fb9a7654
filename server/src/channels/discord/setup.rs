//! Setting Discord up: the bot token checked for shape, then with Discord (`GET /users/@me`),
//! before it is kept; forgetting it; and the bot's report for settings and `hark status`.

use super::{CHANNEL, Discord, Rest, TOKEN};
use crate::channels::Relay;
use crate::channels::chat::credentials::{self, StatusLine};
use crate::channels::chat::{ChatSettings, Shared};
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::PairingReport;
use hark_core::model::channels::discord::{DiscordRefusal, DiscordReport, DiscordSetup};
use hark_core::model::{ChannelSummary, Channels, ChannelsReport};
use std::sync::Arc;

#[async_trait::async_trait]
impl ChatSettings for Discord {
    type Setup = DiscordSetup;
    type Refusal = DiscordRefusal;
    type Report = DiscordReport;

    async fn set_up(
        &self,
        relay: &Arc<Relay>,
        shared: &Arc<Shared>,
        request: DiscordSetup,
    ) -> Result<(), DiscordRefusal> {
        let api_base = credentials::server(relay, CHANNEL);
        let token = match credentials::given(request.bot_token) {
            Some(token) if !token_shaped(&token) => return Err(DiscordRefusal::TokenShape),
            Some(token) => token,
            None => relay
                .secrets
                .bound(TOKEN, &api_base)
                .ok_or(DiscordRefusal::NoToken)?,
        };
        let me = credentials::checked(
            Rest::new(relay.http.clone(), &api_base, &token).me().await,
            super::rest::wrong_token,
            DiscordRefusal::WrongToken,
            |reason| DiscordRefusal::Unreachable { reason },
        )?;
        self.identity.set(Some(me));
        let on = |channels: &mut Channels| channels.discord.enabled = true;
        credentials::take_on(relay, shared, vec![(TOKEN, token)], &api_base, on)
            .await
            .map_err(|_| DiscordRefusal::SaveFailed)
    }

    const CREDENTIALS: &'static [BoundKey] = &[TOKEN];
    const CREDENTIALS_NAMED: &'static str = "the Discord token";

    async fn forgot(&self, _: &Arc<Relay>) {
        self.identity.set(None);
    }

    fn report(&self, relay: &Relay, shared: &Shared) -> DiscordReport {
        let config = relay
            .store
            .read_config(|config| config.channels.discord.clone());
        DiscordReport {
            token: relay.secrets.bound(TOKEN, &config.api_base).is_some(),
            bot: self.identity.get().map(|identity| identity.username),
            connected: shared.connected(),
            paired: config.user_id.is_some(),
            pairings: shared.pairings(),
            pairing: shared.codes.waiting(),
        }
    }

    fn summary(app: &DiscordReport) -> Option<ChannelSummary> {
        StatusLine::of(CHANNEL, "bot", app.shared()).map(StatusLine::summary)
    }

    fn file(report: DiscordReport, into: &mut ChannelsReport) {
        into.discord = report;
    }
}

/// A bot token as the Developer Portal makes them: three parts of URL-safe base64 separated by
/// dots.
fn token_shaped(token: &str) -> bool {
    let parts: Vec<&str> = token.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
        })
        && (50..=120).contains(&token.len())
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_are_checked_for_shape_before_discord_is_asked() {
        assert!(super::token_shaped(
            "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"
        ));
        for wrong in ["", "xoxb-1-2", "a.b", "MTIz.Gh Ij.abc", "a..b"] {
            assert!(!super::token_shaped(wrong), "{wrong}");
        }
    }
}
