//! `ApiJson<T>`: a JSON body extractor whose errors name the field (`questions[0].options`)
//! and respect the 256 KiB body limit, instead of axum's plain-text rejections.

use crate::error::ApiError;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use hark_core::model::{ErrorBody, limits::MAX_BODY_BYTES};
use serde::de::DeserializeOwned;

/// A JSON request body of type `T`.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Self::Rejection> {
        let bytes = axum::body::to_bytes(request.into_body(), MAX_BODY_BYTES)
            .await
            .map_err(|_| too_large())?;
        parse(&bytes).map(ApiJson)
    }
}

/// 413 with the limit spelled out.
pub fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        ErrorBody::new(format!(
            "the request body is larger than the limit of {} KiB",
            MAX_BODY_BYTES / 1024
        )),
    )
}

/// Parses JSON, naming the path of the first bad value.
///
/// # Errors
/// 400 with `field` set to the offending path when there is one.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ErrorBody::new("the request body is empty; a JSON object is expected"),
        ));
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let inner = error.inner().to_string();
        let field = field_of(&error);
        let not_json = matches!(
            error.inner().classify(),
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof
        );
        let body = if not_json || matches!(field.as_str(), "." | "?" | "") {
            ErrorBody::new(format!(
                "the request body is not valid JSON for this route: {inner}"
            ))
        } else {
            ErrorBody::field(field.clone(), format!("{field}: {inner}"))
        };
        ApiError::new(StatusCode::BAD_REQUEST, body)
    })
}

/// The path of the value a deserialisation failed on (`questions[0].options[1].label`); for a
/// missing field, the field itself rather than its parent, where serde reports it. `.` or `?`
/// when there is no path.
pub fn field_of<E: std::fmt::Display>(error: &serde_path_to_error::Error<E>) -> String {
    let path = error.path().to_string();
    let message = error.inner().to_string();
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next());
    match missing {
        Some(missing) if path == "." => missing.to_string(),
        Some(missing) => format!("{path}.{missing}"),
        None => path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hark_core::model::AskRequest;

    fn field(json: &str) -> Option<String> {
        parse::<AskRequest>(json.as_bytes()).unwrap_err().body.field
    }

    #[test]
    fn names_the_path_of_a_wrong_type() {
        assert_eq!(
            field(r#"{"questions":[{"question":"q","options":[{"label":7}]}]}"#).as_deref(),
            Some("questions[0].options[0].label")
        );
    }

    #[test]
    fn names_a_missing_field() {
        assert_eq!(field(r#"{}"#).as_deref(), Some("questions"));
        assert_eq!(
            field(r#"{"questions":[{"header":"h"}]}"#).as_deref(),
            Some("questions[0].question")
        );
    }

    #[test]
    fn broken_json_and_empty_bodies_have_no_field() {
        assert_eq!(field("{"), None);
        assert_eq!(field("  "), None);
    }
}
