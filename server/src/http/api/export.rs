//! `GET /api/export?format=json|markdown&of=questions|messages`: every question kept, newest
//! first, as a download streamed from the log row by row (the JSON carries the answers' images
//! in base64, the Markdown says how many there are); or every message for an agent (SPEC §18).

use crate::http::error::ApiError;
use crate::http::export::{Format, markdown_heading, markdown_messages, markdown_question};
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
    /// `questions` (the default) or `messages`.
    of: Option<String>,
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
    let of = query.of.as_deref().unwrap_or("questions");
    let messages = match of {
        "questions" => false,
        "messages" => true,
        other => {
            return Err(ApiError::bad_field(
                "of",
                format!("of \"{other}\" is not questions or messages"),
            ));
        }
    };
    let lang = hark_text::negotiate::daemon_lang(&state.store.config());
    let stamp = chrono::Utc::now().format("%Y-%m-%d");
    let (content_type, extension) = match format {
        Format::Json => ("application/json", "json"),
        Format::Markdown => ("text/markdown; charset=utf-8", "md"),
    };
    let mut response = if messages {
        let messages = state.store.export_messages().await;
        match format {
            Format::Json => serde_json::to_string(&messages).unwrap_or_default(),
            Format::Markdown => markdown_messages(&messages, lang),
        }
        .into_response()
    } else {
        let questions = state.store.export().await;
        let store = state.store.clone();
        Body::from_stream(chunks(questions, format, lang, store)).into_response()
    };
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    let name = if messages { "hark-messages" } else { "hark" };
    if let Ok(disposition) = HeaderValue::from_str(&format!(
        "attachment; filename=\"{name}-{stamp}.{extension}\""
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
