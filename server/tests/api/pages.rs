//! The server-rendered pages, and answering through the form's server function without any
//! JavaScript.

use crate::api::support::*;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[tokio::test]
async fn the_inbox_lists_pending_questions_with_a_nonce_policy() {
    let daemon = Daemon::start();
    daemon
        .ask(&json!({"questions": [{"question": "Ship the <script>alert(1)</script> fix?"}]}))
        .await;
    let response = daemon.get("/").await;
    assert_eq!(response.status(), 200);
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    let html = response.text().await.unwrap();
    assert!(html.contains("Waiting for you"));
    assert!(
        html.contains("Ship the &lt;script&gt;alert(1)&lt;/script&gt; fix?"),
        "escaped"
    );
    assert!(!html.contains("<script>alert(1)"));
    // The lists are in the page; the island's block says only which state and language they
    // show, so the page does not carry the questions twice.
    let block = between(&html, r#"id="hark-inbox">"#, "</script>").expect("the inbox's block");
    let listed: Value = serde_json::from_str(block).unwrap();
    assert_eq!(listed["lang"], "en");
    assert!(listed["seen"].is_u64() && listed["any"] == false && listed["more"] == false);
    assert!(!block.contains("Ship the"), "{block}");
    let nonce = between(&csp, "'nonce-", "'").expect("the page's policy carries a nonce");
    assert!(
        html.contains(&format!("nonce=\"{nonce}\"")),
        "inline scripts carry the nonce"
    );
    // The stylesheet comes inline, so the first paint waits for no second request.
    let style = between(&html, "<style>", "</style>").expect("the page carries its stylesheet");
    assert!(
        style.contains("data-theme") && style.len() > 5_000,
        "{style:.200}"
    );
    assert!(!html.contains("/pkg/hark.css"), "and does not link it too");
    assert!(csp.contains("style-src 'self' 'unsafe-inline'"), "{csp}");
}

/// Calls the page's server function `F` with the form `fields`: its status and JSON answer.
async fn server_fn<F: leptos::server_fn::ServerFn>(
    daemon: &Daemon,
    fields: &[(&str, &str)],
) -> (u16, Value) {
    let response = (daemon.http.post(daemon.url(F::PATH)))
        .form(fields)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn the_inbox_island_gets_the_lists_written_in_its_language() {
    use app::pages::home::{InboxLists, OlderHistory};
    let daemon = Daemon::start();
    let source = json!({"client": "claude-code 2.1", "cwd": "/home/ana/shop"});
    let older = daemon
        .ask(&json!({"questions": [{"question": "Old <b>one</b>?"}]}))
        .await;
    let newer = daemon
        .ask(&json!({"questions": [{"question": "Newer one?"}]}))
        .await;
    for closed in [&older, &newer] {
        let id = closed["id"].as_str().unwrap();
        daemon
            .post(&format!("/api/questions/{id}/cancel"), &json!({}))
            .await;
    }
    daemon
        .ask(&json!({"questions": [{"question": "Waiting <one>?"}], "source": source}))
        .await;

    let (status, lists) = server_fn::<InboxLists>(&daemon, &[("lang", "ru")]).await;
    assert_eq!(status, 200, "{lists}");
    let waiting = lists["waiting"].as_str().unwrap();
    assert!(waiting.contains("claude-code 2.1 · shop"), "{waiting}");
    assert!(waiting.contains("Waiting &lt;one&gt;?"), "{waiting}");
    assert!(
        waiting.contains("Сказать агенту…"),
        "the Tell box, in Russian: {waiting}"
    );
    let cards = lists["history"]["cards"].as_str().unwrap();
    assert!(cards.contains("Отозван") && cards.contains("Old &lt;b&gt;one&lt;/b&gt;?"));
    assert!(
        cards.find("Newer one?") < cards.find("Old &lt;b&gt;"),
        "newest first"
    );
    assert_eq!(lists["history"]["more"], false);
    // The fingerprint the page's block carries, for the same state.
    let html = daemon.get("/").await.text().await.unwrap();
    let block = between(&html, r#"id="hark-inbox">"#, "</script>").unwrap();
    let listed: Value = serde_json::from_str(block).unwrap();
    assert_eq!(listed["seen"], lists["seen"]);
    assert_eq!(
        (listed["any"].clone(), listed["more"].clone()),
        (json!(true), json!(false))
    );
    // While its WebAssembly loads, the page's script asks for the lists in its language, and
    // writes what waits into the list the page holds.
    let prefetch = format!(
        r#"window["__harkEvents"], "{}", "en", "waiting-list", {})"#,
        <InboxLists as leptos::server_fn::ServerFn>::PATH,
        lists["seen"]
    );
    assert!(
        html.contains(r#"<div id="waiting-list""#),
        "the list of what waits"
    );
    assert!(html.contains(&prefetch), "the inbox's prefetch script");

    // The history's next page follows the card it is given.
    let newer_id = newer["id"].as_str().unwrap();
    let fields = [("lang", "en"), ("before", newer_id)];
    let (status, page) = server_fn::<OlderHistory>(&daemon, &fields).await;
    assert_eq!(status, 200, "{page}");
    let cards = page["cards"].as_str().unwrap();
    assert!(cards.contains("Old &lt;b&gt;one") && !cards.contains("Newer one?"));
    assert!(cards.contains("Withdrawn"), "in English: {cards}");

    // A language Hark does not offer, and a card it does not know, are refused by name.
    let (status, refused) = server_fn::<InboxLists>(&daemon, &[("lang", "xx")]).await;
    assert!(status >= 400, "{refused}");
    assert_eq!(refused["failure"], "unknownPreference", "{refused}");
    assert_eq!(refused["field"], "lang", "{refused}");
    let unknown = "00000000-0000-4000-8000-000000000000";
    let fields = [("lang", "en"), ("before", unknown)];
    let (status, refused) = server_fn::<OlderHistory>(&daemon, &fields).await;
    assert!(status >= 400, "{refused}");
    assert_eq!(refused["failure"], "notFound", "{refused}");
}

#[tokio::test]
async fn a_question_page_shows_every_shape() {
    let daemon = Daemon::start();
    let question = daemon
        .ask(&json!({"title": "Release plan", "questions": [
            {"question": "Which day?", "header": "Day", "options": [
                {"label": "Monday", "description": "start of week", "recommended": true},
                {"label": "Friday", "danger": true}]},
            {"question": "Which parts?", "multiSelect": true, "allowFreeText": false,
             "options": [{"label": "API"}, {"label": "UI"}]},
            {"question": "Anything else?"}
        ]}))
        .await;
    let id = question["id"].as_str().unwrap();
    let html = daemon.get(&format!("/q/{id}")).await.text().await.unwrap();
    for expected in [
        "Release plan",
        "Which day?",
        "Monday",
        "start of week",
        "Recommended",
        "Which parts?",
        "Anything else?",
    ] {
        assert!(html.contains(expected), "missing {expected}");
    }
    assert!(html.contains(r#"type="radio""#));
    assert!(html.contains(r#"type="checkbox""#));
    assert!(html.contains("option danger"));
    // Its island takes the question from the page's data block.
    let block =
        between(&html, r#"id="hark-question">"#, "</script>").expect("the question's block");
    let carried: Value = serde_json::from_str(block).unwrap();
    assert_eq!(carried["id"], id);
    assert_eq!(carried["questions"][0]["options"][1]["danger"], true);
    let alias = daemon.get(&format!("/question/{id}")).await;
    assert_eq!(alias.status(), 200);
    let missing = daemon
        .get("/q/00000000-0000-4000-8000-000000000000")
        .await
        .text()
        .await
        .unwrap();
    assert!(missing.contains("does not exist"));
    assert_eq!(daemon.get("/no/such/page").await.status(), 404);
}

#[tokio::test]
async fn pages_and_json_go_out_compressed_to_clients_that_take_it() {
    let daemon = Daemon::start();
    daemon
        .ask(&json!({"questions": [{"question": "Compress the page?"}]}))
        .await;
    let plain = daemon.get("/").await.bytes().await.unwrap();
    for (path, accept) in [("/", "br"), ("/", "gzip"), ("/api/questions", "gzip, br")] {
        let response = daemon
            .http
            .get(daemon.url(path))
            .header("accept-encoding", accept)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let encoding = response.headers()["content-encoding"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            accept.contains(&encoding),
            "{path}: {encoding} for {accept}"
        );
        let vary = response.headers()["vary"].to_str().unwrap().to_lowercase();
        assert!(vary.contains("accept-encoding"), "{path}: vary {vary}");
        if path == "/" {
            let compressed = response.bytes().await.unwrap();
            assert!(
                compressed.len() * 2 < plain.len(),
                "{accept}: {} of {} bytes",
                compressed.len(),
                plain.len()
            );
        }
    }
    // A client that asks for nothing gets plain text.
    let response = daemon.get("/").await;
    assert!(response.headers().get("content-encoding").is_none());
    // The event stream's handshake and images are left alone.
    let mut request = format!("ws://127.0.0.1:{}/api/ws", daemon.port)
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("accept-encoding", "gzip, br".parse().unwrap());
    let (mut socket, handshake) = tokio_tungstenite::connect_async(request).await.unwrap();
    assert!(handshake.headers().get("content-encoding").is_none());
    assert_eq!(
        crate::api::events::next_event(&mut socket).await["event"],
        "init"
    );
    let asked = daemon
        .ask(&json!({"questions": [{"question": "Screenshot?"}]}))
        .await;
    let id = asked["id"].as_str().unwrap();
    let jpeg = crate::api::images::jpeg();
    let answer = json!({"answers": [{"selected": [], "images": [
        crate::api::images::image("image/jpeg", &jpeg)
    ]}]});
    let answered = daemon
        .post(&format!("/api/questions/{id}/answer"), &answer)
        .await;
    assert_eq!(answered.status(), 200);
    let image = daemon
        .http
        .get(daemon.url(&format!("/api/questions/{id}/images/0/0")))
        .header("accept-encoding", "gzip, br")
        .send()
        .await
        .unwrap();
    assert_eq!(image.status(), 200);
    assert!(image.headers().get("content-encoding").is_none());
    assert_eq!(image.bytes().await.unwrap().as_ref(), jpeg.as_slice());
}

/// The hrefs of a page's `<link rel="{rel}">` tags.
fn links(html: &str, rel: &str) -> Vec<String> {
    html.split("<link ")
        .skip(1)
        .filter_map(|tag| tag.split('>').next())
        .filter(|tag| tag.contains(&format!(r#"rel="{rel}""#)))
        .filter_map(|tag| tag.split(r#"href=""#).nth(1)?.split('"').next())
        .map(str::to_string)
        .collect()
}

/// The lazy routes' modules a page asks the browser to fetch ahead (the main module, which
/// Leptos preloads on every page, left out).
fn preloaded_modules(html: &str) -> Vec<String> {
    links(html, "preload")
        .into_iter()
        .filter(|href| href.ends_with(".wasm") && href != "/pkg/hark.wasm")
        .collect()
}

/// The split manifest the daemon serves: each split point's `.wasm` files, without extension.
pub async fn split_manifest(daemon: &Daemon) -> serde_json::Map<String, Value> {
    daemon
        .get("/pkg/__wasm_split_manifest.json")
        .await
        .json()
        .await
        .expect("the site is built into the daemon")
}

/// The text between the first `start` and the `end` after it.
pub fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    text.split_once(start)?.1.split(end).next()
}

/// The modules of the split point whose name starts with `split_point`, as the page links them.
async fn manifest_modules(daemon: &Daemon, split_point: &str) -> Vec<String> {
    let manifest = split_manifest(daemon).await;
    let (_, files) = manifest
        .iter()
        .find(|(name, _)| name.starts_with(split_point))
        .unwrap_or_else(|| panic!("no {split_point} in {manifest:?}"));
    files
        .as_array()
        .unwrap()
        .iter()
        .map(|file| format!("/pkg/{}.wasm", file.as_str().unwrap()))
        .collect()
}

#[tokio::test]
async fn a_lazy_page_opened_directly_fetches_its_code_beside_the_main_module() {
    let daemon = Daemon::start();
    let question = daemon
        .ask(&json!({"questions": [{"question": "Merge?"}]}))
        .await;
    let id = question["id"].as_str().unwrap();
    let question_modules = manifest_modules(&daemon, "question_view_loader_").await;
    assert!(question_modules.len() >= 2, "{question_modules:?}");
    // Many at once, each on whichever worker: every one is written while `<head>` renders.
    let pages = futures::future::join_all(
        (0..20).map(|_| async { daemon.get(&format!("/q/{id}")).await.text().await.unwrap() }),
    )
    .await;
    for html in &pages {
        assert_eq!(preloaded_modules(html), question_modules);
    }
    for href in &question_modules {
        let response = daemon.get(href).await;
        assert_eq!(response.status(), 200, "{href}");
        assert_eq!(response.headers()["content-type"], "application/wasm");
    }
    let settings = daemon.get("/settings").await.text().await.unwrap();
    assert_eq!(
        preloaded_modules(&settings),
        manifest_modules(&daemon, "settings_page_loader_").await
    );
    let agents = daemon.get("/agents").await.text().await.unwrap();
    let block = between(&agents, r#"id="hark-sessions">"#, "</script>").expect("the sessions");
    assert!(serde_json::from_str::<Value>(block).unwrap().is_array());
    // The questions waiting, for the cards (the one asked above).
    let block = between(&agents, r#"id="hark-asked">"#, "</script>").expect("their questions");
    let asked: Value = serde_json::from_str(block).unwrap();
    assert_eq!(asked[0]["id"], id, "{asked}");
    assert_eq!(
        preloaded_modules(&agents),
        manifest_modules(&daemon, "agents_view_loader_").await
    );
    let inbox = daemon.get("/").await.text().await.unwrap();
    assert_eq!(preloaded_modules(&inbox), Vec::<String>::new());
    // The split modules' loader, which the main module imports, is fetched ahead on every page.
    for html in [&pages[0], &settings, &inbox] {
        let loaders = links(html, "modulepreload");
        let loader = loaders
            .iter()
            .find(|href| href.contains("__wasm_split"))
            .unwrap_or_else(|| panic!("no loader among {loaders:?}"));
        assert_eq!(daemon.get(loader).await.status(), 200, "{loader}");
    }
}

/// The `action` of the page's form posting to server function `name` (its URL carries a hash).
pub fn form_action(html: &str, name: &str) -> String {
    let start = html
        .find(&format!("action=\"/fn/{name}"))
        .unwrap_or_else(|| panic!("no form posting to {name}"))
        + 8;
    html[start..].split('"').next().unwrap().to_string()
}

#[tokio::test]
async fn the_form_answers_without_javascript_and_opens_the_next_question() {
    let daemon = Daemon::start();
    let first = daemon
        .ask(&json!({"questions": [
            {"question": "Colour?", "options": [{"label": "Red"}, {"label": "Blue"}]},
            {"question": "Sizes?", "multiSelect": true, "allowFreeText": false,
             "options": [{"label": "S"}, {"label": "M"}, {"label": "L"}]}
        ]}))
        .await;
    let next = daemon.ask(&yes_no()).await;
    let id = first["id"].as_str().unwrap();
    let html = daemon.get(&format!("/q/{id}")).await.text().await.unwrap();
    let action = form_action(&html, "submit_answer");
    let form = [
        ("id", id),
        ("answer[0][selected][0]", "Blue"),
        ("answer[0][free_text]", "navy if possible"),
        ("answer[1][selected][0]", "S"),
        ("answer[1][selected][2]", "L"),
        ("answer[1][free_text]", ""),
    ];
    let response = daemon
        .http
        .post(daemon.url(&action))
        .header("accept", "text/html")
        .header("referer", daemon.url(&format!("/q/{id}")))
        .form(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 302);
    assert_eq!(
        response.headers()["location"],
        format!("/q/{}", next["id"].as_str().unwrap())
    );
    let answered: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(answered["status"], "answered");
    assert_eq!(answered["answeredVia"], "page");
    assert_eq!(
        answered["answers"],
        json!([{"selected": ["Blue"], "freeText": "navy if possible"}, {"selected": ["S", "L"]}])
    );
    let page = daemon.get(&format!("/q/{id}")).await.text().await.unwrap();
    assert!(page.contains("This question has been answered."));
}

#[tokio::test]
async fn an_invalid_form_post_leaves_the_question_pending() {
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    let html = daemon.get(&format!("/q/{id}")).await.text().await.unwrap();
    let action = form_action(&html, "submit_answer");
    let response = daemon
        .http
        .post(daemon.url(&action))
        .form(&[("id", id), ("answer[0][free_text]", "")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let body = response.text().await.unwrap();
    assert!(body.contains("answers[0]"), "{body}");
    let read: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(read["status"], "pending");
}
