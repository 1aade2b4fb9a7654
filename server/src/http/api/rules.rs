//! `/api/rules`: the decisions Hark remembers (SPEC §19). Everyone with access lists them
//! (`GET`), keeps one (`POST`, 201; the same rule again answers the one kept), or takes one
//! back (`DELETE /api/rules/{id}`, 200 with the rule taken back).

use crate::http::error::ApiError;
use crate::http::json::ApiJson;
use crate::http::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, get};
use axum::{Json, Router};
use hark_core::model::rule::{NewRule, Rule, RuleId};

/// The rule routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/rules", get(list).post(create))
        .route("/rules/{id}", delete(remove))
}

/// `GET /api/rules`' answer.
#[derive(serde::Serialize)]
struct RuleList {
    rules: Vec<Rule>,
}

/// Every rule, oldest first.
async fn list(State(state): State<AppState>) -> Json<RuleList> {
    Json(RuleList {
        rules: state.store.rules(),
    })
}

/// 201 with the rule kept.
async fn create(
    State(state): State<AppState>,
    ApiJson(rule): ApiJson<NewRule>,
) -> Result<(StatusCode, Json<Rule>), ApiError> {
    Ok((StatusCode::CREATED, Json(state.store.add_rule(rule).await?)))
}

/// The rule taken back; a malformed id is a 400 naming `id`.
async fn remove(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Rule>, ApiError> {
    let id = id.parse().map(RuleId).map_err(|_| {
        let shown: String = id.chars().take(64).collect();
        ApiError::bad_field("id", format!("id \"{shown}\" is not a UUID"))
    })?;
    Ok(Json(state.store.remove_rule(id).await?))
}
