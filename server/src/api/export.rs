//! `GET /api/export?format=json|markdown`: every question kept, newest first, as a download.

use crate::error::ApiError;
use crate::export::{Format, markdown};
use crate::state::AppState;
use app::i18n::Lang;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use std::collections::HashMap;

/// The export route.
pub fn router() -> Router<AppState> {
    Router::new().route("/export", get(export))
}

async fn export(
    State(state): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let requested = query.get("format").map_or("json", String::as_str);
    let format = requested.parse::<Format>().map_err(|()| {
        ApiError::bad_field(
            "format",
            format!("format \"{requested}\" is not json or markdown"),
        )
    })?;
    let questions = state.store.export();
    let stamp = chrono::Utc::now().format("%Y-%m-%d");
    let (mut response, extension) = match format {
        Format::Json => (Json(questions).into_response(), "json"),
        Format::Markdown => {
            let lang = state
                .store
                .config()
                .language
                .unwrap_or_else(Lang::from_environment);
            let mut response = markdown(&questions, lang).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/markdown; charset=utf-8"),
            );
            (response, "md")
        }
    };
    if let Ok(disposition) = HeaderValue::from_str(&format!(
        "attachment; filename=\"hark-{stamp}.{extension}\""
    )) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, disposition);
    }
    Ok(response)
}
