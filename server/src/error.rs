//! `ApiError`: every failure of the HTTP layer as a status code and a JSON `{error, field?}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use hark_core::model::ErrorBody;
use hark_core::store::StoreError;

/// A failed request. Server-side failures are logged; their details never reach the client.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub body: ErrorBody,
}

impl ApiError {
    /// A failure with an explicit status.
    pub fn new(status: StatusCode, body: ErrorBody) -> Self {
        Self { status, body }
    }

    /// 400 about the request as a whole.
    pub fn bad_request(error: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, ErrorBody::new(error))
    }

    /// 400 naming `field`.
    pub fn bad_field(field: &str, error: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, ErrorBody::field(field, error))
    }

    /// 404 for an unknown route under `/api`.
    pub fn no_route() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            ErrorBody::new("there is no such API route"),
        )
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        if let StoreError::Invalid(body) = &error {
            return Self::new(StatusCode::BAD_REQUEST, body.clone());
        }
        let status = match &error {
            StoreError::Invalid(_) => StatusCode::BAD_REQUEST,
            StoreError::NotFound(_) => StatusCode::NOT_FOUND,
            StoreError::NotPending { .. } => StatusCode::CONFLICT,
            StoreError::TooManyPending => StatusCode::TOO_MANY_REQUESTS,
            StoreError::ShuttingDown | StoreError::Storage(_) => StatusCode::SERVICE_UNAVAILABLE,
            StoreError::Save(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let body = if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(%error, "request failed");
            ErrorBody::new("the daemon could not save the change; see its log")
        } else {
            ErrorBody::new(error.to_string())
        };
        Self::new(status, body)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}
