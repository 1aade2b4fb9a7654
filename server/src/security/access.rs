//! Who may use the daemon. This machine's programs and pages may, freely (unless the daemon
//! asks every peer to pair), where "this machine" is a loopback connection owned by the
//! daemon's own OS user (`peer_owner`): another account of a shared machine is a stranger.
//! Anyone else must present the token: `Authorization: Bearer`, the `hark_token` cookie, or
//! once as `?token=` (the QR code's URL) or a one-time `?login=` (`login`), which set the cookie
//! and lead to the same address without them. Wrong tokens from one address are counted, and too
//! many in a minute lock that address out for the rest of it. Addresses that presented the
//! right token are remembered (until it is replaced), so their next connections get the paired
//! devices' budget instead of the strangers' (`listen`).

use crate::security::login::{LOGIN_PARAMETER, Logins};
use crate::security::network;
use crate::security::peer_owner::PeerOwner;
use crate::security::token::Tokens;
use axum::http::{HeaderMap, Method, Uri, header};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The header on every request the daemon's channels send (`channels::outbound`): one that
/// arrives here came from this daemon, through an address that leads back to it, and is
/// refused, so no channel's server can drive the daemon's API from loopback.
pub const OUTBOUND_MARK: &str = "x-hark-outbound";

/// The cookie that keeps a paired browser paired.
pub const TOKEN_COOKIE: &str = "hark_token";
/// Wrong tokens from one address within `FAILURE_WINDOW` before it is locked out.
pub const MAX_FAILURES: u32 = 10;
/// How long failures are remembered, and how long a lock-out lasts at most.
pub const FAILURE_WINDOW: Duration = Duration::from_secs(60);
/// Addresses remembered at most; past this, the oldest records are dropped.
const MAX_TRACKED: usize = 4096;

/// The daemon's access policy.
pub struct Access {
    pub tokens: Tokens,
    /// One-time logins for the pages Hark opens itself.
    pub logins: Logins,
    /// Bound to every interface (`--lan` or config `lan`).
    pub lan: bool,
    /// Every peer must pair, this machine's too (`--require-token`).
    pub require_token_everywhere: bool,
    /// The Host names this daemon answers to.
    pub hosts: Vec<String>,
    failures: Mutex<HashMap<IpAddr, Failures>>,
    /// Addresses that presented the right token, with the token's generation then.
    paired_peers: Mutex<HashMap<IpAddr, u64>>,
}

#[derive(Clone, Copy)]
struct Failures {
    count: u32,
    since: Instant,
}

/// Marks a request admitted by the token: its WebSocket ends when the token is rotated.
#[derive(Clone, Copy, Debug)]
pub struct Paired;

/// What the policy decides for one request.
#[derive(Debug, PartialEq, Eq)]
pub enum Admission {
    /// A peer on this machine, which needs no token.
    Local,
    /// A peer that presented the token.
    Paired,
    /// The right `?token=`: set the cookie and send the browser to `location`, the same
    /// address without the token.
    PairNow { location: String },
    /// Refused.
    Refused(Refusal),
}

/// Why a request was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    NoToken,
    WrongToken,
    TooManyFailures { retry_after_secs: u64 },
}

impl Refusal {
    /// The reason, for the log (never the token itself).
    pub fn reason(&self) -> &'static str {
        match self {
            Refusal::NoToken => "no token (needed from this peer)",
            Refusal::WrongToken => "a wrong token",
            Refusal::TooManyFailures { .. } => "too many wrong tokens from this address",
        }
    }
}

impl Access {
    /// The policy for a daemon in LAN mode or not, answering also to `configured` host names.
    pub fn new(
        tokens: Tokens,
        lan: bool,
        require_token_everywhere: bool,
        configured: &[String],
    ) -> Access {
        Access {
            tokens,
            logins: Logins::default(),
            lan,
            require_token_everywhere,
            hosts: network::allowed_hosts(lan, configured),
            failures: Mutex::new(HashMap::new()),
            paired_peers: Mutex::new(HashMap::new()),
        }
    }

    /// Decides whether `peer`, its connection owned by `owner`, may make this request.
    pub fn admit(
        &self,
        peer: Option<IpAddr>,
        owner: PeerOwner,
        method: &Method,
        uri: &Uri,
        headers: &HeaderMap,
    ) -> Admission {
        // This machine is the daemon's own user on loopback; another account is a stranger.
        let local = peer.is_some_and(network::is_loopback)
            && owner == PeerOwner::Same
            && !self.require_token_everywhere;
        let readable = method == Method::GET || method == Method::HEAD;
        if let Some(code) = readable
            .then(|| query_value(uri, LOGIN_PARAMETER))
            .flatten()
        {
            // A code works once, and never for another account, which may have read it off the
            // browser's command line; here a used or stale one still leads to the clean address.
            let admission = if owner != PeerOwner::Another && self.logins.redeem(&code) {
                self.remember(peer);
                Admission::Paired
            } else if local {
                Admission::Local
            } else {
                self.count_failure(counted(peer, owner));
                Admission::Refused(Refusal::WrongToken)
            };
            return match admission {
                Admission::Local | Admission::Paired => Admission::PairNow {
                    location: without(uri, LOGIN_PARAMETER),
                },
                refused => refused,
            };
        }
        if let Some(presented) = readable.then(|| query_value(uri, "token")).flatten() {
            // Here a stale link still leads to the clean address; elsewhere it must be right.
            let admission = if local {
                Admission::Local
            } else {
                self.check(peer, owner, &presented)
            };
            return match admission {
                Admission::Local | Admission::Paired => Admission::PairNow {
                    location: without(uri, "token"),
                },
                refused => refused,
            };
        }
        if local {
            return Admission::Local;
        }
        match presented_token(headers) {
            Some(presented) => self.check(peer, owner, &presented),
            None => Admission::Refused(Refusal::NoToken),
        }
    }

    /// Checks a presented token, counting failures per address.
    fn check(&self, peer: Option<IpAddr>, owner: PeerOwner, presented: &str) -> Admission {
        if let Some(refusal) = self.locked_out(counted(peer, owner)) {
            return Admission::Refused(refusal);
        }
        if self.tokens.verify(presented) {
            self.remember(peer);
            return Admission::Paired;
        }
        self.count_failure(counted(peer, owner));
        Admission::Refused(Refusal::WrongToken)
    }

    /// The refusal for an address that failed too often within the window, if it did.
    fn locked_out(&self, peer: Option<IpAddr>) -> Option<Refusal> {
        let record = peer.and_then(|peer| self.lock_failures().get(&peer).copied())?;
        let elapsed = Instant::now().duration_since(record.since);
        (record.count >= MAX_FAILURES && elapsed < FAILURE_WINDOW).then(|| {
            Refusal::TooManyFailures {
                retry_after_secs: (FAILURE_WINDOW - elapsed).as_secs().max(1),
            }
        })
    }

    /// Counts a wrong token or login code against `peer`.
    fn count_failure(&self, peer: Option<IpAddr>) {
        let Some(peer) = peer else {
            return;
        };
        let now = Instant::now();
        let mut failures = self.lock_failures();
        if failures.len() >= MAX_TRACKED {
            failures.retain(|_, record| now.duration_since(record.since) < FAILURE_WINDOW);
            if failures.len() >= MAX_TRACKED {
                failures.clear();
            }
        }
        let record = failures.entry(peer).or_insert(Failures {
            count: 0,
            since: now,
        });
        if now.duration_since(record.since) >= FAILURE_WINDOW {
            *record = Failures {
                count: 0,
                since: now,
            };
        }
        record.count += 1;
    }

    fn lock_failures(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, Failures>> {
        self.failures
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }
}

impl Access {
    /// Whether `peer` presented the current token before: a device paired with this daemon.
    pub fn is_paired_peer(&self, peer: IpAddr) -> bool {
        let generation = self.tokens.generation();
        self.paired_peers
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .get(&peer)
            .is_some_and(|&paired_with| paired_with == generation)
    }

    /// Remembers `peer` (when known) as paired, so its next connections get a paired budget.
    fn remember(&self, peer: Option<IpAddr>) {
        let Some(peer) = peer else {
            return;
        };
        let generation = self.tokens.generation();
        let mut paired = self
            .paired_peers
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if paired.len() >= MAX_TRACKED && !paired.contains_key(&peer) {
            paired.retain(|_, paired_with| *paired_with == generation);
            if paired.len() >= MAX_TRACKED {
                paired.clear();
            }
        }
        paired.insert(peer, generation);
    }
}

/// The address failures are counted against: none for the daemon's own user, whom another
/// account sharing 127.0.0.1 must not lock out by guessing.
fn counted(peer: Option<IpAddr>, owner: PeerOwner) -> Option<IpAddr> {
    peer.filter(|_| owner != PeerOwner::Same)
}

/// The query's parameters, percent-decoded (none when it does not parse).
fn query_pairs(uri: &Uri) -> Vec<(String, String)> {
    serde_urlencoded::from_str(uri.query().unwrap_or_default()).unwrap_or_default()
}

/// The query parameter `name` (`?token=…`, `?login=…`), if any.
fn query_value(uri: &Uri, name: &str) -> Option<String> {
    query_pairs(uri)
        .into_iter()
        .find_map(|(key, value)| (key == name).then_some(value))
}

/// The request's path and query without its `name` parameter; `/` when the path could be
/// read as another site (`//evil.example/`), so the clean-up is never an open redirect.
fn without(uri: &Uri, name: &str) -> String {
    let Some(path) = hark_core::model::local_path(uri.path()) else {
        return "/".to_string();
    };
    let rest: Vec<(String, String)> = query_pairs(uri)
        .into_iter()
        .filter(|(key, _)| key != name)
        .collect();
    match serde_urlencoded::to_string(&rest) {
        Ok(query) if !query.is_empty() => format!("{path}?{query}"),
        _ => path.to_string(),
    }
}

/// The token from `Authorization: Bearer` or the `hark_token` cookie.
fn presented_token(headers: &HeaderMap) -> Option<String> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| {
            let (scheme, token) = value.trim().split_once(' ')?;
            scheme
                .eq_ignore_ascii_case("bearer")
                .then(|| token.trim().to_string())
        });
    bearer.or_else(|| {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(cookie::Cookie::split_parse)
            .filter_map(Result::ok)
            .find(|cookie| cookie.name() == TOKEN_COOKIE)
            .map(|cookie| cookie.value().to_string())
    })
}

/// The `Set-Cookie` value that pairs a browser: sent back to this server only, never readable
/// by scripts, never sent along from another site.
pub fn pairing_cookie(token: &str) -> String {
    format!("{TOKEN_COOKIE}={token}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict")
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn access(require_everywhere: bool) -> (Access, String) {
        let tokens = Tokens::new(None);
        let token = tokens.current().unwrap();
        (Access::new(tokens, true, require_everywhere, &[]), token)
    }

    const PHONE: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(192, 168, 1, 50)));
    const HERE: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST));

    /// A GET from `peer`: on loopback, its connection owned by the daemon's own user.
    fn get(
        access: &Access,
        peer: Option<IpAddr>,
        uri: &str,
        headers: &[(&str, &str)],
    ) -> Admission {
        // As the listener finds them: a socket here is this user's, one elsewhere no one's.
        let owner = if peer.is_some_and(network::is_loopback) {
            PeerOwner::Same
        } else {
            PeerOwner::Unknown
        };
        get_as(access, peer, owner, uri, headers)
    }

    fn get_as(
        access: &Access,
        peer: Option<IpAddr>,
        owner: PeerOwner,
        uri: &str,
        headers: &[(&str, &str)],
    ) -> Admission {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        access.admit(peer, owner, &Method::GET, &uri.parse().unwrap(), &map)
    }

    #[test]
    fn another_account_on_this_machine_needs_the_token() {
        let (access, token) = access(false);
        for owner in [PeerOwner::Another, PeerOwner::Unknown] {
            assert_eq!(
                get_as(&access, HERE, owner, "/api/questions", &[]),
                Admission::Refused(Refusal::NoToken)
            );
            let bearer = format!("Bearer {token}");
            assert_eq!(
                get_as(
                    &access,
                    HERE,
                    owner,
                    "/api/questions",
                    &[("authorization", &bearer)]
                ),
                Admission::Paired
            );
        }
    }

    #[test]
    fn a_one_time_login_works_once_and_not_for_another_account() {
        let (access, _) = access(true);
        let code = access.logins.mint().unwrap();
        let link = format!("/q/1?login={code}");
        assert_eq!(
            get_as(&access, HERE, PeerOwner::Another, &link, &[]),
            Admission::Refused(Refusal::WrongToken),
            "another account may have read it off a command line"
        );
        assert_eq!(
            get(&access, HERE, &link, &[]),
            Admission::PairNow {
                location: "/q/1".into()
            },
            "not used up by the refusal"
        );
        assert_eq!(
            get(&access, HERE, &link, &[]),
            Admission::Refused(Refusal::WrongToken),
            "used up"
        );
        // Where the owner cannot be found (a browser behind WSL's relay), the code still works.
        let code = access.logins.mint().unwrap();
        assert_eq!(
            get_as(
                &access,
                HERE,
                PeerOwner::Unknown,
                &format!("/?login={code}"),
                &[]
            ),
            Admission::PairNow {
                location: "/".into()
            }
        );
    }

    #[test]
    fn another_accounts_guesses_never_lock_this_user_out() {
        let (access, token) = access(true);
        for _ in 0..MAX_FAILURES + 1 {
            get_as(
                &access,
                HERE,
                PeerOwner::Another,
                "/",
                &[("authorization", "Bearer x")],
            );
        }
        assert!(matches!(
            get_as(&access, HERE, PeerOwner::Another, "/", &[]),
            Admission::Refused(_)
        ));
        let bearer = format!("Bearer {token}");
        assert_eq!(
            get(&access, HERE, "/", &[("authorization", &bearer)]),
            Admission::Paired
        );
    }

    #[test]
    fn a_spent_login_still_cleans_up_for_this_user() {
        let (access, _) = access(false);
        assert_eq!(
            get(&access, HERE, "/settings?login=spent&a=b", &[]),
            Admission::PairNow {
                location: "/settings?a=b".into()
            }
        );
        assert_eq!(
            get_as(&access, HERE, PeerOwner::Another, "/?login=spent", &[]),
            Admission::Refused(Refusal::WrongToken)
        );
    }

    #[test]
    fn peers_off_this_machine_need_the_token_this_machine_does_not() {
        let (access, token) = access(false);
        assert_eq!(get(&access, HERE, "/", &[]), Admission::Local);
        assert_eq!(
            get(&access, PHONE, "/", &[]),
            Admission::Refused(Refusal::NoToken)
        );
        assert_eq!(
            get(&access, None, "/", &[]),
            Admission::Refused(Refusal::NoToken)
        );
        let bearer = format!("Bearer {token}");
        assert_eq!(
            get(
                &access,
                PHONE,
                "/api/questions",
                &[("authorization", &bearer)]
            ),
            Admission::Paired
        );
        let cookie = format!("hark_lang=ko; hark_token={token}");
        assert_eq!(
            get(&access, PHONE, "/pkg/hark.wasm", &[("cookie", &cookie)]),
            Admission::Paired
        );
        assert_eq!(
            get(&access, PHONE, "/", &[("authorization", "Bearer nope")]),
            Admission::Refused(Refusal::WrongToken)
        );
    }

    #[test]
    fn the_pairing_url_leads_to_the_clean_address() {
        let (access, token) = access(false);
        assert_eq!(
            get(&access, PHONE, &format!("/?token={token}"), &[]),
            Admission::PairNow {
                location: "/".into()
            }
        );
        assert_eq!(
            get(&access, PHONE, &format!("/q/1?a=b&token={token}&c=d"), &[]),
            Admission::PairNow {
                location: "/q/1?a=b&c=d".into()
            }
        );
        assert_eq!(
            get(&access, PHONE, "/?token=stale", &[]),
            Admission::Refused(Refusal::WrongToken)
        );
        for foreign in ["//evil.example/", "/\\evil.example/", "/%09/evil.example/"] {
            assert_eq!(
                get(&access, HERE, &format!("{foreign}?token=x&a=b"), &[]),
                Admission::PairNow {
                    location: if foreign.starts_with("/%") {
                        format!("{foreign}?a=b")
                    } else {
                        "/".into()
                    }
                },
                "{foreign}"
            );
        }
        // On this machine a stale link still cleans up.
        assert_eq!(
            get(&access, HERE, "/?token=stale", &[]),
            Admission::PairNow {
                location: "/".into()
            }
        );
    }

    #[test]
    fn every_peer_pairs_when_asked_to() {
        let (access, token) = access(true);
        assert_eq!(
            get(&access, HERE, "/", &[]),
            Admission::Refused(Refusal::NoToken)
        );
        assert_eq!(
            get(&access, HERE, "/?token=stale", &[]),
            Admission::Refused(Refusal::WrongToken)
        );
        let bearer = format!("Bearer {token}");
        assert_eq!(
            get(&access, HERE, "/", &[("authorization", &bearer)]),
            Admission::Paired
        );
    }

    #[test]
    fn repeated_wrong_tokens_lock_the_address_out_but_not_others() {
        let (access, token) = access(false);
        for _ in 0..MAX_FAILURES {
            assert_eq!(
                get(&access, PHONE, "/?token=guess", &[]),
                Admission::Refused(Refusal::WrongToken)
            );
        }
        let right = format!("Bearer {token}");
        assert!(matches!(
            get(&access, PHONE, "/", &[("authorization", &right)]),
            Admission::Refused(Refusal::TooManyFailures { retry_after_secs }) if retry_after_secs <= 60
        ));
        let other_address = IpAddr::V4(std::net::Ipv4Addr::new(192, 168, 1, 51));
        let other = Some(other_address);
        assert!(!access.is_paired_peer(other_address));
        assert_eq!(
            get(&access, other, "/", &[("authorization", &right)]),
            Admission::Paired
        );
        assert!(access.is_paired_peer(other_address));
        assert!(!access.is_paired_peer(PHONE.unwrap()));
        // A new token unpairs every address.
        access.tokens.rotate().unwrap();
        assert!(!access.is_paired_peer(other_address));
    }
}
