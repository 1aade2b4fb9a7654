//! WeChat's part of "Notify me elsewhere" (SPEC §17): logging in by scanning the QR code the
//! daemon draws, the number WeChat may ask for, where the login stands, and logging out. Plain
//! forms: it works without JavaScript ("check again" loads the section anew).

use crate::failure::Failure;
use crate::i18n::{t, t_args, tr};
use hark_core::model::channels::wechat::{WechatLoginState, WechatReport};
use leptos::prelude::*;

/// One of the part's forms: `setup` asks WeChat for a login code, `verify` passes on the number
/// WeChat shows on the phone, `unpair` logs out, and `check` only loads the section again to see
/// where the login stands. One server function for the four keeps the page's WebAssembly small.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn wechat_login(step: String, #[server(default)] code: String) -> Result<(), Failure> {
    use crate::failure::refuse;
    use hark_core::model::ChannelAction;
    let channel = hark_core::model::ChannelName::Wechat;
    let (action, input) = match step.as_str() {
        "setup" => (ChannelAction::Setup, serde_json::json!({})),
        "verify" => (ChannelAction::Verify, serde_json::json!({ "code": code })),
        "unpair" => (ChannelAction::Unpair, serde_json::json!({})),
        "check" => {
            leptos_axum::redirect("/settings#wechat-heading");
            return Ok(());
        }
        _ => {
            return Err(refuse::<WechatLogin>(
                "/settings",
                Failure::BadRequest {
                    details: format!("step: \"{step}\" is not setup, verify, unpair or check"),
                },
            ));
        }
    };
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    desk.act(channel, action, input).await.map_err(|refusal| {
        refuse::<WechatLogin>("/settings", Failure::channel_refused(channel, refusal))
    })?;
    leptos_axum::redirect("/settings#wechat-heading");
    Ok(())
}

/// A hidden field naming the form's step.
#[component]
fn Step(step: &'static str) -> impl IntoView {
    view! { <input type="hidden" name="step" value=step /> }
}

/// WeChat's part of the section, as last loaded.
#[component]
pub fn WechatPart(report: WechatReport, form: ServerAction<WechatLogin>) -> impl IntoView {
    let problem = move || match form.value().get() {
        Some(Err(failure)) => Some(refusal_text(&failure)),
        _ => None,
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
        let state = match login.state {
            WechatLoginState::Waiting => t("elsewhere-wechat-scan"),
            WechatLoginState::Scanned => t("elsewhere-wechat-scanned"),
            WechatLoginState::NeedsCode if login.wrong_code => t("elsewhere-wechat-wrong-code"),
            WechatLoginState::NeedsCode => t("elsewhere-wechat-needs-code"),
            WechatLoginState::Confirmed => t("elsewhere-wechat-confirmed"),
            WechatLoginState::Expired => t("elsewhere-wechat-expired"),
            WechatLoginState::Failed => t_args(
                "elsewhere-wechat-failed",
                &[("reason", login.reason.clone().unwrap_or_default().into())],
            ),
        };
        let needs_code = login.state == WechatLoginState::NeedsCode;
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
                    <ActionForm action=form>
                        <Step step="verify" />
                        <div class="field">
                            <label for="wechat-code">{tr("elsewhere-wechat-code")}</label>
                            <input id="wechat-code" name="code" inputmode="numeric" autocomplete="one-time-code" value="" />
                        </div>
                        <button type="submit" class="secondary">{tr("elsewhere-wechat-send-code")}</button>
                    </ActionForm>
                })}
                {going.then(|| view! {
                    <ActionForm action=form>
                        <Step step="check" />
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
            <ActionForm action=form>
                <Step step="setup" />
                <button type="submit" class="secondary" data-testid="wechat-connect">{tr("elsewhere-wechat-connect")}</button>
            </ActionForm>
            {(report.paired || report.token).then(|| view! {
                <ActionForm action=form>
                    <Step step="unpair" />
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
    let refusal = (refusal.refusal.as_ref()).and_then(|kept| kept.read::<WechatRefusal>());
    match refusal {
        Some(WechatRefusal::Unreachable { reason }) => {
            t_args("elsewhere-wechat-unreachable", &[("reason", reason.into())])
        }
        Some(WechatRefusal::CodeShape | WechatRefusal::NoLogin) => t("elsewhere-wechat-code-shape"),
        Some(WechatRefusal::SaveFailed) => t("settings-save-failed"),
        None => failure.text(),
    }
}
