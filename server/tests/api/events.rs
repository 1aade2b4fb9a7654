//! `/api/ws`: `init` on connect, then one event per change, in order, with the questions'
//! headlines rendered for the page's lists.

use crate::api::support::*;
use futures::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the event stream of the daemon whose `/api/ws` is at `url` (`ws://…` or `http://…`).
pub async fn connect_url(url: &str) -> Socket {
    let url = url.replacen("http://", "ws://", 1);
    tokio_tungstenite::connect_async(url.into_client_request().unwrap())
        .await
        .map(|(socket, _)| socket)
        .expect("the event stream opens")
}

pub async fn connect(
    daemon: &Daemon,
    origin: Option<&str>,
) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
    let mut request = format!("ws://127.0.0.1:{}/api/ws", daemon.port)
        .into_client_request()
        .unwrap();
    if let Some(origin) = origin {
        request
            .headers_mut()
            .insert("origin", origin.parse().unwrap());
    }
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(socket, _)| socket)
}

pub async fn next_event(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(std::time::Duration::from_secs(10), socket.next())
            .await
            .expect("an event within 10 s")
            .expect("the stream is open")
            .expect("a message");
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

#[tokio::test]
async fn init_then_every_change_in_order() {
    let daemon = Daemon::start();
    let early = daemon.ask(&yes_no()).await;
    let origin = format!("http://127.0.0.1:{}", daemon.port);
    let mut socket = connect(&daemon, Some(&origin)).await.unwrap();
    let init = next_event(&mut socket).await;
    assert_eq!(init["event"], "init");
    assert_eq!(init["data"]["questions"][0]["id"], early["id"]);
    assert_eq!(init["data"]["config"]["remindSecs"], 60);
    let health: Value = daemon.get("/api/health").await.json().await.unwrap();
    assert_eq!(health["browserClients"], 1);

    let second = daemon.ask(&yes_no()).await;
    let third = daemon.ask(&yes_no()).await;
    let id = |q: &Value| q["id"].as_str().unwrap().to_string();
    daemon
        .post(
            &format!("/api/questions/{}/answer", id(&early)),
            &pick("Yes"),
        )
        .await;
    daemon
        .post(
            &format!("/api/questions/{}/decline", id(&second)),
            &json!({"note": "later"}),
        )
        .await;
    daemon
        .post(&format!("/api/questions/{}/cancel", id(&third)), &json!({}))
        .await;
    daemon.put("/api/config", &json!({"sound": false})).await;

    let expected = [
        ("question:created", Some(id(&second)), "pending"),
        ("question:created", Some(id(&third)), "pending"),
        ("question:answered", Some(id(&early)), "answered"),
        ("question:closed", Some(id(&second)), "declined"),
        ("question:closed", Some(id(&third)), "cancelled"),
        ("config:updated", None, ""),
    ];
    for (name, question_id, status) in expected {
        let event = next_event(&mut socket).await;
        assert_eq!(event["event"], name, "{event}");
        if let Some(question_id) = question_id {
            assert_eq!(event["data"]["id"], question_id.as_str());
            assert_eq!(event["data"]["status"], status);
        } else {
            assert_eq!(event["data"]["sound"], false);
        }
    }
    drop(socket);
}

#[tokio::test]
async fn a_client_without_origin_is_served_too() {
    // Non-browser tools send no Origin; only browsers can be tricked into cross-site requests.
    let daemon = Daemon::start();
    let mut socket = connect(&daemon, None).await.unwrap();
    assert_eq!(next_event(&mut socket).await["event"], "init");
}

#[tokio::test]
async fn the_stream_carries_rendered_headlines_and_the_api_does_not() {
    let daemon = Daemon::start();
    let mut socket = connect(&daemon, None).await.unwrap();
    assert_eq!(next_event(&mut socket).await["event"], "init");
    let asked = daemon
        .ask(&json!({
            "title": "Release **v2** <script>x()</script>",
            "questions": [{"question": "Ship on *Friday*?", "options": [
                {"label": "Yes", "preview": "```sh\nmake ship\n```"},
                {"label": "No"}
            ]}, {"question": "{\"env\": \"prod\"}"}]
        }))
        .await;
    assert!(asked.get("shown").is_none(), "the API sends no rendering");
    let created = next_event(&mut socket).await;
    assert_eq!(created["event"], "question:created");
    let shown = &created["data"]["shown"];
    assert_eq!(shown["headline"], "Release v2 <script>x()</script>");
    assert_eq!(shown["firstQuestion"], "Ship on Friday?");
    assert!(shown.get("title").is_none(), "lists get headlines only");
    // The question's own page gets everything, rendered on the server.
    let id = asked["id"].as_str().unwrap();
    let page = daemon.get(&format!("/q/{id}")).await.text().await.unwrap();
    assert!(page.contains("<strong>v2</strong>"), "the title's Markdown");
    assert!(
        page.contains("&lt;script&gt;x()&lt;/script&gt;"),
        "raw HTML stays text"
    );
    assert!(page.contains("Ship on <em>Friday</em>?"));
    assert!(page.contains("env: prod"), "a JSON question as YAML");
    assert!(page.contains("make ship"), "a preview");
    let read: Value = daemon
        .get(&format!("/api/questions/{}", asked["id"].as_str().unwrap()))
        .await
        .json()
        .await
        .unwrap();
    assert!(read.get("shown").is_none());
}

#[tokio::test]
async fn a_headline_keeps_the_titles_lines_apart() {
    let daemon = Daemon::start();
    let mut socket = connect(&daemon, None).await.unwrap();
    assert_eq!(next_event(&mut socket).await["event"], "init");
    daemon
        .ask(&json!({
            "title": "## Release 2.4\nThe migration drops a column.",
            "questions": [{"question": "- Run it\n- now?"}]
        }))
        .await;
    let created = next_event(&mut socket).await;
    let shown = &created["data"]["shown"];
    assert_eq!(
        shown["headline"],
        "Release 2.4 The migration drops a column."
    );
    assert_eq!(shown["firstQuestion"], "Run it now?");
}
