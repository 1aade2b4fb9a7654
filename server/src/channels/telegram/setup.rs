//! Setting the Telegram bot up: the token checked for shape, then with Telegram (`getMe`),
//! before it is kept; forgetting it; and the bot's report (with the `t.me` link that sends the
//! pairing code) for settings and `hark status`.

use super::{BotApi, CHANNEL, TOKEN, Telegram};
use crate::channels::Relay;
use crate::channels::chat::credentials::{self, StatusLine};
use crate::channels::chat::{ChatSettings, Shared};
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::PairingReport;
use hark_core::model::channels::telegram::{TelegramRefusal, TelegramReport, TelegramSetup};
use hark_core::model::{ChannelSummary, Channels, ChannelsReport};
use std::sync::Arc;

#[async_trait::async_trait]
impl ChatSettings for Telegram {
    type Setup = TelegramSetup;
    type Refusal = TelegramRefusal;
    type Report = TelegramReport;

    async fn set_up(
        &self,
        relay: &Arc<Relay>,
        shared: &Arc<Shared>,
        request: TelegramSetup,
    ) -> Result<(), TelegramRefusal> {
        let api_base = credentials::server(relay, CHANNEL);
        let token = match credentials::given(request.bot_token) {
            Some(token) if !token_shaped(&token) => return Err(TelegramRefusal::TokenShape),
            Some(token) => token,
            None => relay
                .secrets
                .bound(TOKEN, &api_base)
                .ok_or(TelegramRefusal::NoToken)?,
        };
        let me = credentials::checked(
            BotApi::new(relay.http.clone(), &api_base, &token)
                .me()
                .await,
            super::bot_api::wrong_token,
            TelegramRefusal::WrongToken,
            |reason| TelegramRefusal::Unreachable { reason },
        )?;
        self.bot.set(me.username);
        let on = |channels: &mut Channels| channels.telegram.enabled = true;
        credentials::take_on(relay, shared, vec![(TOKEN, token)], &api_base, on)
            .await
            .map_err(|_| TelegramRefusal::SaveFailed)
    }

    const CREDENTIALS: &'static [BoundKey] = &[TOKEN];
    const CREDENTIALS_NAMED: &'static str = "the bot token";

    async fn forgot(&self, _: &Arc<Relay>) {
        self.bot.set(None);
    }

    fn report(&self, relay: &Relay, shared: &Shared) -> TelegramReport {
        let config = relay
            .store
            .read_config(|config| config.channels.telegram.clone());
        let bot = self.bot.get();
        let pairing = shared.codes.waiting().map(|mut pairing| {
            pairing.link = bot
                .as_ref()
                .map(|bot| format!("https://t.me/{bot}?start={}", pairing.code));
            pairing
        });
        TelegramReport {
            token: relay.secrets.bound(TOKEN, &config.api_base).is_some(),
            bot,
            paired: config.chat_id.is_some(),
            pairings: shared.pairings(),
            pairing,
        }
    }

    fn summary(app: &TelegramReport) -> Option<ChannelSummary> {
        let line = StatusLine::of(CHANNEL, "bot", app.shared());
        line.map(|line| {
            StatusLine {
                who: "chat",
                ..line
            }
            .summary()
        })
    }

    fn file(report: TelegramReport, into: &mut ChannelsReport) {
        into.telegram = report;
    }
}

/// A bot token as @BotFather makes them: the bot's id, a colon, 30 or more URL-safe characters.
fn token_shaped(token: &str) -> bool {
    let Some((id, secret)) = token.split_once(':') else {
        return false;
    };
    !id.is_empty()
        && id.len() <= 20
        && id.bytes().all(|byte| byte.is_ascii_digit())
        && (30..=100).contains(&secret.len())
        && secret
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_are_checked_for_shape_before_telegram_is_asked() {
        assert!(super::token_shaped(
            "123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-Qs"
        ));
        for wrong in [
            "",
            "123456789",
            ":AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-Qs",
            "12a:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-Qs",
            "123:short",
            "123:AAEhBOweik6ad9r QXMENQjcrGbqCr4K-Qs",
            "123:AAEhBOweik6ad9r/QXMENQjcrGbqCr4K-Qs",
        ] {
            assert!(!super::token_shaped(wrong), "{wrong}");
        }
    }
}
