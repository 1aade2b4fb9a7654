//! `POST /a/<id>/<capability>`: the answer buttons of a push (SPEC §11). The capability is the
//! credential, so this is the one route that needs neither the pairing token nor this server's
//! own origin (`security` lets it through); it does one thing, answer its question with its
//! option, and tells nothing about the question.

use crate::channels::capability::Redeemed;
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use hark_core::model::{ErrorBody, QuestionId, SubQuestionAnswer};
use hark_core::store::StoreError;

/// Where answer links live.
pub const PREFIX: &str = "/a/";

/// Whether `path` is an answer link.
pub fn is_answer_link(path: &str) -> bool {
    path.starts_with(PREFIX)
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
    };
    match state.store.answer(id, &[answer]).await {
        Ok(_) => {
            tracing::info!(%id, "answered from a push's button");
            Ok(Json(Answered { status: "answered" }))
        }
        Err(StoreError::NotPending { .. } | StoreError::NotFound(_)) => Err(gone()),
        Err(other) => Err(other.into()),
    }
}
