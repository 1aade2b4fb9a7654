//! MCP over Streamable HTTP at the daemon's `/mcp`: rmcp's own HTTP client lists the tools,
//! calls `ask_user`, and the person answers on the page's REST route, as with the stdio shim.

use crate::api::support::Daemon;
use crate::api::world::{Recorder, finish, start_call, text_of};
use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};

#[tokio::test]
async fn an_agent_without_a_shim_asks_over_http_and_gets_the_answer() {
    let world = Daemon::start();
    let transport = StreamableHttpClientTransport::from_uri(world.url("/mcp"));
    let client = Recorder::default()
        .serve(transport)
        .await
        .expect("the MCP handshake over HTTP");
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<_> = tools.iter().map(|tool| tool.name.to_string()).collect();
    assert_eq!(names, ["ask_user", "get_answer"]);

    let call = start_call(
        &client,
        "ask_user",
        json!({"questions": [{"question": "Ship it over HTTP?",
            "options": [{"label": "Yes"}, {"label": "No"}]}]}),
    )
    .await;
    let question = pending(&world).await;
    assert_eq!(question["questions"][0]["question"], "Ship it over HTTP?");
    // The agent is elsewhere: the daemon's folder and pid are not its.
    assert!(
        question["source"]
            .get("pid")
            .is_none_or(|pid| pid.is_null())
    );
    assert!(
        question["source"]
            .get("cwd")
            .is_none_or(|cwd| cwd.is_null())
    );
    let id = question["id"].as_str().unwrap();
    world
        .post(
            &format!("/api/questions/{id}/answer"),
            &json!({"answers": [{"selected": ["Yes"]}]}),
        )
        .await;
    let result = finish(call).await;
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let structured = result.structured_content.clone().expect("structured");
    assert_eq!(structured["status"], "answered");
    assert_eq!(structured["answers"][0]["selected"][0], "Yes");
    assert!(text_of(&result).contains("Yes"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_question_handed_off_is_abandoned_when_its_session_ends() {
    // The daemon hands calls off after a second, as `hark mcp --max-wait 1` would.
    let world = Daemon::start_with(tempfile::tempdir().unwrap(), &[("HARK_MAX_WAIT", "1")]);
    let transport = StreamableHttpClientTransport::from_uri(world.url("/mcp"));
    let client = Recorder::default().serve(transport).await.unwrap();
    let call = start_call(
        &client,
        "ask_user",
        json!({"questions": [{"question": "Still there?", "options": [{"label": "Yes"}]}]}),
    )
    .await;
    let handed_off = finish(call).await;
    let structured = handed_off.structured_content.clone().expect("structured");
    assert_eq!(structured["status"], "pending", "{handed_off:?}");
    let id = structured["id"].as_str().unwrap().to_string();
    assert!(read(&world, &id).await.get("abandonedAt").is_none());
    // The client closes its session (an HTTP DELETE), as an agent that quits does: what it
    // left waiting falls to the late-answer rules.
    client.cancel().await.unwrap();
    let mut abandoned = false;
    for _ in 0..100 {
        if read(&world, &id).await.get("abandonedAt").is_some() {
            abandoned = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(abandoned, "{}", read(&world, &id).await);
    assert_eq!(
        read(&world, &id).await["status"],
        "pending",
        "still answerable"
    );
}

#[tokio::test]
async fn a_daemon_that_asks_for_the_token_serves_mcp_to_a_client_that_sends_it() {
    let world = Daemon::start_flags(tempfile::tempdir().unwrap(), &[], &["--require-token"]);
    let without = Recorder::default()
        .serve(StreamableHttpClientTransport::from_uri(world.url("/mcp")))
        .await;
    assert!(without.is_err(), "no token, no session");
    let config =
        StreamableHttpClientTransportConfig::with_uri(world.url("/mcp")).auth_header(world.token());
    let client = Recorder::default()
        .serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("with the token, as a remote agent's config sends it");
    let call = start_call(
        &client,
        "ask_user",
        json!({"questions": [{"question": "Token?", "options": [{"label": "Yes"}]}]}),
    )
    .await;
    let id = pending(&world).await["id"].as_str().unwrap().to_string();
    let answered = world
        .http
        .post(world.url(&format!("/api/questions/{id}/answer")))
        .bearer_auth(world.token())
        .json(&json!({"answers": [{"selected": ["Yes"]}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(answered.status(), 200);
    let result = finish(call).await;
    assert_eq!(result.structured_content.unwrap()["status"], "answered");
}

/// The first question waiting, once one is. With the token, which this user needs only from a
/// daemon started with `--require-token`.
async fn pending(daemon: &Daemon) -> Value {
    for _ in 0..200 {
        let listed: Value = daemon
            .http
            .get(daemon.url("/api/questions?status=pending"))
            .bearer_auth(daemon.token())
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if let Some(question) = listed["questions"].get(0) {
            return question.clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no question arrived");
}

async fn read(daemon: &Daemon, id: &str) -> Value {
    daemon
        .get(&format!("/api/questions/{id}"))
        .await
        .json()
        .await
        .unwrap()
}
