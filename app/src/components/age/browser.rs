//! Rewrites the ages under an element from their `datetime`, in the browser: the words, and
//! the moment in the viewer's time zone.

use chrono::{DateTime, Utc};

pub fn refresh(root: &web_sys::Element, now: DateTime<Utc>) {
    for time in crate::dom::all(root, "time[datetime]") {
        // RFC 3339 as `Age` writes it: chrono's relaxed reader is three times the code.
        let then =
            (time.get_attribute("datetime")).and_then(|at| DateTime::parse_from_rfc3339(&at).ok());
        if let Some(then) = then.map(|then| then.with_timezone(&Utc)) {
            time.set_text_content(Some(&super::relative(then, now)));
            // The server wrote the moment in its own time zone; this is the viewer's.
            let _ = time.set_attribute("title", &crate::i18n::date_time(then));
        }
    }
}
