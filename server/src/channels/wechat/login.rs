//! Logging in by QR code: `get_bot_qrcode` gives a code, drawn for the terminal and settings;
//! a task long-polls `get_qrcode_status` through `scaned` (following `scaned_but_redirect` to the
//! host it names, and passing on the number WeChat may show on the phone) to `confirmed`, then
//! keeps the bot token in `secrets.json` and the confirming user in the config. A code that
//! expires, or a login that fails, ends in a state that says so; one login runs at a time.

use super::ilink::{Ilink, LoginStatus};
use super::{BOT_BASE, CHANNEL, TOKEN};
use crate::channels::Relay;
use crate::channels::chat::credentials;
use crate::channels::chat::learned::Learned;
use crate::channels::chat::pauses::Pauses;
use hark_core::model::channels::SetupRefusal;
use hark_core::model::channels::wechat::{WechatLogin, WechatLoginState, WechatRefusal};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::Notify;

/// How long a login waits for the person at most (the plugin's eight minutes).
const LOGIN_WAIT: Duration = Duration::from_secs(8 * 60);
/// The pause between two status polls that answered at once.
const BETWEEN_POLLS: Duration = Duration::from_secs(1);

/// The login in progress, if any.
#[derive(Default)]
pub struct Logins {
    shown: Learned<WechatLogin>,
    /// The number typed from the phone, waiting for the next poll.
    verify_code: Learned<String>,
    typed: Notify,
    /// Counts logins started: a newer one ends the older one's task.
    generation: AtomicU64,
}

impl Logins {
    /// The login as settings and the CLI show it.
    pub fn shown(&self) -> Option<WechatLogin> {
        self.shown.get()
    }

    fn change(&self, change: impl FnOnce(&mut WechatLogin)) {
        self.shown
            .change(|login| login.as_mut().map(change).unwrap_or_default());
    }

    fn set_state(&self, state: WechatLoginState) {
        self.change(|login| login.state = state);
    }

    fn needs_code(&self, wrong: bool) {
        self.change(|login| {
            login.state = WechatLoginState::NeedsCode;
            login.wrong_code = wrong;
        });
    }

    fn fail(&self, reason: String) {
        self.change(|login| {
            login.state = WechatLoginState::Failed;
            login.reason = Some(reason);
        });
    }

    fn state(&self) -> Option<WechatLoginState> {
        self.shown().map(|login| login.state)
    }

    /// Takes the number WeChat shows on the phone, for the login that asked for it.
    ///
    /// # Errors
    /// No login asks for a number, or `code` is not digits.
    pub fn verify(&self, code: &str) -> Result<(), WechatRefusal> {
        let code = code.trim();
        if code.is_empty() || code.len() > 12 || !code.bytes().all(|byte| byte.is_ascii_digit()) {
            return Err(WechatRefusal::CodeShape);
        }
        if self.state() != Some(WechatLoginState::NeedsCode) {
            return Err(WechatRefusal::NoLogin);
        }
        self.verify_code.set(Some(code.to_string()));
        // WeChat checks it now: asked again, the number was wrong.
        self.set_state(WechatLoginState::Scanned);
        self.typed.notify_waiters();
        Ok(())
    }

    fn take_verify_code(&self) -> Option<String> {
        let mut taken = None;
        self.verify_code.change(|code| taken = code.take());
        taken
    }
}

/// Asks WeChat for a login code and starts the task that follows it.
///
/// # Errors
/// When WeChat cannot be asked for a code.
pub async fn start(
    relay: &Arc<Relay>,
    logins: Arc<Logins>,
    on_confirmed: impl Fn() + Send + Sync + 'static,
) -> Result<WechatLogin, WechatRefusal> {
    let api_base = credentials::server(relay, CHANNEL);
    let api = Ilink::new(relay.http.clone(), &api_base, None);
    // The token kept, if any: WeChat then knows this bot is already bound here.
    let kept = relay.secrets.bound(TOKEN, &api_base);
    let code = api.login_code(kept).await.map_err(|error| {
        relay.statuses.failed(CHANNEL, &api_base, error.to_string());
        WechatRefusal::Unreachable {
            reason: error.to_string(),
        }
    })?;
    let login = WechatLogin {
        qr_svg: crate::security::pairing::qr_svg(&code.qrcode_img_content),
        qrcode_url: code.qrcode_img_content,
        state: WechatLoginState::Waiting,
        wrong_code: false,
        reason: None,
        expires_at: chrono::Utc::now() + chrono::Duration::from_std(LOGIN_WAIT).unwrap_or_default(),
    };
    let generation = logins.generation.fetch_add(1, Ordering::SeqCst) + 1;
    logins.shown.set(Some(login.clone()));
    logins.take_verify_code();
    tokio::spawn(follow(
        relay.clone(),
        logins.clone(),
        api,
        code.qrcode,
        generation,
        on_confirmed,
    ));
    Ok(login)
}

/// Follows one login code until it is confirmed, expires or fails, or a newer login starts.
/// A number typed from the phone goes with every poll until WeChat answers for it, as the
/// plugin sends it: asked for again, it was wrong.
async fn follow(
    relay: Arc<Relay>,
    logins: Arc<Logins>,
    mut api: Ilink,
    code: String,
    generation: u64,
    on_confirmed: impl Fn() + Send + Sync + 'static,
) {
    let current = || logins.generation.load(Ordering::SeqCst) == generation;
    let shutdown = relay.store.shutdown_token().clone();
    let deadline = tokio::time::Instant::now() + LOGIN_WAIT;
    let mut pauses = Pauses::default();
    let mut number: Option<String> = None;
    while current() && tokio::time::Instant::now() < deadline {
        let status = tokio::select! {
            status = api.login_status(&code, number.as_deref()) => status,
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep_until(deadline) => break,
        };
        if !current() {
            return;
        }
        let status = match status {
            Ok(status) => {
                pauses.reset();
                status
            }
            Err(error) if error.passing() => {
                tracing::debug!(channel = %CHANNEL, %error, "a login status poll failed");
                tokio::time::sleep(pauses.next(None)).await;
                continue;
            }
            Err(error) => {
                logins.fail(error.to_string());
                return;
            }
        };
        match status.status.as_str() {
            "scaned" => {
                number = None;
                logins.set_state(WechatLoginState::Scanned);
            }
            "scaned_but_redirect" => {
                if let Some(moved) = redirected(api.base(), status.redirect_host.as_deref()) {
                    api = Ilink::new(relay.http.clone(), &moved, None);
                }
                logins.set_state(WechatLoginState::Scanned);
            }
            "need_verifycode" => {
                logins.needs_code(number.take().is_some());
                // Waits for the number (or the end), then polls with it at once.
                let typed = logins.typed.notified();
                tokio::pin!(typed);
                typed.as_mut().enable();
                if let Some(code) = logins.take_verify_code() {
                    number = Some(code);
                    continue;
                }
                tokio::select! {
                    () = typed => {}
                    () = shutdown.cancelled() => return,
                    () = tokio::time::sleep_until(deadline) => break,
                }
                number = logins.take_verify_code();
                continue;
            }
            "verify_code_blocked" => {
                logins.fail(
                    "WeChat blocked the login after wrong numbers; wait, then start again".into(),
                );
                return;
            }
            "expired" => {
                logins.set_state(WechatLoginState::Expired);
                return;
            }
            "binded_redirect" => {
                // This bot is already bound here: the kept token still works.
                let api_base = credentials::server(&relay, CHANNEL);
                if relay.secrets.bound(TOKEN, &api_base).is_some() {
                    logins.set_state(WechatLoginState::Confirmed);
                } else {
                    logins.fail(
                        "this WeChat account is already connected to another Hark bot".into(),
                    );
                }
                return;
            }
            "confirmed" => {
                match confirmed(&relay, status).await {
                    Ok(()) => {
                        logins.set_state(WechatLoginState::Confirmed);
                        on_confirmed();
                    }
                    Err(reason) => logins.fail(reason),
                }
                return;
            }
            // `wait`, and anything newer: keep polling.
            _ => {}
        }
        tokio::time::sleep(BETWEEN_POLLS).await;
    }
    if current() && logins.state().is_some_and(WechatLoginState::going) {
        logins.set_state(WechatLoginState::Expired);
    }
}

/// The address to poll after `scaned_but_redirect`: the named host, with the scheme of the
/// address polled so far (`https` in use).
fn redirected(base: &str, host: Option<&str>) -> Option<String> {
    let host = host?.trim();
    let valid = !host.is_empty()
        && host
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'-' | b':'));
    if !valid {
        return None;
    }
    let scheme = base.split_once("://").map_or("https", |(scheme, _)| scheme);
    Some(format!("{scheme}://{host}"))
}

/// Keeps what a confirmed login gave: the token (bound to the API it came from), where the bot's
/// calls go, and the one user who may answer.
///
/// # Errors
/// Why the login cannot be kept, in a sentence.
async fn confirmed(relay: &Arc<Relay>, status: LoginStatus) -> Result<(), String> {
    let (Some(token), Some(user), Some(_bot)) = (
        credentials::given(status.bot_token),
        credentials::given(status.ilink_user_id),
        credentials::given(status.ilink_bot_id),
    ) else {
        return Err(
            "WeChat confirmed the login without a bot token, a bot or the user who scanned".into(),
        );
    };
    let bot_base = status
        .baseurl
        .map(|base| base.trim().trim_end_matches('/').to_string())
        .filter(|base| base.starts_with("https://") || base.starts_with("http://"));
    let values = vec![(TOKEN, Some(token)), (BOT_BASE, bot_base)];
    relay
        .save_credentials(values, &credentials::server(relay, CHANNEL))
        .await
        .map_err(|_| WechatRefusal::SaveFailed.message())?;
    relay
        .change_channels(move |channels| {
            channels.wechat.enabled = true;
            channels.wechat.user_id = Some(user);
        })
        .await
        .map_err(|_| "the config could not be saved".to_string())?;
    tracing::info!(channel = %CHANNEL, "a WeChat account logged in");
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_redirect_keeps_the_scheme_and_refuses_what_is_not_a_host() {
        assert_eq!(
            super::redirected("https://ilinkai.weixin.qq.com", Some("sh.weixin.qq.com")).as_deref(),
            Some("https://sh.weixin.qq.com")
        );
        assert_eq!(
            super::redirected("http://127.0.0.1:4000", Some("127.0.0.1:4001")).as_deref(),
            Some("http://127.0.0.1:4001")
        );
        for bad in [None, Some(""), Some("evil.example/path"), Some("a b")] {
            assert_eq!(super::redirected("https://x", bad), None);
        }
    }
}
