//! The page header: name, navigation, pending count, connection dot, language and theme.

use crate::i18n::{t, t_args, tr};
use crate::live::{Connection, Live};
use leptos::prelude::*;

/// The header bar at the top of every page; an island, for its count, dot and pickers.
#[island]
pub fn Header() -> impl IntoView {
    let live = Live::expect();
    let pending = move || {
        live.questions.read().as_ref().map(|questions| {
            questions
                .iter()
                .filter(|question| question.is_pending())
                .count()
        })
    };
    let dot = move || match live.connection.get() {
        Connection::Connecting => ("connecting", t("connection-connecting")),
        Connection::Live => ("live", t("connection-live")),
        Connection::Reconnecting => ("reconnecting", t("connection-reconnecting")),
        Connection::Offline => ("offline", t("connection-offline")),
    };
    view! {
        // In the header's island, so its words follow a language switch.
        <a class="skip-link" href="#main">{tr("skip-to-content")}</a>
        <header class="top">
            <a class="brand" href="/">
                <span class="logo" aria-hidden="true">"?"</span>
                {tr("app-name")}
            </a>
            <nav>
                <a href="/">{tr("nav-inbox")}</a>
                <a href="/agents">{tr("nav-agents")}</a>
                <a href="/settings">{tr("nav-settings")}</a>
            </nav>
            {move || {
                pending()
                    .filter(|count| *count > 0)
                    .map(|count| {
                        view! {
                            <span class="badge" data-testid="pending-count">
                                {t_args("pending-badge", &[("count", count.into())])}
                            </span>
                        }
                    })
            }}
            <span
                class=move || format!("dot dot-{}", dot().0)
                role="status"
                title=move || dot().1
                aria-label=move || dot().1
                data-connection=move || dot().0
            ></span>
            <crate::components::prefs_picker::PrefsPicker place="header" />
        </header>
    }
}
