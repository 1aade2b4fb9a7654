//! The pairing URL and its QR code: what the settings page, `GET /api/pairing` and `hark url`
//! show, so a phone on the same network opens the page already paired.

use crate::security::access::Access;
use crate::security::network;
use hark_core::model::Pairing;
use qrcode::QrCode;
use qrcode::render::{svg, unicode};

/// How a phone reaches the daemon on `port`; with `with_qr`, the LAN URL as an SVG QR code.
pub fn pairing(access: &Access, port: u16, with_qr: bool) -> Pairing {
    let lan_url = access.lan.then(|| lan_url(access, port)).flatten();
    Pairing {
        lan: access.lan,
        local_url: format!("http://127.0.0.1:{port}/"),
        qr_svg: lan_url.as_deref().filter(|_| with_qr).and_then(qr_svg),
        lan_url,
    }
}

fn lan_url(access: &Access, port: u16) -> Option<String> {
    let address = network::pairing_address()?;
    match access.tokens.current() {
        Ok(token) => Some(format!("http://{address}:{port}/?token={token}")),
        Err(error) => {
            tracing::warn!(%error, "no token for the pairing URL");
            None
        }
    }
}

/// `url` as a QR code in SVG, scaled by its container.
pub fn qr_svg(url: &str) -> Option<String> {
    let code = QrCode::new(url.as_bytes()).ok()?;
    Some(
        code.render::<svg::Color<'_>>()
            .min_dimensions(220, 220)
            .quiet_zone(true)
            .dark_color(svg::Color("#000000"))
            .light_color(svg::Color("#ffffff"))
            .build(),
    )
}

/// `url` as a QR code drawn with half-block characters, for a terminal.
pub fn qr_terminal(url: &str) -> Option<String> {
    let code = QrCode::new(url.as_bytes()).ok()?;
    Some(
        code.render::<unicode::Dense1x2>()
            .dark_color(unicode::Dense1x2::Light)
            .light_color(unicode::Dense1x2::Dark)
            .quiet_zone(true)
            .build(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qr_codes_render() {
        let svg = qr_svg("http://192.168.1.20:13390/?token=abc").unwrap();
        assert!(
            svg.starts_with("<?xml") || svg.starts_with("<svg"),
            "{svg:.80}"
        );
        assert!(svg.contains("<path") || svg.contains("<rect"));
        let terminal = qr_terminal("http://192.168.1.20:13390/?token=abc").unwrap();
        assert!(terminal.lines().count() > 10);
    }

    #[test]
    fn local_mode_shows_no_lan_url() {
        let access = Access::new(crate::security::token::Tokens::new(None), false, false, &[]);
        let pairing = pairing(&access, 13390, true);
        assert!(!pairing.lan && pairing.lan_url.is_none() && pairing.qr_svg.is_none());
        assert_eq!(pairing.local_url, "http://127.0.0.1:13390/");
    }
}
