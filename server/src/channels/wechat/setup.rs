//! Setting WeChat up: a QR login started (`login`), the number WeChat may show on the phone,
//! logging out, and the channel's report for settings and `hark status`.

use super::{BOT_BASE, CHANNEL, TOKEN, Wechat, login, record};
use crate::channels::Relay;
use crate::channels::chat::{ChatSettings, Shared};
use crate::daemon::secrets::BoundKey;
use hark_core::model::channels::wechat::{WechatRefusal, WechatReport};
use hark_core::model::{ChannelSummary, ChannelsReport};
use std::sync::Arc;
use std::sync::atomic::Ordering;

#[async_trait::async_trait]
impl ChatSettings for Wechat {
    /// A login takes nothing: the person scans a code.
    type Setup = serde::de::IgnoredAny;
    type Refusal = WechatRefusal;
    type Report = WechatReport;

    /// Starts a QR login; a confirmed one pairs the account that scanned.
    async fn set_up(
        &self,
        relay: &Arc<Relay>,
        shared: &Arc<Shared>,
        _request: serde::de::IgnoredAny,
    ) -> Result<(), WechatRefusal> {
        let ended = self.session_ended.clone();
        let confirmed_by = shared.clone();
        login::start(relay, self.logins.clone(), move || {
            ended.store(false, Ordering::SeqCst);
            confirmed_by.paired();
            confirmed_by.wake.notify_waiters();
        })
        .await
        .map(|_| ())
    }

    /// Logging out forgets the token and where the bot's calls went, and the poll's record.
    const CREDENTIALS: &'static [BoundKey] = &[BOT_BASE, TOKEN];
    const CREDENTIALS_NAMED: &'static str = "the WeChat token";

    async fn forgot(&self, relay: &Arc<Relay>) {
        record::forget(relay.home.as_deref()).await;
        self.context.set(None);
        self.session_ended.store(false, Ordering::SeqCst);
    }

    fn report(&self, relay: &Relay, shared: &Shared) -> WechatReport {
        let wechat = relay
            .store
            .read_config(|config| config.channels.wechat.clone());
        WechatReport {
            token: relay.secrets.bound(TOKEN, &wechat.api_base).is_some(),
            paired: wechat.user_id.is_some(),
            session_expired: self.session_ended.load(Ordering::SeqCst),
            logins: shared.pairings(),
            login: self.logins.shown(),
        }
    }

    fn summary(wechat: &WechatReport) -> Option<ChannelSummary> {
        let summary = if wechat.session_expired {
            "WeChat ended the login: log in again with `hark wechat setup`"
        } else if wechat.paired {
            "logged in; questions go to the WeChat that scanned"
        } else {
            "not logged in (`hark wechat setup`)"
        };
        wechat.token.then(|| ChannelSummary {
            channel: CHANNEL,
            summary: summary.into(),
        })
    }

    fn file(report: WechatReport, into: &mut ChannelsReport) {
        into.wechat = report;
    }
}
