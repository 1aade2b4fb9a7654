//! The part of "Notify me elsewhere" every chat app that pairs by a code has (SPEC §14, §17):
//! its credentials checked with its service before they are kept, the pairing code to send the
//! bot, whether its link is up and a person paired, and unpairing; one server function and one
//! component for Telegram, Slack, Discord and Feishu/Lark, each app giving its `Part` (its
//! words, its fields, its refusals in the person's words). Plain forms: it works without
//! JavaScript.

use crate::failure::Failure;
use crate::i18n::tr;
use hark_core::model::{ChannelName, ChannelsReport};
use leptos::prelude::*;

/// The keys of an app's own words.
pub struct Words {
    pub heading: &'static str,
    pub help: &'static str,
    /// Under its fields: that its credentials are saved.
    pub token_set: &'static str,
    pub connect: &'static str,
    /// Before the pairing code.
    pub code: &'static str,
    /// The link that opens the chat with the code filled in, for an app that gives one
    /// (Telegram).
    pub open: Option<&'static str>,
    pub paired: &'static str,
    pub not_paired: &'static str,
    /// Connected and not connected, for an app that keeps a link to its service.
    pub connection: Option<(&'static str, &'static str)>,
    pub unpair: &'static str,
}

/// What one app's part is made of.
pub struct Part {
    pub app: ChannelName,
    pub words: Words,
    /// The words before the code the person sends (`pair`, Telegram's `/start`).
    pub pair: &'static str,
    /// The line naming the bot (or the app), once its service confirmed the credentials.
    pub bot: fn(&ChannelsReport) -> Option<AnyView>,
    /// Its credentials' fields, with their help.
    pub fields: fn(&ChannelsReport) -> AnyView,
    /// A refusal of its own (`refusal` of an `ActionRefusal`) in the person's words; `None`
    /// for another.
    pub refusal: fn(&crate::live::KeptRefusal) -> Option<String>,
    /// Its setup request, from the form's fields.
    #[cfg(feature = "ssr")]
    pub setup: fn(Given) -> serde_json::Value,
}

/// The fields a chat app's setup form may carry; each app reads its own.
#[cfg(feature = "ssr")]
pub struct Given {
    pub bot_token: Option<String>,
    pub app_token: Option<String>,
    pub app_id: Option<String>,
    pub app_secret: Option<String>,
    /// Feishu's platform: `feishu` or `lark` (anything else keeps the saved address).
    pub platform: String,
}

/// A chat app's form: `setup` checks the credentials (the saved ones for empty fields), keeps
/// them, turns the app on and makes a new pairing code; `unpair` forgets the paired person.
/// One server function for every app keeps the page's WebAssembly small.
#[server(prefix = "/fn", output = crate::json::JsonAnswer)]
pub async fn chat_app_form(
    app: String,
    step: String,
    #[server(default)] bot_token: String,
    #[server(default)] app_token: String,
    #[server(default)] app_id: String,
    #[server(default)] app_secret: String,
    #[server(default)] platform: String,
) -> Result<(), Failure> {
    use crate::failure::refuse;
    use hark_core::model::ChannelAction;
    let refuse_here = |failure| refuse::<ChatAppForm>("/settings", failure);
    let bad = |details: String| refuse_here(Failure::BadRequest { details });
    let channel = app
        .parse::<ChannelName>()
        .map_err(|details| bad(format!("app: {details}")))?;
    let given = |value: String| Some(value.trim().to_string()).filter(|value| !value.is_empty());
    let given = Given {
        bot_token: given(bot_token),
        app_token: given(app_token),
        app_id: given(app_id),
        app_secret: given(app_secret),
        platform,
    };
    let Some(part) = super::PARTS.into_iter().find(|part| part.app == channel) else {
        return Err(bad(format!("app: {channel} has no such form")));
    };
    let (action, input) = match step.as_str() {
        "setup" => (ChannelAction::Setup, (part.setup)(given)),
        "unpair" => (ChannelAction::Unpair, serde_json::json!({})),
        _ => return Err(bad(format!("step: \"{step}\" is not setup or unpair"))),
    };
    let desk = expect_context::<crate::server::services::ChannelDeskContext>().0;
    desk.act(channel, action, input)
        .await
        .map_err(|refusal| refuse_here(Failure::channel_refused(channel, refusal)))?;
    leptos_axum::redirect(&format!("/settings#{channel}-heading"));
    Ok(())
}

/// Hidden fields naming the app and the form's step.
#[component]
fn Step(app: ChannelName, step: &'static str) -> impl IntoView {
    view! {
        <input type="hidden" name="app" value=app.as_str() />
        <input type="hidden" name="step" value=step />
    }
}

/// One app's part of the section, as last loaded; the section loads again after each form.
#[component]
pub fn ChatAppPart(
    part: &'static Part,
    report: ChannelsReport,
    form: ServerAction<ChatAppForm>,
) -> impl IntoView {
    let Part {
        app, words, pair, ..
    } = part;
    let name = app.as_str();
    let problem = move || match form.value().get() {
        Some(Err(failure)) => Some(refusal_text(part, &failure)),
        _ => None,
    };
    let Some(state) = report.pairing_app(*app) else {
        return ().into_any();
    };
    let (token, paired) = (state.token, state.paired);
    let bot_line = (part.bot)(&report).map(|line| {
        view! { <p data-testid=format!("{name}-bot")>{line}</p> }
    });
    let connection = state
        .connected
        .zip(words.connection)
        .filter(|_| token)
        .map(|(connected, (yes, no))| {
            view! {
                <p data-testid=format!("{name}-connected") class=if connected { "status" } else { "status muted" }>
                    {if connected { tr(yes) } else { tr(no) }}
                </p>
            }
        });
    let pairing_view = state.pairing.cloned().map(|pairing| {
        let command = format!("{pair} {}", pairing.code);
        view! {
            <div class="pairing-code">
                <p>{tr(words.code)}</p>
                <p><code data-testid=format!("{name}-code")>{command}</code></p>
                {pairing.link.zip(words.open).map(|(link, open)| view! {
                    <p><a href=link target="_blank" rel="noopener noreferrer" data-testid=format!("{name}-link")>{tr(open)}</a></p>
                })}
            </div>
        }
    });
    view! {
        <fieldset class=name>
            <legend id=format!("{name}-heading")>{tr(words.heading)}</legend>
            <p class="help">{tr(words.help)}</p>
            {bot_line}
            {connection}
            <p data-testid=format!("{name}-paired") class=if paired { "status" } else { "status muted" }>
                {if paired { tr(words.paired) } else { tr(words.not_paired) }}
            </p>
            {pairing_view}
            <ActionForm action=form>
                <Step app=*app step="setup" />
                {(part.fields)(&report)}
                {token.then(|| view! { <p class="help" data-testid=format!("{name}-token-set")>{tr(words.token_set)}</p> })}
                <div class="actions">
                    <button type="submit" class="secondary" data-testid=format!("{name}-connect")>{tr(words.connect)}</button>
                </div>
            </ActionForm>
            {paired.then(|| view! {
                <ActionForm action=form>
                    <Step app=*app step="unpair" />
                    <button type="submit" class="secondary" data-testid=format!("{name}-unpair")>{tr(words.unpair)}</button>
                </ActionForm>
            })}
            <p class="error" role="alert" data-testid=format!("{name}-problem")>{problem}</p>
        </fieldset>
    }
    .into_any()
}

/// A failure of the app's forms in the person's language: the app's own refusals in its words,
/// any other as it says itself.
fn refusal_text(part: &Part, failure: &Failure) -> String {
    match failure {
        Failure::ChannelRefused { refusal, .. } => (refusal.refusal.as_ref())
            .and_then(part.refusal)
            .unwrap_or_else(|| failure.text()),
        _ => failure.text(),
    }
}
