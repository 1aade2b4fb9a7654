//! Relative ages ("3 min ago"), localised through Fluent and kept current by the page's clock,
//! with the exact date and time, as the language writes it, on hover.

use crate::i18n::{date_time, t, t_args};
use crate::live::Live;
use chrono::{DateTime, Utc};
use leptos::prelude::*;

/// `then` relative to `now`, in words.
pub fn relative(then: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let seconds = (now - then).num_seconds().max(0);
    match seconds {
        0..60 => t("age-just-now"),
        60..3_600 => t_args("age-minutes", &[("count", (seconds / 60).into())]),
        3_600..86_400 => t_args("age-hours", &[("count", (seconds / 3_600).into())]),
        _ => t_args("age-days", &[("count", (seconds / 86_400).into())]),
    }
}

/// A `<time>` showing the age of `then`, with the exact time in its `datetime` and title.
#[component]
pub fn Age(then: DateTime<Utc>) -> impl IntoView {
    let live = Live::expect();
    view! {
        <time datetime=then.to_rfc3339() title=move || date_time(then)>
            {move || relative(then, live.now.get())}
        </time>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_in_words() {
        let now = Utc::now();
        let ago = |seconds: i64| relative(now - chrono::Duration::seconds(seconds), now);
        assert_eq!(ago(5), "just now");
        assert_eq!(ago(60), "1 min ago");
        assert_eq!(ago(3 * 60 + 59), "3 min ago");
        assert_eq!(ago(2 * 3_600), "2 h ago");
        assert_eq!(ago(86_400), "1 day ago");
        assert_eq!(ago(3 * 86_400), "3 days ago");
        assert_eq!(
            relative(now + chrono::Duration::seconds(30), now),
            "just now"
        );
    }
}
