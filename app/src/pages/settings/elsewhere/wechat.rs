//! WeChat's part of "Notify me elsewhere" (SPEC §17): logging in by scanning the QR code the
//! daemon draws, the number WeChat may ask for, where the login stands, and logging out. Plain
//! forms: it works without JavaScript ("check again" loads the section anew).

use crate::components::failure::Failure;
use crate::i18n::{t, t_args, tr};
use hark_core::model::channels::wechat::{WechatLoginState, WechatReport};
use leptos::prelude::*;

/// The desk's answer to `action`, or the form's refusal.
#[cfg(feature = "ssr")]
async fn act<Form: server_fn::ServerFn>(
    action: &'static str,
    input: serde_json::Value,
) -> Result<(), Failure> {
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    let channel = hark_core::model::ChannelName::Wechat;
    desk.act(channel, action, input).await.map_err(|refusal| {
        crate::components::failure::refuse::<Form>(
            "/settings",
            Failure::ChannelRefused { channel, refusal },
        )
    })?;
    leptos_axum::redirect("/settings#wechat-heading");
    Ok(())
}

/// Asks WeChat for a login code, which the section then shows.
#[server(prefix = "/fn")]
pub async fn connect_wechat() -> Result<(), Failure> {
    act::<ConnectWechat>("setup", serde_json::json!({})).await
}

/// Passes on the number WeChat shows on the phone.
#[server(prefix = "/fn")]
pub async fn verify_wechat(#[server(default)] code: String) -> Result<(), Failure> {
    act::<VerifyWechat>("verify", serde_json::json!({ "code": code })).await
}

/// Logs out: forgets the account and the token.
#[server(prefix = "/fn")]
pub async fn unpair_wechat() -> Result<(), Failure> {
    act::<UnpairWechat>("unpair", serde_json::json!({})).await
}

/// Loads the section again, to see where the login stands.
#[server(prefix = "/fn")]
pub async fn check_wechat() -> Result<(), Failure> {
    leptos_axum::redirect("/settings#wechat-heading");
    Ok(())
}

/// The section's WeChat forms, made once by the section.
#[derive(Clone, Copy)]
pub struct WechatForms {
    pub connect: ServerAction<ConnectWechat>,
    pub verify: ServerAction<VerifyWechat>,
    pub unpair: ServerAction<UnpairWechat>,
    pub check: ServerAction<CheckWechat>,
}

impl WechatForms {
    pub fn new() -> WechatForms {
        WechatForms {
            connect: ServerAction::new(),
            verify: ServerAction::new(),
            unpair: ServerAction::new(),
            check: ServerAction::new(),
        }
    }

    /// Changes each time one of the forms was sent, so the section loads again.
    pub fn versions(&self) -> (usize, usize, usize, usize) {
        (
            self.connect.version().get(),
            self.verify.version().get(),
            self.unpair.version().get(),
            self.check.version().get(),
        )
    }
}

/// WeChat's part of the section, as last loaded.
#[component]
pub fn WechatLogin(report: WechatReport, forms: WechatForms) -> impl IntoView {
    let WechatForms {
        connect,
        verify,
        unpair,
        check,
    } = forms;
    let problem = move || {
        [
            connect.value().get(),
            verify.value().get(),
            unpair.value().get(),
        ]
        .into_iter()
        .flatten()
        .find_map(Result::err)
        .map(|failure| refusal_text(&failure))
    };
    let status = if report.session_expired {
        ("status failing", tr("elsewhere-wechat-session-ended"))
    } else if report.paired {
        ("status", tr("elsewhere-wechat-paired"))
    } else {
        ("status muted", tr("elsewhere-wechat-not-paired"))
    };
    let login = report.login.map(|login| {
        let going = login.state.going();
        let state = match &login.state {
            WechatLoginState::Waiting => t("elsewhere-wechat-scan"),
            WechatLoginState::Scanned => t("elsewhere-wechat-scanned"),
            WechatLoginState::NeedsCode { wrong: false } => t("elsewhere-wechat-needs-code"),
            WechatLoginState::NeedsCode { wrong: true } => t("elsewhere-wechat-wrong-code"),
            WechatLoginState::Confirmed => t("elsewhere-wechat-confirmed"),
            WechatLoginState::Expired => t("elsewhere-wechat-expired"),
            WechatLoginState::Failed { reason } => {
                t_args("elsewhere-wechat-failed", &[("reason", reason.clone().into())])
            }
        };
        let needs_code = matches!(login.state, WechatLoginState::NeedsCode { .. });
        view! {
            <div class="pairing-code" data-testid="wechat-login">
                <p data-testid="wechat-login-state">{state}</p>
                {going.then(|| login.qr_svg.clone().map(|svg| view! {
                    // Drawn by the daemon from WeChat's login link, never from a person's input.
                    <div class="qr" data-testid="wechat-qr" inner_html=svg></div>
                }))}
                {going.then(|| view! {
                    <p class="help"><a href=login.qrcode_url.clone() target="_blank" rel="noopener noreferrer">{login.qrcode_url.clone()}</a></p>
                })}
                {needs_code.then(|| view! {
                    <ActionForm action=verify>
                        <div class="field">
                            <label for="wechat-code">{tr("elsewhere-wechat-code")}</label>
                            <input id="wechat-code" name="code" inputmode="numeric" autocomplete="one-time-code" value="" />
                        </div>
                        <button type="submit" class="secondary">{tr("elsewhere-wechat-send-code")}</button>
                    </ActionForm>
                })}
                {going.then(|| view! {
                    <ActionForm action=check>
                        <button type="submit" class="secondary" data-testid="wechat-check">{tr("elsewhere-wechat-check")}</button>
                    </ActionForm>
                })}
            </div>
        }
    });
    view! {
        <fieldset class="wechat">
            <legend id="wechat-heading">{tr("elsewhere-wechat")}</legend>
            <p class="help">{tr("elsewhere-wechat-help")}</p>
            <p data-testid="wechat-paired" class=status.0>{status.1}</p>
            {login}
            <ActionForm action=connect>
                <button type="submit" class="secondary" data-testid="wechat-connect">{tr("elsewhere-wechat-connect")}</button>
            </ActionForm>
            {(report.paired || report.token).then(|| view! {
                <ActionForm action=unpair>
                    <button type="submit" class="secondary" data-testid="wechat-unpair">{tr("elsewhere-wechat-unpair")}</button>
                </ActionForm>
            })}
            <p class="error" role="alert" data-testid="wechat-problem">{problem}</p>
        </fieldset>
    }
}

/// A failure of the forms in the person's language: WeChat's own refusals in its own words.
fn refusal_text(failure: &Failure) -> String {
    use hark_core::model::channels::wechat::WechatRefusal;
    let Failure::ChannelRefused { refusal, .. } = failure else {
        return failure.text();
    };
    let refusal = refusal
        .refusal
        .as_deref()
        .and_then(|refusal| serde_json::from_value::<WechatRefusal>(refusal.clone()).ok());
    match refusal {
        Some(WechatRefusal::Unreachable { reason }) => {
            t_args("elsewhere-wechat-unreachable", &[("reason", reason.into())])
        }
        Some(WechatRefusal::CodeShape | WechatRefusal::NoLogin) => t("elsewhere-wechat-code-shape"),
        Some(WechatRefusal::SaveFailed) => t("settings-save-failed"),
        None => failure.text(),
    }
}
