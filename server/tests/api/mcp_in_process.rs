//! The shim's tools in process: `HarkMcp` served over `tokio::io::duplex` to an rmcp client, for
//! what needs no daemon (its identity, the tools' schemas, arguments refused naming their
//! field). The end-to-end tests (`mcp.rs`) spawn the real binary.

use crate::api::world::{Recorder, Shim, finish, start_call, text_of};
use hark::client::connection::Connection;
use hark::mcp::deadlines::{HandOff, MaxWait};
use hark::mcp::server::HarkMcp;
use rmcp::ServiceExt;
use serde_json::{Value, json};

/// A client of a shim whose daemon is nowhere: what these tests check never reaches one.
async fn shim() -> Shim {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let server = HarkMcp::new(
        Connection::remote("http://127.0.0.1:9".into(), None),
        HandOff {
            max_wait: MaxWait::Off,
            ..HandOff::default()
        },
    );
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    Recorder::default()
        .serve(client_end)
        .await
        .expect("handshake")
}

#[tokio::test]
async fn identity_instructions_and_tools() {
    let shim = shim().await;
    let info = shim.peer_info().expect("server info");
    let server = info.server_info.clone().expect("server identity");
    assert_eq!(server.name, "hark");
    assert_eq!(server.version, env!("CARGO_PKG_VERSION"));
    assert!(
        info.instructions
            .as_deref()
            .unwrap_or("")
            .contains("ask_user")
    );
    let tools = shim.list_all_tools().await.unwrap();
    let names: Vec<_> = tools.iter().map(|tool| tool.name.to_string()).collect();
    assert_eq!(names, ["ask_user", "get_answer"]);
    let ask = &tools[0];
    let schema = serde_json::to_value(&*ask.input_schema).unwrap();
    assert_eq!(schema["properties"]["questions"]["maxItems"], 4);
    assert_eq!(schema["properties"]["questions"]["minItems"], 1);
    assert!(
        schema["properties"].get("id").is_none(),
        "the shim fills id itself"
    );
    assert!(
        schema["properties"].get("source").is_none(),
        "the shim fills source itself"
    );
    // Self-contained: several clients cannot follow references.
    for tool in &tools {
        let text = serde_json::to_string(&*tool.input_schema).unwrap();
        assert!(
            !text.contains("$ref") && !text.contains("$defs"),
            "{}: {text}",
            tool.name
        );
    }
    let option =
        &schema["properties"]["questions"]["items"]["properties"]["options"]["items"]["properties"];
    for key in ["label", "description", "recommended", "danger"] {
        assert!(option.get(key).is_some(), "option.{key} in the schema");
    }
    assert_eq!(
        tools[1].input_schema["properties"]["id"]["format"], "uuid",
        "get_answer's id"
    );
    let output = serde_json::to_value(ask.output_schema.as_deref().unwrap()).unwrap();
    assert!(output["properties"].get("status").is_some());
    shim.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_arguments_are_tool_errors_naming_the_field() {
    let shim = shim().await;
    let many: Vec<Value> = (0..5)
        .map(|i| json!({"question": format!("q{i}")}))
        .collect();
    let options: Vec<Value> = (0..27).map(|i| json!({"label": format!("o{i}")})).collect();
    let cases = [
        (json!({"questions": []}), "questions"),
        (json!({"questions": many}), "questions"),
        (json!({}), "questions"),
        (
            json!({"questions": [{"question": "q", "options": [{"label": ""}]}]}),
            "questions[0].options[0].label",
        ),
        (
            json!({"questions": [{"question": "q", "options": [{"label": "A"}, {"label": "A"}]}]}),
            "questions[0].options[1].label",
        ),
        (
            json!({"questions": [{"question": "q", "options": options}]}),
            "questions[0].options",
        ),
        (
            json!({"questions": [{"question": "q", "options": [{"label": "x".repeat(201)}]}]}),
            "questions[0].options[0].label",
        ),
        (
            json!({"questions": [{"question": ""}]}),
            "questions[0].question",
        ),
        (
            json!({"questions": [{"question": "q", "multiSelect": "yes"}]}),
            "questions[0].multiSelect",
        ),
        (
            json!({"questions": [{"question": "q"}], "title": "t".repeat(20_001)}),
            "title",
        ),
    ];
    for (args, field) in cases {
        let result = finish(start_call(&shim, "ask_user", args.clone()).await).await;
        assert_eq!(result.is_error, Some(true), "{args}");
        let text = text_of(&result);
        assert!(text.contains(field), "{field} named in {text:?}");
    }
    // A malformed id or wait is the model's mistake: a tool error naming the field, not a
    // protocol error.
    for (args, field) in [
        (json!({"id": "not-a-uuid"}), "id"),
        (json!({}), "id"),
        (
            json!({"id": "00000000-0000-4000-8000-000000000000", "waitSecs": "soon"}),
            "waitSecs",
        ),
    ] {
        let result = finish(start_call(&shim, "get_answer", args.clone()).await).await;
        assert_eq!(result.is_error, Some(true), "{args}");
        let text = text_of(&result);
        assert!(
            text.starts_with(&format!("{field}:")),
            "{field} named in {text:?}"
        );
    }
    shim.cancel().await.unwrap();
}
