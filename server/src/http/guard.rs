//! One layer around every route: the Host allow-list (no DNS rebinding), the Origin check on
//! WebSocket upgrades and requests that change state (no cross-site hijacking, no CSRF), the
//! token for peers off this machine (`access`), and the body's size limit and deadline;
//! `headers` adds the security headers around it. No CORS headers are ever sent. Every refusal
//! is logged with its reason, never with a token.

use crate::http::error::ApiError;
use crate::http::json::too_large;
use crate::http::state::AppState;
use crate::http::unauthorized;
use crate::security::access::{Admission, OUTBOUND_MARK, Paired};
use crate::security::peer_owner::PeerOwner;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hark_core::model::ErrorBody;
use std::net::SocketAddr;

/// The policy for responses that do not set their own (pages set one with a script nonce).
const DEFAULT_CSP: &str =
    "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// A refusal sent before its request's body was read: the connection closes after it (the
/// body is never drained), and says so, so a client does not send its next request there.
fn unread(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// The middleware.
pub async fn guard(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip());
    // An answer link's capability is its credential: neither the token nor the origin applies.
    let answer_link =
        crate::http::api::answer_link::is_answer_link(request.method(), request.uri().path());
    let via_public_url = match check(&state, &request, answer_link) {
        Ok(via_public_url) => via_public_url,
        Err(rejection) => {
            log_rejection(peer, &request, &rejection.body.error);
            let mut response = rejection.into_response();
            // Nothing more comes of this connection: it must not keep a place in its budget.
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            return response;
        }
    };
    let admission = if answer_link {
        Admission::Local
    } else {
        // A reverse proxy on this machine (Tailscale's) connects from loopback for anyone who
        // reaches it, and passes on the Host its client chose: what comes by the public name,
        // or through a proxy at all, is never this machine's own.
        let peer = peer.filter(|_| !via_public_url && !through_a_proxy(request.headers()));
        state.access.admit(
            peer,
            request
                .extensions()
                .get::<PeerOwner>()
                .copied()
                .unwrap_or(PeerOwner::Unknown),
            request.method(),
            request.uri(),
            request.headers(),
        )
    };
    match admission {
        Admission::Local => {}
        Admission::Paired => {
            request.extensions_mut().insert(Paired);
        }
        Admission::PairNow { location } => {
            let token = state.access.tokens.current().ok();
            return unauthorized::pair(token.as_deref(), &location);
        }
        Admission::Refused(refusal) => {
            log_rejection(peer, &request, refusal.reason());
            return unauthorized::refuse(request.headers(), &refusal);
        }
    }
    let declared_length = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<usize>().ok());
    let rules = crate::security::body_limits::rules(request.method(), request.uri().path());
    let (limit, deadline) = (rules.limit, rules.deadline);
    if declared_length.is_some_and(|length| length > limit) {
        return unread(too_large(limit).into_response());
    }
    // Held until the answer is handled: a large body is in memory until then.
    let Ok(_large_answer_turn) =
        crate::security::body_limits::large_answer_turn(&rules, declared_length)
    else {
        return unread(
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorBody::new(
                    "other answers with images are being received; send again in a moment",
                ),
            )
            .into_response(),
        );
    };
    // Bodies without a declared length are cut at the limit as they stream, and every body
    // must have arrived by its deadline.
    let request = request.map(|body| {
        if http_body::Body::is_end_stream(&body) {
            // Nothing to wait for (a GET): no timer.
            return body;
        }
        let limited = Body::new(http_body_util::Limited::new(body, limit));
        crate::security::body_deadline::with_deadline(limited, deadline)
    });
    next.run(request).await
}

/// Headers a reverse proxy adds (Tailscale's serve and funnel among them); a program on this
/// machine talking to the daemon directly sends none.
const PROXY_HEADERS: [&str; 5] = [
    "forwarded",
    "x-forwarded-for",
    "x-forwarded-host",
    "x-real-ip",
    "tailscale-user-login",
];

fn through_a_proxy(headers: &HeaderMap) -> bool {
    PROXY_HEADERS.iter().any(|name| headers.contains_key(*name))
}

/// A path with a `.` or `..` segment (spelt out or percent-encoded) or a backslash: no page or
/// route has one, and routers disagree on what it means.
fn is_ambiguous_path(path: &str) -> bool {
    let lowered = path.to_ascii_lowercase();
    lowered.contains('\\')
        || lowered.contains("%5c")
        || lowered.contains("%2e")
        || lowered
            .split('/')
            .any(|segment| segment == "." || segment == "..")
}

/// Logs a refusal with its reason: the path only, never the query (which may carry a token).
fn log_rejection(peer: Option<std::net::IpAddr>, request: &Request, reason: &str) {
    tracing::warn!(
        peer = ?peer,
        method = %request.method(),
        path = %crate::security::redact::request_path(request.uri().path()),
        reason,
        "request rejected"
    );
}

/// Checks Host and Origin; `Ok(true)` when the request came by `channels.publicUrl`'s name.
fn check(state: &AppState, request: &Request, answer_link: bool) -> Result<bool, ApiError> {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    if request.headers().contains_key(OUTBOUND_MARK) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorBody::new(
                "this request came from this Hark daemon's own channels: a channel's address \
                 (a webhook, ntfy or a chat app's server) leads back to Hark itself",
            ),
        ));
    }
    if is_ambiguous_path(request.uri().path()) {
        return Err(ApiError::bad_request(
            "the path has a . or .. segment or a backslash; no route has one",
        ));
    }
    let hosts = &state.access.hosts;
    let ours = host_is_allowed(hosts, host) && port_is(host, state.port);
    // Read only when needed: the config is cloned to read it.
    let public_origin = (!ours).then(|| public_origin(state)).flatten();
    let via_public_url = public_origin
        .as_deref()
        .is_some_and(|origin| names_public_url(origin, host));
    if !ours && !via_public_url {
        let known = if state.access.lan {
            "this machine's own names and addresses"
        } else {
            "localhost, 127.0.0.1 or [::1]"
        };
        return Err(ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            ErrorBody::new(format!(
                "this Hark daemon only answers to {known} on port {}, not to \"{host}\"",
                state.port
            )),
        ));
    }
    let needs_origin_check = request.method() != Method::GET && request.method() != Method::HEAD
        || is_websocket_upgrade(request.headers())
        || get_changes_state(request.uri());
    if needs_origin_check && !answer_link {
        let origin = request
            .headers()
            .get(header::ORIGIN)
            .map(|value| value.to_str().unwrap_or("?"));
        let fetch_site = request
            .headers()
            .get("sec-fetch-site")
            .and_then(|value| value.to_str().ok());
        let from_public_page = via_public_url && origin == public_origin.as_deref();
        if !from_public_page
            && !request_is_from_this_server(hosts, origin, fetch_site, host, state.port)
        {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                ErrorBody::new(format!(
                    "requests from another web page ({}) are not allowed",
                    origin.unwrap_or("unknown origin")
                )),
            ));
        }
    }
    Ok(via_public_url)
}

/// Decides whether a state-changing request or a WebSocket upgrade comes from this server's own
/// page (or from a non-browser tool, which sends neither header). Browsers send `Origin: null`
/// for form posts under `Referrer-Policy: no-referrer`; `Sec-Fetch-Site`, which pages cannot
/// forge, then tells a same-origin post from a cross-site one.
fn request_is_from_this_server(
    hosts: &[String],
    origin: Option<&str>,
    fetch_site: Option<&str>,
    host: &str,
    port: u16,
) -> bool {
    if matches!(fetch_site, Some("cross-site" | "same-site")) {
        return false;
    }
    match origin {
        None => true,
        Some("null") => fetch_site == Some("same-origin"),
        Some(origin) => origin_is_this_server(hosts, origin, host, port),
    }
}

/// Splits `host[:port]`, keeping IPv6 brackets.
fn host_name(authority: &str) -> &str {
    if authority.starts_with('[') {
        return authority
            .find(']')
            .map_or(authority, |end| &authority[..=end]);
    }
    authority.split(':').next().unwrap_or(authority)
}

/// `channels.publicUrl`'s origin (`https://desk.tail1234.ts.net`), if set: a reverse proxy's
/// name, such as Tailscale's, with the port the proxy listens on.
fn public_origin(state: &AppState) -> Option<String> {
    let url = state.store.config().channels.public_url?;
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split('/').next().unwrap_or_default();
    Some(format!("{scheme}://{authority}"))
}

/// Whether `host` names the public origin (its port may be left out when it is the scheme's).
fn names_public_url(public_origin: &str, host: &str) -> bool {
    let Some((scheme, authority)) = public_origin.split_once("://") else {
        return false;
    };
    let host = host.to_ascii_lowercase();
    let default_port = if scheme == "https" { ":443" } else { ":80" };
    host == authority
        || format!("{host}{default_port}") == authority
        || host == format!("{authority}{default_port}")
}

/// Whether `authority` names `port`: explicitly, or by leaving it out when it is HTTP's own.
fn port_is(authority: &str, port: u16) -> bool {
    match authority[host_name(authority).len()..].strip_prefix(':') {
        Some(named) => named == port.to_string(),
        None => authority.len() == host_name(authority).len() && port == 80,
    }
}

fn host_is_allowed(hosts: &[String], host: &str) -> bool {
    let name = host_name(host).to_ascii_lowercase();
    hosts.contains(&name)
}

/// The one GET that can change state: a long poll that withdraws its question when the
/// connection drops (`cancelOnDisconnect`, the shim's). A foreign page could otherwise start it
/// with an `<img>` and cancel the question by removing the image.
fn get_changes_state(uri: &axum::http::Uri) -> bool {
    form_urlencoded::parse(uri.query().unwrap_or_default().as_bytes())
        .any(|(name, _)| name.eq_ignore_ascii_case("cancelOnDisconnect"))
}

fn is_websocket_upgrade(headers: &HeaderMap) -> bool {
    headers
        .get(header::UPGRADE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.eq_ignore_ascii_case("websocket"))
}

/// The page's origin must be this very server: an allowed host name on this daemon's port.
fn origin_is_this_server(hosts: &[String], origin: &str, host: &str, port: u16) -> bool {
    let Some(authority) = origin.strip_prefix("http://") else {
        return false;
    };
    host_is_allowed(hosts, authority) && port_is(authority, port) && host_is_allowed(hosts, host)
}

/// The fixed headers every response carries, refusals included (layered outside `guard`);
/// pages set their own CSP (with the script nonce), which is kept.
pub fn headers<S>(router: axum::Router<S>) -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    use tower_http::set_header::SetResponseHeaderLayer;
    // One `layer` call: each call on a router boxes every route once more.
    router.layer(
        tower::ServiceBuilder::new()
            .layer(SetResponseHeaderLayer::overriding(
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ))
            .layer(SetResponseHeaderLayer::overriding(
                header::REFERRER_POLICY,
                HeaderValue::from_static("no-referrer"),
            ))
            .layer(SetResponseHeaderLayer::overriding(
                header::X_FRAME_OPTIONS,
                HeaderValue::from_static("DENY"),
            ))
            .layer(SetResponseHeaderLayer::if_not_present(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(DEFAULT_CSP),
            )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback() -> Vec<String> {
        crate::security::network::allowed_hosts(false, &[])
    }

    #[test]
    fn hosts() {
        let local = loopback();
        assert!(host_is_allowed(&local, "localhost:13390"));
        assert!(host_is_allowed(&local, "127.0.0.1"));
        assert!(host_is_allowed(&local, "[::1]:13390"));
        assert!(host_is_allowed(&local, "LOCALHOST:1"));
        assert!(!host_is_allowed(&local, "evil.example:13390"));
        assert!(!host_is_allowed(&local, "127.0.0.1.evil.example"));
        assert!(!host_is_allowed(&local, ""));
    }

    #[test]
    fn ambiguous_paths() {
        for path in [
            "/a/x/../../",
            "/./",
            "/q/..",
            "/%2e%2e/",
            "/%2E/",
            "/\\evil",
            "/%5c",
        ] {
            assert!(is_ambiguous_path(path), "{path}");
        }
        for path in ["/", "/q/1", "/pkg/hark.wasm", "/a/b.c/d", "/...x"] {
            assert!(!is_ambiguous_path(path), "{path}");
        }
    }

    #[test]
    fn ports() {
        assert!(port_is("127.0.0.1:4000", 4000));
        assert!(port_is("[::1]:4000", 4000));
        assert!(port_is("localhost", 80));
        assert!(!port_is("127.0.0.1:1", 4000));
        assert!(!port_is("127.0.0.1", 4000));
        assert!(!port_is("127.0.0.1:", 4000));
        assert!(!port_is("[::1]", 4000));
        assert!(!port_is("127.0.0.1:04000", 4000));
        assert!(!port_is("127.0.0.1:4000:4000", 4000));
    }

    #[test]
    fn lan_hosts_and_origins() {
        let lan: Vec<String> = [
            "localhost",
            "127.0.0.1",
            "[::1]",
            "desk.local",
            "192.168.1.20",
        ]
        .map(String::from)
        .to_vec();
        assert!(host_is_allowed(&lan, "192.168.1.20:13390"));
        assert!(host_is_allowed(&lan, "DESK.local"));
        assert!(!host_is_allowed(&lan, "192.168.1.21:13390"));
        assert!(origin_is_this_server(
            &lan,
            "http://192.168.1.20:13390",
            "192.168.1.20:13390",
            13390
        ));
        assert!(!origin_is_this_server(
            &lan,
            "http://evil.example:13390",
            "192.168.1.20:13390",
            13390
        ));
    }

    #[test]
    fn origins() {
        let local = loopback();
        assert!(origin_is_this_server(
            &local,
            "http://127.0.0.1:4000",
            "127.0.0.1:4000",
            4000
        ));
        assert!(origin_is_this_server(
            &local,
            "http://localhost:4000",
            "127.0.0.1:4000",
            4000
        ));
        assert!(origin_is_this_server(
            &local,
            "http://[::1]:4000",
            "[::1]:4000",
            4000
        ));
        assert!(!origin_is_this_server(
            &local,
            "http://127.0.0.1:4001",
            "127.0.0.1:4000",
            4000
        ));
        assert!(!origin_is_this_server(
            &local,
            "https://evil.example",
            "127.0.0.1:4000",
            4000
        ));
        assert!(!origin_is_this_server(
            &local,
            "null",
            "127.0.0.1:4000",
            4000
        ));
        assert!(!origin_is_this_server(
            &local,
            "http://evil.example:4000",
            "127.0.0.1:4000",
            4000
        ));
    }

    #[test]
    fn fetch_metadata() {
        let local = loopback();
        let host = "127.0.0.1:4000";
        assert!(request_is_from_this_server(&local, None, None, host, 4000));
        assert!(request_is_from_this_server(
            &local,
            Some("null"),
            Some("same-origin"),
            host,
            4000
        ));
        assert!(!request_is_from_this_server(
            &local,
            Some("null"),
            None,
            host,
            4000
        ));
        assert!(!request_is_from_this_server(
            &local,
            Some("null"),
            Some("cross-site"),
            host,
            4000
        ));
        assert!(!request_is_from_this_server(
            &local,
            None,
            Some("cross-site"),
            host,
            4000
        ));
        assert!(!request_is_from_this_server(
            &local,
            None,
            Some("same-site"),
            host,
            4000
        ));
        assert!(request_is_from_this_server(
            &local,
            Some("http://127.0.0.1:4000"),
            Some("same-origin"),
            host,
            4000
        ));
        assert!(!request_is_from_this_server(
            &local,
            Some("http://127.0.0.1:4000"),
            Some("cross-site"),
            host,
            4000
        ));
    }
}
