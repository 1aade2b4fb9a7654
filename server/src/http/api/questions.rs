//! `/api/questions…`: ask, list, read, answer, decline, cancel a question, and the images of
//! its answer; its long poll is `wait`'s.

use crate::http::error::ApiError;
use crate::http::json::ApiJson;
use crate::http::query::ApiQuery;
use crate::http::state::AppState;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use hark_core::model::{
    AnswerRequest, AskRequest, DeclineRequest, Question, QuestionId, QuestionList, Status, limits,
};
use hark_core::store::{Created, Filter, Outcome};

/// The question routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/questions", get(list).post(create))
        .route("/questions/{id}", get(read))
        .route("/questions/{id}/answer", post(answer))
        .route("/questions/{id}/decline", post(decline))
        .route("/questions/{id}/cancel", post(cancel))
        .route("/questions/{id}/abandon", post(abandon))
        .route("/questions/{id}/wait", get(super::wait::wait))
        .route("/questions/{id}/images/{answer}/{place}", get(image))
}

/// The question id in the path; a malformed one (not a UUID, not even UTF-8) is a 400 naming
/// `id`, in JSON like every other error.
pub(super) struct IdPath(pub(super) QuestionId);

impl<S: Send + Sync> FromRequestParts<S> for IdPath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(mut segments) =
            Path::<std::collections::HashMap<String, String>>::from_request_parts(parts, state)
                .await
                .map_err(|_| ApiError::bad_field("id", "the id in the path is not valid UTF-8"))?;
        let id = segments.remove("id").unwrap_or_default();
        id.parse().map(IdPath).map_err(|_| {
            let shown: String = id.chars().take(64).collect();
            ApiError::bad_field("id", format!("id \"{shown}\" is not a UUID"))
        })
    }
}

/// `GET /api/questions`' parameters.
#[derive(serde::Deserialize)]
struct ListQuery {
    status: Option<Status>,
    limit: Option<usize>,
    before: Option<QuestionId>,
}

async fn list(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> Result<Json<QuestionList>, ApiError> {
    let limit = match query.limit {
        Some(limit) if (1..=MAX_PAGE).contains(&limit) => limit,
        Some(limit) => {
            return Err(ApiError::bad_field(
                "limit",
                format!("limit {limit} is not a whole number from 1 to {MAX_PAGE}"),
            ));
        }
        // Every pending question fits in one answer (SPEC §10); the history is paged.
        None if query.status == Some(Status::Pending) => limits::MAX_PENDING,
        None => DEFAULT_PAGE,
    };
    let filter = query.status.map_or(Filter::Any, Filter::Status);
    let questions = state
        .store
        .page(filter, query.before, limit)
        .await
        .ok_or_else(|| {
            let before = query.before.map(|id| id.to_string()).unwrap_or_default();
            ApiError::bad_field(
                "before",
                format!("no question has the id {before} (it may have been pruned)"),
            )
        })?;
    Ok(Json(QuestionList { questions }))
}

/// Questions per page unless `limit` says otherwise.
const DEFAULT_PAGE: usize = 100;
/// The largest page.
const MAX_PAGE: usize = 1_000;

async fn create(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<AskRequest>,
) -> Result<Response, ApiError> {
    Ok(match state.store.create(request).await? {
        Created::New(question) => (StatusCode::CREATED, Json(question)).into_response(),
        Created::Existing(question) => (StatusCode::OK, Json(question)).into_response(),
    })
}

async fn read(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> Result<Json<Question>, ApiError> {
    state
        .store
        .get(id)
        .await
        .map(Json)
        .ok_or_else(|| hark_core::store::StoreError::NotFound(id).into())
}

async fn answer(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    request: axum::extract::Request,
) -> Result<Json<Question>, ApiError> {
    // Images make this body up to ~130 MB (the guard has set its deadline too); such a body
    // is parsed off the runtime's workers.
    let body = crate::http::json::read_body_up_to(
        request.into_body(),
        crate::security::body_limits::ANSWER_BODY_BYTES,
    )
    .await?;
    let request: AnswerRequest = if body.len() > limits::MAX_BODY_BYTES {
        tokio::task::spawn_blocking(move || crate::http::json::parse(&body))
            .await
            .map_err(|_| ApiError::bad_request("the answer could not be read"))??
    } else {
        crate::http::json::parse(&body)?
    };
    Ok(Json(
        state
            .store
            .close(
                id,
                Outcome::Answered(request.answers),
                checked(request.via)?,
            )
            .await?,
    ))
}

async fn decline(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    body: axum::body::Body,
) -> Result<Json<Question>, ApiError> {
    let body = crate::http::json::read_body(body).await?;
    // The note is optional, and so is the whole body.
    let request: DeclineRequest = if body.iter().all(u8::is_ascii_whitespace) {
        DeclineRequest::default()
    } else {
        crate::http::json::parse(&body)?
    };
    Ok(Json(
        state
            .store
            .close(
                id,
                Outcome::Declined { note: request.note },
                checked(request.via)?,
            )
            .await?,
    ))
}

/// `via` when an answer can come from there; a channel nobody answers in is refused.
pub(crate) fn checked(
    via: Option<hark_core::model::AnsweredVia>,
) -> Result<Option<hark_core::model::AnsweredVia>, ApiError> {
    match via {
        Some(via) if !via.possible() => Err(ApiError::new(
            axum::http::StatusCode::BAD_REQUEST,
            hark_core::model::ErrorBody::field(
                "via",
                "via must be page, client, push or a chat channel a person answers in",
            ),
        )),
        via => Ok(via),
    }
}

async fn cancel(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    body: axum::body::Body,
) -> Result<Json<Question>, ApiError> {
    // Like a decline, the note (why it was withdrawn) is optional, and so is the whole body.
    let body = crate::http::json::read_body(body).await?;
    let request: DeclineRequest = if body.iter().all(u8::is_ascii_whitespace) {
        DeclineRequest::default()
    } else {
        crate::http::json::parse(&body)?
    };
    Ok(Json(
        state
            .store
            .close(id, Outcome::Withdrawn { note: request.note }, None)
            .await?,
    ))
}

/// The asking side stopped waiting: the question stays answerable for `lateSecs`.
async fn abandon(
    State(state): State<AppState>,
    IdPath(id): IdPath,
) -> Result<Json<Question>, ApiError> {
    Ok(Json(state.store.abandon(id).await?))
}

/// `/images/{answer}/{place}`: which image, as the path names it.
#[derive(serde::Deserialize)]
struct ImagePlace {
    answer: String,
    place: String,
}

/// One image of an answer, as its own bytes: what the page shows and links to. The page's
/// links carry the answer's time (`?v=`), so a browser may keep what it loaded by them.
async fn image(
    State(state): State<AppState>,
    IdPath(id): IdPath,
    Path(place): Path<ImagePlace>,
) -> Result<Response, ApiError> {
    let index = |name: &str, value: &str| {
        value.parse::<usize>().map_err(|_| {
            let shown: String = value.chars().take(16).collect();
            ApiError::bad_field(name, format!("{name} \"{shown}\" is not a whole number"))
        })
    };
    let (answer, place) = (
        index("answer", &place.answer)?,
        index("place", &place.place)?,
    );
    let Some(image) = state.store.image(id, answer, place).await else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            hark_core::model::ErrorBody::new(format!(
                "question {id} has no image {place} in answer {answer}"
            )),
        ));
    };
    let extension = image.media_type.trim_start_matches("image/").to_string();
    Ok((
        [
            (axum::http::header::CONTENT_TYPE, image.media_type.clone()),
            (
                axum::http::header::CACHE_CONTROL,
                "private, max-age=31536000, immutable".to_string(),
            ),
            (
                axum::http::header::CONTENT_DISPOSITION,
                format!("inline; filename=\"hark-{id}-{answer}-{place}.{extension}\""),
            ),
            (
                axum::http::header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; sandbox".to_string(),
            ),
            // No other site may show it, even one that learnt the question's id.
            (
                axum::http::HeaderName::from_static("cross-origin-resource-policy"),
                "same-origin".to_string(),
            ),
        ],
        axum::body::Bytes::from_owner(image.bytes),
    )
        .into_response())
}
