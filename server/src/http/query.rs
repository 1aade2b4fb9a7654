//! `ApiQuery<T>`: a typed query-string extractor beside `ApiJson`, percent-decoded by
//! `serde_urlencoded`, whose errors are JSON naming the parameter (axum's `Query` answers in
//! plain text without one).

use crate::http::error::ApiError;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// The query string of a request, as `T`. Unknown parameters are ignored.
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parse(parts.uri.query().unwrap_or_default()).map(ApiQuery)
    }
}

/// Parses a query string, naming the first bad parameter.
///
/// # Errors
/// 400 with `field` set to the parameter when there is one.
pub fn parse<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let pairs = form_urlencoded::parse(query.as_bytes());
    serde_path_to_error::deserialize(serde_urlencoded::Deserializer::new(pairs)).map_err(|error| {
        let inner = error.inner().to_string();
        let field = hark_core::model::field_of(&error);
        if matches!(field.as_str(), "." | "?" | "") {
            ApiError::bad_request(format!("the query string is not valid here: {inner}"))
        } else {
            ApiError::bad_field(
                &field,
                format!("the query parameter {field} is not valid: {inner}"),
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hark_core::model::Status;

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Example {
        status: Option<Status>,
        limit: Option<usize>,
        note: Option<String>,
    }

    #[test]
    fn parameters_are_decoded_and_errors_name_them() {
        let parsed: Example = parse("status=answered&limit=5&note=a%20b+c&other=1").unwrap();
        assert_eq!(
            parsed,
            Example {
                status: Some(Status::Answered),
                limit: Some(5),
                note: Some("a b c".into())
            }
        );
        let empty: Example = parse("").unwrap();
        assert_eq!(empty.limit, None);
        for (query, field) in [("limit=ten", "limit"), ("status=maybe", "status")] {
            let error = parse::<Example>(query).unwrap_err();
            assert_eq!(error.status, 400);
            assert_eq!(error.body.field.as_deref(), Some(field), "{query}");
        }
    }
}
