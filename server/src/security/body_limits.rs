//! How large a request body may be and how long it may take to arrive. Everything is small and
//! quick except an answer, which may carry images (SPEC §13) through the REST route or the
//! page's form: those get room for every image at its largest and minutes to arrive, and only a
//! few such large bodies are read at once, so they cannot exhaust memory together.

use axum::http::Method;
use hark_core::model::limits::{MAX_ANSWER_BODY_BYTES, MAX_BODY_BYTES};
use std::time::Duration;
use tokio::sync::{Semaphore, SemaphorePermit};

/// The answer routes' limit: the images at their largest, with room for the page form's
/// percent-encoding (about 1 base64 character in 32 is a `+` or `/`, sent as 3 bytes: a quarter
/// more is ample).
pub const ANSWER_BODY_BYTES: usize = MAX_ANSWER_BODY_BYTES / 4 * 5;

/// How long an answer's body may take: 100 MB of images at 4 Mbit/s, about.
const ANSWER_BODY_TIMEOUT: Duration = Duration::from_secs(300);
/// How long a client may take to send a request's whole body, from the end of its headers.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// Answers larger than the usual limit read at once; more wait their turn with a 503.
const LARGE_ANSWERS_AT_ONCE: usize = 3;

static LARGE_ANSWERS: Semaphore = Semaphore::const_new(LARGE_ANSWERS_AT_ONCE);

/// The rules for one request's body.
pub struct BodyRules {
    pub limit: usize,
    pub deadline: Duration,
}

/// The rules for a request to `path`.
pub fn rules(method: &Method, path: &str) -> BodyRules {
    if method == Method::POST && is_answer_route(path) {
        BodyRules {
            limit: ANSWER_BODY_BYTES,
            deadline: ANSWER_BODY_TIMEOUT,
        }
    } else {
        BodyRules {
            limit: MAX_BODY_BYTES,
            deadline: BODY_TIMEOUT,
        }
    }
}

/// `/api/questions/<id>/answer`, or the page's answer form.
fn is_answer_route(path: &str) -> bool {
    let rest = path.strip_prefix("/api/questions/");
    rest.and_then(|rest| rest.strip_suffix("/answer"))
        .is_some_and(|id| !id.is_empty() && !id.contains('/'))
        || path == app::pages::question::ANSWER_FORM_PATH
}

/// Every place among the large answers being read is taken.
#[derive(Debug)]
pub struct NoTurn;

/// A place among the large answers being read, for a body over the usual limit (or of unknown
/// length); `None` for a small one.
///
/// # Errors
/// `NoTurn` when all places are taken.
pub fn large_answer_turn(
    rules: &BodyRules,
    declared_length: Option<usize>,
) -> Result<Option<SemaphorePermit<'static>>, NoTurn> {
    let large = rules.limit > MAX_BODY_BYTES
        && declared_length.is_none_or(|length| length > MAX_BODY_BYTES);
    if !large {
        return Ok(None);
    }
    LARGE_ANSWERS.try_acquire().map(Some).map_err(|_| NoTurn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_answer_routes_take_large_bodies() {
        let id = "3f1e0c52-7a0b-4a53-9d55-1f5a2b8c9d01";
        let answer = format!("/api/questions/{id}/answer");
        assert_eq!(rules(&Method::POST, &answer).limit, ANSWER_BODY_BYTES);
        let page = app::pages::question::ANSWER_FORM_PATH;
        assert_eq!(rules(&Method::POST, page).limit, ANSWER_BODY_BYTES);
        for other in [
            "/api/questions".to_string(),
            format!("/api/questions/{id}/decline"),
            format!("/api/questions/{id}/x/answer"),
            "/api/questions//answer".to_string(),
            app::pages::question::SKIP_FORM_PATH.to_string(),
        ] {
            assert_eq!(
                rules(&Method::POST, &other).limit,
                MAX_BODY_BYTES,
                "{other}"
            );
        }
        assert_eq!(rules(&Method::GET, &answer).limit, MAX_BODY_BYTES);
    }
}
