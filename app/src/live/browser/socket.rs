//! The event stream's socket, over the browser's own `WebSocket`: it can take over the one the
//! page's first script opened (`server::early_socket`) with what that heard so far, which
//! gloo-net's socket cannot, and it weighs less than gloo-net's stream and sink.

use futures::StreamExt;
use futures::channel::mpsc::{UnboundedReceiver, UnboundedSender, unbounded};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::{Closure, JsValue};
use web_sys::{MessageEvent, WebSocket};

/// One connection to the event stream, and what it has heard and not yet been read.
pub struct Socket {
    socket: WebSocket,
    heard: UnboundedReceiver<String>,
    // Kept as long as the socket: the browser calls them.
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_close: Closure<dyn FnMut(JsValue)>,
}

impl Socket {
    /// A new connection to `url`.
    pub fn open(url: &str) -> Option<Socket> {
        let socket = WebSocket::new(url).ok()?;
        Some(Socket::around(socket, Vec::new(), false))
    }

    /// The connection the page's first script opened, with what it heard; once.
    pub fn take_early() -> Option<Socket> {
        let window: JsValue = web_sys::window()?.into();
        let name = JsValue::from_str(crate::live::EARLY_SOCKET);
        let early = js_sys::Reflect::get(&window, &name)
            .ok()
            .filter(JsValue::is_object)?;
        let _ = js_sys::Reflect::delete_property(window.unchecked_ref::<js_sys::Object>(), &name);
        let field = |name: &str| js_sys::Reflect::get(&early, &JsValue::from_str(name)).ok();
        let socket: WebSocket = field("socket")?.dyn_into().ok()?;
        let heard: Vec<String> = field("heard")
            .map(|heard| {
                js_sys::Array::from(&heard)
                    .iter()
                    .filter_map(|text| text.as_string())
                    .collect()
            })
            .unwrap_or_default();
        let closed = field("closed").and_then(|closed| closed.as_bool()) == Some(true);
        Some(Socket::around(socket, heard, closed))
    }

    fn around(socket: WebSocket, heard: Vec<String>, closed: bool) -> Socket {
        let (tell, listen) = unbounded::<String>();
        for text in heard {
            let _ = tell.unbounded_send(text);
        }
        let on_message = {
            let tell = tell.clone();
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                if let Some(text) = event.data().as_string() {
                    let _ = tell.unbounded_send(text);
                }
            })
        };
        let on_close = {
            let tell: UnboundedSender<String> = tell.clone();
            Closure::<dyn FnMut(JsValue)>::new(move |_| tell.close_channel())
        };
        socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        // Ended before these handlers were there: its close event has been and gone.
        if closed || socket.ready_state() == WebSocket::CLOSED {
            tell.close_channel();
        }
        Socket {
            socket,
            heard: listen,
            _on_message: on_message,
            _on_close: on_close,
        }
    }

    /// The next text heard; `None` once the connection has ended and all it heard is read.
    pub async fn next(&mut self) -> Option<String> {
        self.heard.next().await
    }

    /// The browser's socket, to say something over while it is open.
    pub fn raw(&self) -> WebSocket {
        self.socket.clone()
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        self.socket.set_onmessage(None);
        self.socket.set_onclose(None);
        let _ = self.socket.close();
    }
}
