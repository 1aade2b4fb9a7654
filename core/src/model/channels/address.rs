//! The one check of a web address in the channels' settings (`publicUrl`, a server, a
//! receiver): `http` or `https`, a host, an optional port and path, and nothing else.

use crate::model::ErrorBody;

/// An `http` or `https` address with a host, an optional port and path, and nothing else (no
/// query, fragment or credentials), lower-cased up to its path and without a trailing `/`.
/// Checked by hand rather than with the `url` crate: this model also compiles for the page, and
/// `url` would bring its Unicode host tables into the wasm (hosts here are ASCII; a Unicode name
/// is written in its `xn--` form).
pub(super) fn web_address(field: &str, text: &str) -> Result<String, ErrorBody> {
    let invalid = || {
        ErrorBody::field(
            field,
            format!("{field} must be a web address such as https://example.net"),
        )
    };
    let text = text.trim();
    let (scheme, rest) = text.split_once("://").ok_or_else(invalid)?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(invalid());
    }
    let (authority, path) = rest.find('/').map_or((rest, ""), |at| rest.split_at(at));
    let (host, port) = match authority.strip_prefix('[') {
        Some(bracketed) => {
            let (inside, after) = bracketed.split_once(']').ok_or_else(invalid)?;
            if inside.is_empty() || !inside.chars().all(|c| c.is_ascii_hexdigit() || c == ':') {
                return Err(invalid());
            }
            (&authority[..inside.len() + 2], after)
        }
        None => {
            let end = authority.find(':').unwrap_or(authority.len());
            let host = &authority[..end];
            let host_fits = !host.is_empty()
                && host.len() <= 253
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
            if !host_fits {
                return Err(invalid());
            }
            (host, &authority[end..])
        }
    };
    let port_fits = port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.parse::<u16>().is_ok_and(|port| port > 0));
    // Characters a URL cannot hold (RFC 3986), and quotes, which no address needs: each would
    // be markup or an end of attribute wherever the address is shown.
    if let Some(bad) = path.chars().find(|c| {
        !c.is_ascii_graphic() || matches!(c, '<' | '>' | '"' | '\'' | '`' | '{' | '}' | '|' | '^')
    }) {
        let shown = if bad.is_whitespace() {
            "a space".to_string()
        } else {
            format!("\"{bad}\"")
        };
        return Err(ErrorBody::field(
            field,
            format!("{field} holds {shown}, which a web address cannot hold"),
        ));
    }
    let path_fits = path.chars().all(|c| !matches!(c, '?' | '#' | '\\' | '@'));
    if !port_fits || !path_fits {
        return Err(invalid());
    }
    // A browser leaves the scheme's own port out of an origin: so does the tidied address.
    let port = match (scheme.as_str(), port) {
        ("https", ":443") | ("http", ":80") => "",
        _ => port,
    };
    Ok(format!(
        "{scheme}://{}{port}{}",
        host.to_ascii_lowercase(),
        path.trim_end_matches('/')
    ))
}
