//! `GET /api/export?format=json|markdown`: every question kept, newest first, as a download
//! streamed from the log row by row. The JSON carries the answers' images (base64); the
//! Markdown says how many there are.

use crate::http::error::ApiError;
use crate::http::export::{Format, markdown_heading, markdown_question};
use crate::http::query::ApiQuery;
use crate::http::state::AppState;
use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures::{Stream, StreamExt};
use hark_core::model::Question;
use hark_text::Lang;
use std::convert::Infallible;
use tokio::sync::mpsc;

/// The export route.
pub fn router() -> Router<AppState> {
    Router::new().route("/export", get(export))
}

/// `/api/export`'s parameters.
#[derive(serde::Deserialize)]
struct ExportQuery {
    /// `json` (the default) or `markdown`.
    format: Option<String>,
}

async fn export(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ExportQuery>,
) -> Result<Response, ApiError> {
    let requested = query.format.as_deref().unwrap_or("json");
    let format = requested.parse::<Format>().map_err(|()| {
        ApiError::bad_field(
            "format",
            format!("format \"{requested}\" is not json or markdown"),
        )
    })?;
    let lang = hark_text::negotiate::daemon_lang(&state.store.config());
    let questions = state.store.export().await;
    let stamp = chrono::Utc::now().format("%Y-%m-%d");
    let (content_type, extension) = match format {
        Format::Json => ("application/json", "json"),
        Format::Markdown => ("text/markdown; charset=utf-8", "md"),
    };
    let store = state.store.clone();
    let mut response = Body::from_stream(chunks(questions, format, lang, store)).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(disposition) = HeaderValue::from_str(&format!(
        "attachment; filename=\"hark-{stamp}.{extension}\""
    )) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, disposition);
    }
    Ok(response)
}

/// The export's body, one question at a time: a JSON array, or the Markdown document.
fn chunks(
    questions: mpsc::Receiver<Question>,
    format: Format,
    lang: Lang,
    store: hark_core::store::Store,
) -> impl Stream<Item = Result<String, Infallible>> {
    let opening = match format {
        Format::Json => "[".to_string(),
        Format::Markdown => markdown_heading(lang),
    };
    let closing = match format {
        Format::Json => "]",
        Format::Markdown => "",
    };
    let body = futures::stream::unfold((questions, true), move |(mut questions, first)| {
        let store = store.clone();
        async move {
            let mut question = questions.recv().await?;
            let text = match format {
                Format::Json => {
                    if let Some(answers) = question.answers.as_mut() {
                        store.fill_image_data(question.id, answers).await;
                    }
                    let json = serde_json::to_string(&question).unwrap_or_default();
                    if first { json } else { format!(",{json}") }
                }
                Format::Markdown => markdown_question(&question, lang),
            };
            Some((text, (questions, false)))
        }
    });
    futures::stream::once(async move { opening })
        .chain(body)
        .chain(futures::stream::once(async move { closing.to_string() }))
        .map(Ok)
}
