//! Setting Feishu/Lark up: the App ID and App Secret checked with the platform (a tenant token,
//! then `bot/v3/info`) before they are kept, forgetting them, and the app's report for settings
//! and `hark status`.

use super::open_api::{wrong_app_id, wrong_secret};
use super::{APP_ID, APP_SECRET, CHANNEL, Feishu, OpenApi};
use crate::channels::Relay;
use crate::channels::chat::credentials::{self, StatusLine};
use crate::channels::chat::service::ServiceError;
use crate::channels::chat::{ChatSettings, Shared};
use hark_core::model::channels::feishu::{FeishuRefusal, FeishuReport, FeishuSetup};
use hark_core::model::{ChannelError, ChannelSummary, Channels, ChannelsReport};
use std::sync::Arc;

#[async_trait::async_trait]
impl ChatSettings for Feishu {
    type Setup = FeishuSetup;
    type Refusal = FeishuRefusal;
    type Report = FeishuReport;

    /// Checks the credentials given (or the saved ones) with Feishu, saves them, turns the app on
    /// and makes a new pairing code.
    ///
    /// # Errors
    /// Why Feishu cannot be set up, naming the field.
    async fn set_up(
        &self,
        relay: &Arc<Relay>,
        shared: &Arc<Shared>,
        request: FeishuSetup,
    ) -> Result<(), FeishuRefusal> {
        let saved_base = relay
            .store
            .read_config(|config| config.channels.feishu.api_base.clone());
        let api_base = match request
            .api_base
            .as_deref()
            .map(str::trim)
            .filter(|base| !base.is_empty())
        {
            Some(base) => hark_core::model::channels::feishu::setup_api_base(base)?,
            None => saved_base.clone(),
        };
        let given = |value: Option<String>| {
            value
                .map(|value| value.trim().to_string())
                .filter(|value| !value.is_empty())
        };
        let saved = |key| relay.secrets.bound(key, &saved_base);
        let app_id = match given(request.app_id) {
            Some(id) if !id.starts_with("cli_") => return Err(FeishuRefusal::AppIdShape),
            Some(id) => id,
            None => saved(APP_ID).ok_or(FeishuRefusal::NoCredentials)?,
        };
        let app_secret = given(request.app_secret)
            .or_else(|| saved(APP_SECRET))
            .ok_or(FeishuRefusal::NoCredentials)?;
        let api = OpenApi::new(
            relay.http.clone(),
            &api_base,
            &app_id,
            &app_secret,
            self.tokens.clone(),
        );
        match api.check().await {
            Ok(()) => {}
            Err(error) if wrong_app_id(&error) => return Err(FeishuRefusal::WrongAppId),
            Err(error) if wrong_secret(&error) => return Err(FeishuRefusal::WrongAppSecret),
            Err(error @ ServiceError::Refused { .. }) => {
                return Err(FeishuRefusal::WrongAppSecret).inspect_err(|_| {
                    tracing::info!(channel = %CHANNEL, %error, "Feishu refused the app's credentials");
                });
            }
            Err(error) => {
                return Err(FeishuRefusal::Unreachable {
                    reason: error.to_string(),
                });
            }
        }
        let bot = match api.bot().await {
            Ok(bot) => bot,
            Err(error @ ServiceError::Refused { .. }) => {
                return Err(FeishuRefusal::NoBot {
                    reason: error.to_string(),
                });
            }
            Err(error) => {
                return Err(FeishuRefusal::Unreachable {
                    reason: error.to_string(),
                });
            }
        };
        self.bot.set(Some(bot));
        let moved = api_base != saved_base;
        let at = api_base.clone();
        let on = move |channels: &mut Channels| {
            let feishu = &mut channels.feishu;
            feishu.enabled = true;
            if moved {
                // Open ids belong to one app on one platform: the person pairs again.
                feishu.open_id = None;
            }
            feishu.api_base = at;
        };
        let values = vec![(APP_ID, app_id), (APP_SECRET, app_secret)];
        credentials::take_on(relay, shared, values, &api_base, on)
            .await
            .map_err(|_| FeishuRefusal::SaveFailed)
    }

    /// Forgets the credentials (the engine turns the app off).
    ///
    /// # Errors
    /// When the secrets cannot be saved.
    async fn forget_credentials(&self, relay: &Arc<Relay>) -> Result<(), ChannelError> {
        let api_base = relay
            .store
            .read_config(|config| config.channels.feishu.api_base.clone());
        credentials::forget(
            relay,
            &[APP_ID, APP_SECRET],
            &api_base,
            "the Feishu app's credentials",
        )
        .await?;
        self.bot.set(None);
        Ok(())
    }

    /// The app as settings and the CLI show it.
    fn report(&self, relay: &Relay, shared: &Shared) -> FeishuReport {
        let config = relay
            .store
            .read_config(|config| config.channels.feishu.clone());
        FeishuReport {
            token: relay.secrets.bound(APP_ID, &config.api_base).is_some()
                && relay.secrets.bound(APP_SECRET, &config.api_base).is_some(),
            bot: self.bot.get().and_then(|bot| bot.app_name),
            api_base: config.api_base,
            connected: shared.connected(),
            paired: config.open_id.is_some(),
            pairings: shared.pairings(),
            pairing: shared.codes.waiting(),
        }
    }

    /// Its line in `hark status`, once it has credentials.
    fn summary(app: &FeishuReport) -> Option<ChannelSummary> {
        let line = StatusLine {
            channel: CHANNEL,
            kind: "app",
            name: app.bot.as_deref().map(|name| format!("\"{name}\"")),
            at: Some(app.api_base.clone()),
            connected: Some(app.connected),
            paired: app.paired,
            who: "person",
        };
        app.token.then(|| line.summary())
    }

    fn file(report: FeishuReport, into: &mut ChannelsReport) {
        into.feishu = report;
    }
}
