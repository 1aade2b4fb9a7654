//! Images in answers (SPEC §13), end to end: sent over REST, kept beside the question, served
//! to the page, handed to an rmcp client as image blocks and to `hark ask --json` as base64,
//! exported, kept over a restart, and every bad image refused by field with the question left
//! open.

use crate::api::support::*;
use crate::api::world::*;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use std::process::Stdio;

/// A 1×1 transparent PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
    0x42, 0x60, 0x82,
];

/// A 1×1 JPEG of 2,000 bytes as the daemon reads one: its start, a JFIF header, the frame
/// that gives its size, a comment filling it out, and its end.
pub fn jpeg() -> Vec<u8> {
    let mut bytes = vec![
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, b'J', b'F', b'I', b'F', 0x00, 0x01, 0x01, 0x00, 0x00,
        0x01, 0x00, 0x01, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x01, 0x00, 0x01, 0x03,
        0x01, 0x11, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
    ];
    let comment = 2_000 - bytes.len() - 4 - 2;
    bytes.extend_from_slice(&[0xFF, 0xFE]);
    bytes.extend_from_slice(&((comment + 2) as u16).to_be_bytes());
    bytes.resize(bytes.len() + comment, b'x');
    bytes.extend_from_slice(&[0xFF, 0xD9]);
    bytes
}

pub fn image(media_type: &str, bytes: &[u8]) -> Value {
    json!({"mediaType": media_type, "data": STANDARD.encode(bytes)})
}

fn with_images(images: Vec<Value>) -> Value {
    json!({"answers": [{"selected": ["Yes"], "freeText": "see the screenshot", "images": images}]})
}

#[tokio::test]
async fn pasted_images_reach_an_rmcp_client_as_image_blocks() {
    let world = World::new();
    let shim = world.shim().await;
    let call = start_call(
        &shim,
        "ask_user",
        json!({"questions": [{"question": "Does it look right?", "options": [{"label": "Yes"}, {"label": "No"}]}]}),
    )
    .await;
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let jpeg = jpeg();
    let response = world
        .post(
            &format!("/api/questions/{id}/answer"),
            &with_images(vec![image("image/png", PNG), image("image/jpeg", &jpeg)]),
        )
        .await;
    assert_eq!(response.status(), 200);
    let result = finish(call).await;

    let blocks: Vec<_> = result
        .content
        .iter()
        .filter_map(|block| block.as_image())
        .collect();
    assert_eq!(blocks.len(), 2, "one image block per image");
    assert_eq!(blocks[0].mime_type, "image/png");
    assert_eq!(STANDARD.decode(&blocks[0].data).unwrap(), PNG);
    assert_eq!(blocks[1].mime_type, "image/jpeg");
    assert_eq!(STANDARD.decode(&blocks[1].data).unwrap(), jpeg);

    let structured = result.structured_content.clone().expect("structured");
    let images = &structured["answers"][0]["images"];
    assert_eq!(
        images,
        &json!([
            {"mediaType": "image/png", "size": PNG.len()},
            {"mediaType": "image/jpeg", "size": jpeg.len()}
        ]),
        "the structured answer names the images without repeating their bytes"
    );
    assert!(text_of(&result).contains("see the screenshot"));
    assert!(!text_of(&result).contains(&STANDARD.encode(PNG)));
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn images_are_served_to_the_page_exported_and_kept_over_a_restart() {
    let daemon = Daemon::start();
    let id = daemon.ask(&yes_no()).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let answered = daemon
        .post(
            &format!("/api/questions/{id}/answer"),
            &with_images(vec![image("image/png", PNG)]),
        )
        .await;
    assert_eq!(answered.status(), 200);
    let answered: Value = answered.json().await.unwrap();
    assert_eq!(
        answered["answers"][0]["images"],
        json!([{"mediaType": "image/png", "size": PNG.len()}]),
        "the question keeps the type and size, not the bytes"
    );

    let served = daemon.get(&format!("/api/questions/{id}/images/0/0")).await;
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "image/png");
    assert_eq!(served.headers()["x-content-type-options"], "nosniff");
    assert_eq!(
        served.headers()["cross-origin-resource-policy"],
        "same-origin"
    );
    assert!(
        served.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("sandbox")
    );
    assert_eq!(served.bytes().await.unwrap().as_ref(), PNG);

    let waited: Value = daemon
        .get(&format!("/api/questions/{id}/wait"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        waited["answers"][0]["images"][0]["data"],
        STANDARD.encode(PNG),
        "the agent's long poll carries the bytes"
    );

    let export: Value = daemon.get("/api/export").await.json().await.unwrap();
    assert_eq!(
        export[0]["answers"][0]["images"][0]["data"],
        STANDARD.encode(PNG)
    );
    let markdown = daemon
        .get("/api/export?format=markdown")
        .await
        .text()
        .await
        .unwrap();
    assert!(markdown.contains("One image attached"), "{markdown}");

    let missing = daemon.get(&format!("/api/questions/{id}/images/0/1")).await;
    assert_error(missing, 404, None).await;
    let bad_index = daemon.get(&format!("/api/questions/{id}/images/x/0")).await;
    assert_error(bad_index, 400, Some("answer")).await;
    let bad_id = daemon.get("/api/questions/nope/images/0/0").await;
    assert_error(bad_id, 400, Some("id")).await;

    let daemon = daemon.crash_and_restart();
    let served = daemon.get(&format!("/api/questions/{id}/images/0/0")).await;
    assert_eq!(served.status(), 200);
    assert_eq!(served.bytes().await.unwrap().as_ref(), PNG);
}

#[tokio::test]
async fn bad_images_are_refused_by_field_and_the_question_stays_open() {
    let daemon = Daemon::start();
    let id = daemon.ask(&yes_no()).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let answer = |body: Value| {
        let daemon = &daemon;
        let id = id.clone();
        async move {
            daemon
                .post(&format!("/api/questions/{id}/answer"), &body)
                .await
        }
    };
    let claimed_jpeg = answer(with_images(vec![image("image/jpeg", PNG)])).await;
    let body = assert_error(claimed_jpeg, 400, Some("answers[0].images[0].data")).await;
    assert!(
        body["error"].as_str().unwrap().contains("image/png"),
        "{body}"
    );
    let text = answer(with_images(vec![image("image/png", b"just some text")])).await;
    assert_error(text, 400, Some("answers[0].images[0].data")).await;
    let svg = answer(with_images(vec![image("image/svg+xml", b"<svg/>")])).await;
    assert_error(svg, 400, Some("answers[0].images[0].mediaType")).await;
    let data_url = answer(with_images(vec![json!({
        "mediaType": "image/png",
        "data": format!("data:image/png;base64,{}", STANDARD.encode(PNG)),
    })]))
    .await;
    assert_error(data_url, 400, Some("answers[0].images[0].data")).await;
    let no_data = answer(with_images(vec![json!({"mediaType": "image/png"})])).await;
    assert_error(no_data, 400, Some("answers[0].images[0].data")).await;
    let five = answer(with_images(vec![image("image/png", PNG); 5])).await;
    assert_error(five, 400, Some("answers[0].images")).await;
    // A page behind an image's signature, a script after a whole image, and 60000×60000
    // pixels claimed in 70 bytes: each refused, saying which.
    let mut page = PNG[..8].to_vec();
    page.extend_from_slice(b"<html><script>alert(1)</script></html>");
    let mut polyglot = PNG.to_vec();
    polyglot.extend_from_slice(b"<script>alert(1)</script>");
    let mut huge_claim = PNG.to_vec();
    huge_claim[16..20].copy_from_slice(&60_000_u32.to_be_bytes());
    huge_claim[20..24].copy_from_slice(&60_000_u32.to_be_bytes());
    for (bytes, said) in [
        (page, "not a whole image/png image"),
        (polyglot, "go on after the image ends"),
        (huge_claim, "60000×60000 pixels"),
    ] {
        let refused = answer(with_images(vec![image("image/png", &bytes)])).await;
        let body = assert_error(refused, 400, Some("answers[0].images[0].data")).await;
        assert!(body["error"].as_str().unwrap().contains(said), "{body}");
    }
    let mut huge = PNG.to_vec();
    huge.resize(5 * 1024 * 1024 + 1, 0);
    let too_large = answer(with_images(vec![image("image/png", &huge)])).await;
    let body = assert_error(too_large, 400, Some("answers[0].images[0].data")).await;
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("the limit is 5 MB"),
        "{body}"
    );

    // Past every image at its largest: refused by its declared length, before it is read.
    let declared = raw_answer(daemon.port, &id, 200 * 1024 * 1024);
    assert!(declared.starts_with("HTTP/1.1 413"), "{declared}");
    assert!(declared.contains("MiB"), "{declared}");
    // Other routes keep their small limit.
    let other = raw_post_to(daemon.port, "/api/questions", 300 * 1024);
    assert!(other.starts_with("HTTP/1.1 413"), "{other}");

    let question: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(question["status"], "pending", "nothing bad was kept");

    // A question that takes no words of the person's own takes no images either.
    let choice = daemon
        .ask(
            &json!({"questions": [{"question": "Deploy?", "allowFreeText": false,
                                     "options": [{"label": "Yes"}, {"label": "No"}]}]}),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let on_choice = daemon
        .post(
            &format!("/api/questions/{choice}/answer"),
            &json!({"answers": [{"selected": ["Yes"], "images": [image("image/png", PNG)]}]}),
        )
        .await;
    assert_error(on_choice, 400, Some("answers[0].images")).await;
    let four = answer(with_images(vec![image("image/png", PNG); 4])).await;
    assert_eq!(four.status(), 200, "four images are fine");
}

#[tokio::test]
async fn hark_ask_json_carries_the_images() {
    let world = World::new();
    let child = world
        .command(&["ask", "Show me?", "--json"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let id = world.pending(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let response = world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"images": [image("image/png", PNG)]}]}),
        )
        .await;
    assert_eq!(response.status(), 200, "an image alone is an answer");
    let output = child.wait_with_output().await.unwrap();
    assert_eq!(output.status.code(), Some(0));
    let outcome: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        outcome["answers"][0]["images"],
        json!([{"mediaType": "image/png", "data": STANDARD.encode(PNG), "size": PNG.len()}])
    );
}

#[tokio::test]
async fn only_a_few_large_answers_are_read_at_once() {
    use std::io::{Read, Write};
    let daemon = Daemon::start();
    let id = daemon.ask(&yes_no()).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Three uploads that announce 10 MB and then stall hold every place.
    let stalled: Vec<std::net::TcpStream> = (0..3)
        .map(|_| {
            let mut stream = std::net::TcpStream::connect(("127.0.0.1", daemon.port)).unwrap();
            let head = format!(
                "POST /api/questions/{id}/answer HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{{",
                daemon.port,
                10 * 1024 * 1024
            );
            stream.write_all(head.as_bytes()).unwrap();
            stream
        })
        .collect();
    let mut turned_away = None;
    for _ in 0..50 {
        let response = daemon
            .post(
                &format!("/api/questions/{id}/answer"),
                &with_images(vec![image("image/png", &vec![0x89; 300 * 1024])]),
            )
            .await;
        if response.status() == 503 {
            turned_away = Some(response);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let body = assert_error(turned_away.expect("a fourth large answer waits"), 503, None).await;
    assert!(
        body["error"].as_str().unwrap().contains("send again"),
        "{body}"
    );
    // Small answers are never held up.
    let small = daemon.ask(&yes_no()).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let answered = daemon
        .post(&format!("/api/questions/{small}/answer"), &pick("Yes"))
        .await;
    assert_eq!(answered.status(), 200);
    // Once the stalled uploads go away, their places are free again.
    for mut stream in stalled {
        let _ = stream.shutdown(std::net::Shutdown::Both);
        let mut rest = Vec::new();
        let _ = stream.read_to_end(&mut rest);
    }
    let mut accepted = false;
    for _ in 0..100 {
        let response = daemon
            .post(
                &format!("/api/questions/{id}/answer"),
                &with_images(vec![image("image/png", &big_png(300 * 1024))]),
            )
            .await;
        if response.status() == 200 {
            accepted = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(accepted, "a large answer is read once a place is free");
}

/// A whole PNG of `size` bytes: the 1×1 one with a private chunk of padding before its end.
fn big_png(size: usize) -> Vec<u8> {
    let end = PNG.len() - 12;
    let padding = size - PNG.len() - 12;
    let mut bytes = PNG[..end].to_vec();
    bytes.extend_from_slice(&(padding as u32).to_be_bytes());
    bytes.extend_from_slice(b"teSt");
    bytes.resize(bytes.len() + padding, 0);
    bytes.extend_from_slice(&[0; 4]);
    bytes.extend_from_slice(&PNG[end..]);
    assert_eq!(bytes.len(), size);
    bytes
}

fn raw_answer(port: u16, id: &str, declared: usize) -> String {
    raw_post_to(port, &format!("/api/questions/{id}/answer"), declared)
}

/// Sends only the head of a POST declaring `declared` bytes, and reads the answer.
fn raw_post_to(port: u16, path: &str, declared: usize) -> String {
    raw_post(port, path, &format!("Content-Length: {declared}\r\n"), &[])
}

#[tokio::test]
async fn the_pages_form_takes_large_images_and_no_other_form_does() {
    use leptos::server_fn::ServerFn;
    let daemon = Daemon::start();
    let id = daemon
        .ask(&json!({"questions": [{"question": "Show me?"}]}))
        .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let origin = format!("http://127.0.0.1:{}", daemon.port);
    // 3 MB of image: past axum's 2 MB default, well within an answer's limit.
    let data = format!(
        "data:image/png;base64,{}",
        STANDARD.encode(big_png(3 * 1024 * 1024))
    );
    let form = |path: &str, fields: Vec<(&str, String)>| {
        reqwest::Client::new()
            .post(daemon.url(path))
            .header("origin", &origin)
            .header("accept", "application/json")
            .form(&fields)
    };
    let submit = <app::pages::question::SubmitAnswer as ServerFn>::PATH;
    let answered = form(
        submit,
        vec![
            ("id", id.clone()),
            ("answer[0][free_text]", "the board".into()),
            ("answer[0][images][0]", data.clone()),
        ],
    )
    .send()
    .await
    .unwrap();
    assert_eq!(answered.status(), 200, "{}", answered.text().await.unwrap());
    let question: Value = daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        question["answers"][0]["images"],
        json!([{"mediaType": "image/png", "size": 3 * 1024 * 1024}])
    );
    // Refused by its declared length (a client still sending would see the connection close).
    let skip = <app::pages::question::SkipQuestion as ServerFn>::PATH;
    let refused = raw_post_to(daemon.port, skip, data.len());
    assert!(refused.starts_with("HTTP/1.1 413"), "{refused}");
}
