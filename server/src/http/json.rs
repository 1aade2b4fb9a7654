//! `ApiJson<T>`: a JSON body extractor whose errors name the field (`questions[0].options`)
//! and respect the body limit (`body_limits`), instead of axum's plain-text rejections.

use crate::http::error::ApiError;
use crate::security::body_deadline::BodyTooSlow;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use hark_core::model::field_of;
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
        parse(&read_body(request.into_body()).await?).map(ApiJson)
    }
}

/// A request body as bytes: 413 past the size limit, 408 past its deadline.
///
/// # Errors
/// Those two, or 400 when the connection broke mid-body.
pub async fn read_body(body: axum::body::Body) -> Result<Bytes, ApiError> {
    read_body_up_to(body, MAX_BODY_BYTES).await
}

/// `read_body` with a limit of `limit` bytes.
///
/// # Errors
/// As `read_body`.
pub async fn read_body_up_to(body: axum::body::Body, limit: usize) -> Result<Bytes, ApiError> {
    axum::body::to_bytes(body, limit).await.map_err(|error| {
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&error);
        while let Some(current) = cause {
            if current.is::<http_body_util::LengthLimitError>() {
                return too_large(limit);
            }
            if let Some(slow) = current.downcast_ref::<BodyTooSlow>() {
                return ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    ErrorBody::new(slow.to_string()),
                );
            }
            cause = current.source();
        }
        ApiError::bad_request("the request body could not be read")
    })
}

/// 413 with the limit spelled out.
pub fn too_large(limit: usize) -> ApiError {
    let limit = if limit >= 1024 * 1024 {
        format!("{} MiB", limit / (1024 * 1024))
    } else {
        format!("{} KiB", limit / 1024)
    };
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        ErrorBody::new(format!(
            "the request body is larger than the limit of {limit}"
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
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
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
    })?;
    // One value and nothing after it but whitespace: `{…} junk` or `{…}{…}` is not one request.
    deserializer.end().map_err(|error| {
        ApiError::bad_request(format!(
            "the request body is not valid JSON: {error} (one JSON value is expected, nothing after it)"
        ))
    })?;
    Ok(value)
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

    #[test]
    fn nothing_may_follow_the_value_but_whitespace() {
        let one = r#"{"questions":[{"question":"x"}]}"#;
        assert!(parse::<AskRequest>(format!("{one} \n\t").as_bytes()).is_ok());
        for trailing in [" junk", "{}", &format!("\n{one}"), ","] {
            let error = parse::<AskRequest>(format!("{one}{trailing}").as_bytes()).unwrap_err();
            assert_eq!(error.status, StatusCode::BAD_REQUEST, "{trailing:?}");
            assert!(
                error.body.error.contains("trailing"),
                "{}",
                error.body.error
            );
        }
    }
}
