//! `POST /a/<id>/<capability>`: the answer buttons of a push (SPEC §11). The capability is the
//! credential, so this is the one route that needs neither the pairing token nor this server's
//! own origin (`security` lets it through); it does one thing, answer its question with its
//! option, and tells nothing about the question.

use crate::channels::capability::Redeemed;
use crate::http::error::ApiError;
use crate::http::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use hark_core::model::{AnsweredVia, ErrorBody, QuestionId, SubQuestionAnswer};
use hark_core::store::{Outcome, StoreError};

/// Where answer links live.
pub const PREFIX: &str = crate::security::redact::ANSWER_LINKS;

/// Whether this request is an answer link's POST: exactly `/a/<uuid>/<32 hex digits>`, so that
/// nothing else can borrow its exemption from the token (`security`).
pub fn is_answer_link(method: &axum::http::Method, path: &str) -> bool {
    let Some(rest) = path.strip_prefix(PREFIX) else {
        return false;
    };
    let Some((id, capability)) = rest.split_once('/') else {
        return false;
    };
    method == axum::http::Method::POST
        && id.parse::<QuestionId>().is_ok()
        && capability.len() == 32
        && capability.bytes().all(|byte| byte.is_ascii_hexdigit())
}

/// The route.
pub fn router() -> Router<AppState> {
    Router::new().route("/a/{id}/{capability}", post(answer))
}

/// What a used link answers: only that it worked.
#[derive(serde::Serialize)]
struct Answered {
    status: &'static str,
}

fn gone() -> ApiError {
    ApiError::new(
        StatusCode::GONE,
        ErrorBody::new("this answer link no longer works: the question was answered or closed"),
    )
}

fn unknown() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        ErrorBody::new("there is no such answer link"),
    )
}

async fn answer(
    State(state): State<AppState>,
    Path((id, capability)): Path<(String, String)>,
) -> Result<Json<Answered>, ApiError> {
    let id: QuestionId = id.parse().map_err(|_| unknown())?;
    let label = match state.relay.capabilities.redeem(id, &capability) {
        Redeemed::Option(label) => label,
        Redeemed::Dead => return Err(gone()),
        Redeemed::Wrong => return Err(unknown()),
    };
    let answer = SubQuestionAnswer {
        selected: vec![label],
        free_text: None,
        images: Vec::new(),
    };
    match state
        .store
        .close(id, Outcome::Answered(vec![answer]), Some(AnsweredVia::Push))
        .await
    {
        Ok(_) => {
            tracing::info!(%id, "answered from a push's button");
            Ok(Json(Answered { status: "answered" }))
        }
        Err(StoreError::NotPending { .. } | StoreError::NotFound(_)) => Err(gone()),
        Err(other) => Err(other.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::is_answer_link;
    use axum::http::Method;

    #[test]
    fn only_an_exact_answer_link_is_one() {
        let id = "0b7f3f8e-5f1c-4c1e-9a3e-2f6f1d3c4b5a";
        let capability = "0123456789abcdef0123456789ABCDEF";
        assert!(is_answer_link(
            &Method::POST,
            &format!("/a/{id}/{capability}")
        ));
        for path in [
            format!("/a/{id}/{capability}/"),
            format!("/a/{id}/{capability}/../../"),
            "/a/x/../../".to_string(),
            format!("/a/{id}/../.."),
            format!("/a/{id}/{}", &capability[1..]),
            format!("/a/not-an-id/{capability}"),
            format!("/b/{id}/{capability}"),
        ] {
            assert!(!is_answer_link(&Method::POST, &path), "{path}");
        }
        assert!(!is_answer_link(
            &Method::GET,
            &format!("/a/{id}/{capability}")
        ));
    }
}
