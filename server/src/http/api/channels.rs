//! `GET /api/channels` (how every channel has fared, without a secret),
//! `POST /api/channels/test` (send a test message on one now), and each channel's own actions,
//! `POST /api/<channel>/<action>` (`actions`, from the relay's list).

use crate::channels::Relay;
use crate::http::error::ApiError;
use crate::http::json::ApiJson;
use crate::http::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use hark_core::model::{
    ChannelAction, ChannelName, ChannelTest, ChannelTestResult, ChannelsReport, ErrorBody,
};

/// The channel routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/channels", get(report))
        .route("/channels/test", post(test))
}

async fn report(State(state): State<AppState>) -> Json<ChannelsReport> {
    Json(state.relay.report())
}

async fn test(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ChannelTest>,
) -> Result<Json<ChannelTestResult>, ApiError> {
    match state.relay.test(request.channel).await {
        Ok(message) => Ok(Json(ChannelTestResult { message })),
        Err(error) => Err(ApiError::new(
            StatusCode::from_u16(error.status()).unwrap_or(StatusCode::BAD_GATEWAY),
            ErrorBody::field("channel", error.to_string()),
        )),
    }
}

/// Every channel's own actions (a bot's `setup`, `unpair`, `forget`): `POST /<channel>/<action>`
/// with the action's JSON, answered with its JSON or its refusal.
pub fn actions(relay: &Relay) -> Router<AppState> {
    let mut routes = Router::new();
    for (name, action) in relay.actions() {
        routes = routes.route(
            &format!("/{name}/{action}"),
            post(
                move |State(state): State<AppState>, request: axum::extract::Request| async move {
                    let body = crate::http::json::read_body(request.into_body()).await?;
                    act(&state, name, action, &body).await
                },
            ),
        );
    }
    routes
}

/// One action over REST: an empty body is `{}`; JSON that is not an object is refused naming
/// the body.
async fn act(
    state: &AppState,
    channel: ChannelName,
    action: ChannelAction,
    body: &[u8],
) -> Result<Json<serde_json::Value>, ApiError> {
    let input = if body.iter().all(u8::is_ascii_whitespace) {
        serde_json::Value::Object(serde_json::Map::new())
    } else {
        match crate::http::json::parse::<serde_json::Value>(body)? {
            input if input.is_object() => input,
            _ => {
                return Err(ApiError::bad_request(
                    "the request body must be a JSON object",
                ));
            }
        }
    };
    state
        .relay
        .act(channel, action, input)
        .await
        .map(Json)
        .map_err(|refusal| {
            let status =
                StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            if status.is_server_error() && status != StatusCode::BAD_GATEWAY {
                // This machine's own failure: logged whole, answered with an incident id.
                ApiError::internal(
                    status,
                    &format!("{channel} could not {action}"),
                    &refusal.body,
                )
            } else {
                ApiError::new(status, refusal.body)
            }
        })
}
