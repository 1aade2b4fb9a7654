//! A one-time login (`POST /api/login`, SPEC §16): the code that lets a browser in once, for the
//! pages Hark opens itself, so nobody types the token on their own machine.

use serde::{Deserialize, Serialize};

/// The query parameter a page's address carries the code in.
pub const LOGIN_PARAMETER: &str = "login";

/// A code minted by the daemon: it works once, within `expires_in_secs`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OneTimeLogin {
    pub code: String,
    pub expires_in_secs: u64,
}

impl OneTimeLogin {
    /// `page` (a path on the daemon, such as `/q/<id>`) at `base`, logging in with this code.
    pub fn url(&self, base: &str, page: &str) -> String {
        let separator = if page.contains('?') { '&' } else { '?' };
        format!(
            "{}{page}{separator}{LOGIN_PARAMETER}={}",
            base.trim_end_matches('/'),
            self.code
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_joins_the_pages_query() {
        let login = OneTimeLogin {
            code: "c0de".into(),
            expires_in_secs: 300,
        };
        assert_eq!(
            login.url("http://127.0.0.1:13390/", "/q/1"),
            "http://127.0.0.1:13390/q/1?login=c0de"
        );
        assert_eq!(
            login.url("http://127.0.0.1:13390", "/?status=pending"),
            "http://127.0.0.1:13390/?status=pending&login=c0de"
        );
    }
}
