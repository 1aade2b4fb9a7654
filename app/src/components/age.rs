//! Relative ages ("3 min ago"), localised through Fluent and kept current by the page's clock.

use crate::i18n::{t, t_args};
use crate::live::Live;
use chrono::{DateTime, Utc};
use leptos::prelude::*;

/// `then` relative to `now`, in words.
pub fn relative(then: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let seconds = (now - then).num_seconds().max(0);
    let (key, count) = match seconds {
        0..60 => return t("age-just-now"),
        60..3_600 => ("age-minutes", seconds / 60),
        3_600..86_400 => ("age-hours", seconds / 3_600),
        _ => ("age-days", seconds / 86_400),
    };
    t_args(key, &[("count", count.into())])
}

/// A `<time>` showing the age of `then`, with the exact time in its `datetime` and title.
#[component]
pub fn Age(then: DateTime<Utc>) -> impl IntoView {
    let live = Live::expect();
    let exact = then.to_rfc3339();
    view! {
        <time datetime=exact.clone() title=exact>
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
