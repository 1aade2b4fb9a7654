//! Setting Feishu/Lark up: the App ID and App Secret checked with the platform (a tenant token,
//! then `bot/v3/info`) before they are kept, forgetting them, and the app's report for settings
//! and `hark status`.

use super::open_api::{wrong_app_id, wrong_secret};
use super::{APP_ID, APP_SECRET, CHANNEL, Feishu, OpenApi};
use crate::channels::Relay;
use crate::channels::chat::credentials::{self, StatusLine};
use crate::channels::chat::service::ServiceError;
use crate::channels::chat::{ChatSettings, Shared};
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::PairingReport;
use hark_core::model::channels::feishu::{FeishuRefusal, FeishuReport, FeishuSetup};
use hark_core::model::{ChannelSummary, Channels, ChannelsReport};
use std::sync::Arc;

#[async_trait::async_trait]
impl ChatSettings for Feishu {
    type Setup = FeishuSetup;
    type Refusal = FeishuRefusal;
    type Report = FeishuReport;

    async fn set_up(
        &self,
        relay: &Arc<Relay>,
        shared: &Arc<Shared>,
        request: FeishuSetup,
    ) -> Result<(), FeishuRefusal> {
        let saved_base = credentials::server(relay, CHANNEL);
        let api_base = match request
            .api_base
            .as_deref()
            .map(str::trim)
            .filter(|base| !base.is_empty())
        {
            Some(base) => hark_core::model::channels::feishu::setup_api_base(base)?,
            None => saved_base.clone(),
        };
        let saved = |key| relay.secrets.bound(key, &saved_base);
        let app_id = match credentials::given(request.app_id) {
            Some(id) if !id.starts_with("cli_") => return Err(FeishuRefusal::AppIdShape),
            Some(id) => id,
            None => saved(APP_ID).ok_or(FeishuRefusal::NoCredentials)?,
        };
        let app_secret = credentials::given(request.app_secret)
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

    const CREDENTIALS: &'static [BoundKey] = &[APP_ID, APP_SECRET];
    const CREDENTIALS_NAMED: &'static str = "the Feishu app's credentials";

    async fn forgot(&self, _: &Arc<Relay>) {
        self.bot.set(None);
    }

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

    fn summary(app: &FeishuReport) -> Option<ChannelSummary> {
        let line = StatusLine::of(CHANNEL, "app", app.shared());
        line.map(|line| {
            let name = app.bot.as_deref().map(|name| format!("\"{name}\""));
            let at = Some(app.api_base.clone());
            StatusLine { name, at, ..line }.summary()
        })
    }

    fn file(report: FeishuReport, into: &mut ChannelsReport) {
        into.feishu = report;
    }
}
