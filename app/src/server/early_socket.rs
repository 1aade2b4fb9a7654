//! The event stream opened by the page's first script, before its WebAssembly has arrived
//! (server only: the script is written into `<head>`). On a slow phone the handshake and the
//! `init` event then travel while the module downloads, not after hydration: the page was
//! live half a second after hydrating, waiting for two round trips (issue 30). What arrives is
//! kept until the page takes the socket over (`live::browser`); the names are shared with it
//! through `live::EARLY_SOCKET`.

use leptos::prelude::*;

/// The inline script: opens `/api/ws` and keeps what it hears in `window[EARLY_SOCKET]`
/// (`{socket, heard: [text…], closed}`).
#[component]
pub fn EarlySocket() -> impl IntoView {
    let script = format!(
        "(function(){{try{{var l=location,h=[],k={{heard:h,closed:false}},\
         s=new WebSocket((l.protocol=='https:'?'wss://':'ws://')+l.host+'/api/ws');\
         s.onmessage=function(e){{if(typeof e.data=='string')h.push(e.data)}};\
         s.onclose=function(){{k.closed=true}};k.socket=s;window['{name}']=k}}catch(e){{}}}})()",
        name = crate::live::EARLY_SOCKET
    );
    let nonce = leptos::nonce::use_nonce().map(|nonce| nonce.to_string());
    view! { <script nonce=nonce inner_html=script></script> }
}
