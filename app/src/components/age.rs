//! Relative ages ("3 min ago"), localised through Fluent and kept current by the page's clock,
//! with the exact date and time, as the language writes it, on hover: as a view (`Age`) and as
//! HTML text (`age_markup`) for the lists that templates write (`pages::home::lists`), whose
//! ages `keep_current` refreshes in place.

use crate::i18n::{date_time, t, t_args};
use crate::live::Live;
use chrono::{DateTime, Utc};
use leptos::prelude::*;

#[cfg_attr(not(feature = "hydrate"), path = "age/headless.rs")]
mod browser;

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

/// The same `<time>` as `Age`, as HTML text, aged at `now`.
pub fn age_markup(then: DateTime<Utc>, now: DateTime<Utc>) -> maud::Markup {
    maud::html! {
        time datetime=(then.to_rfc3339()) title=(date_time(then)) { (relative(then, now)) }
    }
}

/// Keeps the ages under `root` (written by `age_markup`) current as the page's clock ticks;
/// the HTML around them is left as it is, so a form being filled in there is not redrawn.
pub fn keep_current<E>(root: NodeRef<E>)
where
    E: leptos::html::ElementType + 'static,
    E::Output: leptos::wasm_bindgen::JsCast + Clone + AsRef<leptos::web_sys::Element> + 'static,
{
    let live = Live::expect();
    Effect::new(move |_| {
        let now = live.now.get();
        if let Some(root) = root.get_untracked() {
            browser::refresh(root.as_ref(), now);
        }
    });
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

    #[test]
    fn an_age_as_text_is_the_time_with_its_moment() {
        let now = Utc::now();
        let html = age_markup(now - chrono::Duration::minutes(3), now).into_string();
        assert!(html.starts_with("<time datetime=\""), "{html}");
        assert!(html.ends_with(">3 min ago</time>"), "{html}");
    }
}
