//! `ApiError`: every failure of the HTTP layer as a status code and a JSON `{error, field?}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use hark_core::model::ErrorBody;
use hark_core::store::StoreError;

/// A failed request. Failures inside the daemon are logged; their details never reach the
/// client (`internal`).
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

    /// A failure inside the daemon: the detail (a database's or the system's own words, which
    /// may name paths) goes to the log under a short incident id; the client gets `sentence`
    /// and that id, to find the entry.
    pub fn internal(status: StatusCode, sentence: &str, detail: &dyn std::fmt::Display) -> Self {
        let mut bytes = [0u8; 4];
        // Without randomness the id is still unique enough to find the entry by time.
        let _ = getrandom::fill(&mut bytes);
        let incident = hex::encode(bytes);
        tracing::error!(incident, detail = %detail, "{sentence}");
        Self::new(
            status,
            ErrorBody::new(format!(
                "{sentence} (incident {incident}: the daemon's log has the details)"
            )),
        )
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
        let status =
            StatusCode::from_u16(error.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        match &error {
            StoreError::Invalid(body) => Self::new(status, body.clone()),
            // The disk's own words stay in the log.
            StoreError::Storage(_) => Self::internal(
                status,
                "the daemon could not record the change, so nothing changed",
                &error,
            ),
            StoreError::Save(_) => {
                Self::internal(status, "the daemon could not save the settings", &error)
            }
            _ => Self::new(status, ErrorBody::new(error.to_string())),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}
