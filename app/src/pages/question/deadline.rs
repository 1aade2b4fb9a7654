//! The question's time limit, counting down with the page's clock. Typing an answer moves it
//! (SPEC §18): the daemon sends the question with its new limit, and this line follows.

use crate::i18n::{date_time, t, t_args};
use crate::live::Live;
use hark_core::model::Question;
use leptos::prelude::*;

/// "Times out in 3 minutes", while the question waits and has a limit.
#[component]
pub fn Deadline(current: Memo<Question>) -> impl IntoView {
    let live = Live::expect();
    move || {
        let limit =
            current.with(|question| question.expires_at.filter(|_| question.is_pending()))?;
        let left = (limit - live.now.get()).num_seconds();
        let text = if left < 60 {
            t("question-deadline-soon")
        } else {
            // To the nearest minute: the page's clock ticks coarsely, so a limit a minute away
            // (typing's hold) may read 61 s, which is still "1 minute".
            t_args(
                "question-deadline",
                &[("minutes", ((left + 30) / 60).into())],
            )
        };
        Some(view! {
            <p class="deadline" data-testid="deadline">
                <time datetime=limit.to_rfc3339() title=date_time(limit)>{text}</time>
            </p>
        })
    }
}
