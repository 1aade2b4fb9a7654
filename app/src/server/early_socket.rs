//! The event stream opened by the page's first script, before its WebAssembly has arrived
//! (server only: the script is written into `<head>`). On a slow phone the handshake and the
//! `init` event then travel while the module downloads, not after hydration: the page was
//! live half a second after hydrating, waiting for two round trips (issue 30). What arrives is
//! kept until the page takes the socket over (`live::browser`); the names are shared with it
//! through `live::EARLY_SOCKET`.

use leptos::prelude::*;

/// The inline script: opens `/api/ws` and keeps what it hears in `window[NAME]`
/// (`{socket, heard: [text…], closed}`). A page whose WebAssembly never takes it (it did not
/// load) closes it after `GIVE_UP_MS`: an open stream counts as a live page for the daemon,
/// which then would not notify the desktop, and what it keeps would grow.
const SCRIPT: &str = r#"(function () {
  try {
    var heard = [], kept = { heard: heard, closed: false };
    var scheme = location.protocol == 'https:' ? 'wss://' : 'ws://';
    var socket = new WebSocket(scheme + location.host + '/api/ws');
    socket.onmessage = function (event) {
      if (typeof event.data == 'string') heard.push(event.data);
    };
    socket.onclose = function () { kept.closed = true; };
    kept.socket = socket;
    window['NAME'] = kept;
    setTimeout(function () {
      if (window['NAME'] === kept) { delete window['NAME']; socket.close(); }
    }, GIVE_UP_MS);
  } catch (error) {}
})();"#;

/// How long the first script keeps the stream for a page that has not taken it.
const GIVE_UP_MS: u32 = 60_000;

/// The script as the page gets it.
fn script() -> String {
    super::inline_script::compact(SCRIPT)
        .replace("NAME", crate::live::EARLY_SOCKET)
        .replace("GIVE_UP_MS", &GIVE_UP_MS.to_string())
}

#[component]
pub fn EarlySocket() -> impl IntoView {
    let script = script();
    let nonce = leptos::nonce::use_nonce().map(|nonce| nonce.to_string());
    view! { <script nonce=nonce inner_html=script></script> }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_script_names_what_the_page_takes_over() {
        let script = super::script();
        assert!(script.contains("window['__harkEvents'] = kept"), "{script}");
        assert!(
            !script.contains("NAME") && !script.contains("GIVE_UP"),
            "{script}"
        );
        assert!(!script.contains("</script"), "it cannot end its element");
    }
}
