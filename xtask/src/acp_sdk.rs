//! The Agent Client Protocol's own Rust SDK as the editor in front of `hark acp`: the SDK's
//! example client `yolo_one_shot_client` (agent-client-protocol 5.2.0 from the crates registry,
//! built under `target/acp-sdk`; nobody here wrote it), which approves a permission request at
//! once, runs one prompt through `hark acp -- python3 server/tests/api/acp_agent.py` against a
//! daemon of its own: the handshake, the session, the tool call and the permission must pass
//! through and the turn end. (How the first answer wins is `server/tests/api/acp.rs`: this
//! client answers at once and ends, so its run says nothing of Hark's side.)

use crate::{cargo, root, run_command, smoke};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The SDK, pinned.
const SDK: &str = "agent-client-protocol";
const VERSION: &str = "5.2.0";

/// The SDK's source, copied out of the registry (its own lock names a version the registry no
/// longer has, so it resolves afresh here, once).
fn source() -> Result<PathBuf, String> {
    let base = root().join("target/acp-sdk");
    let copy = base.join(format!("{SDK}-{VERSION}"));
    let ready = copy.join(".copied");
    if ready.exists() {
        return Ok(copy);
    }
    let _ = std::fs::remove_dir_all(&copy);
    let fetch = base.join("fetch");
    std::fs::create_dir_all(fetch.join("src")).map_err(|error| error.to_string())?;
    std::fs::write(
        fetch.join("Cargo.toml"),
        format!(
            "[package]\nname = \"acp-sdk-fetch\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             publish = false\n\n[dependencies]\n{SDK} = {{ version = \"={VERSION}\", \
             default-features = false }}\n\n[workspace]\n"
        ),
    )
    .map_err(|error| error.to_string())?;
    std::fs::write(fetch.join("src/main.rs"), "fn main() {}\n")
        .map_err(|error| error.to_string())?;
    let metadata = cargo(&["metadata", "--format-version", "1", "--manifest-path"])
        .arg(fetch.join("Cargo.toml"))
        .output()
        .map_err(|error| format!("cargo metadata: {error}"))?;
    let metadata: serde_json::Value = serde_json::from_slice(&metadata.stdout)
        .map_err(|error| format!("cargo metadata: {error}"))?;
    let manifest = (metadata["packages"].as_array().into_iter().flatten())
        .find(|package| package["name"] == SDK)
        .and_then(|package| package["manifest_path"].as_str())
        .ok_or_else(|| format!("{SDK} {VERSION} is not in the registry"))?;
    let crate_dir = Path::new(manifest)
        .parent()
        .ok_or("the SDK has no folder")?;
    copy_dir(crate_dir, &copy)?;
    let _ = std::fs::remove_file(copy.join("Cargo.lock"));
    // A workspace of its own, not a stray member of Hark's (it sits under Hark's folder).
    let manifest = copy.join("Cargo.toml");
    let mut text = std::fs::read_to_string(&manifest).map_err(|error| error.to_string())?;
    text.push_str("\n[workspace]\n");
    std::fs::write(&manifest, text).map_err(|error| error.to_string())?;
    std::fs::write(&ready, "").map_err(|error| error.to_string())?;
    Ok(copy)
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|error| format!("{}: {error}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|error| format!("{}: {error}", from.display()))? {
        let entry = entry.map_err(|error| error.to_string())?;
        let target = to.join(entry.file_name());
        if entry
            .file_type()
            .map_err(|error| error.to_string())?
            .is_dir()
        {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)
                .map_err(|error| format!("{}: {error}", target.display()))?;
        }
    }
    Ok(())
}

/// Builds the SDK's client, starts the debug daemon the tests built, and runs one prompt.
pub fn run() -> Result<(), String> {
    let source = source()?;
    let target = root().join("target/acp-sdk/target");
    run_command(
        cargo(&[
            "build",
            "--example",
            "yolo_one_shot_client",
            "--features",
            "process",
        ])
        .arg("--manifest-path")
        .arg(source.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target),
    )
    .map_err(|error| format!("the ACP SDK's client: {error}"))?;
    let client = target.join("debug/examples/yolo_one_shot_client");
    let home = root().join("target/acp-sdk/home");
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).map_err(|error| format!("{}: {error}", home.display()))?;
    let port = smoke::free_port()?.to_string();
    let hark = root().join("target/debug/hark");
    let mut daemon = Command::new(&hark)
        .args(["serve", "--port", &port])
        .env("HARK_HOME", &home)
        .env("HARK_LOG", "warn")
        .env("BROWSER", "true")
        .stdout(Stdio::null())
        .spawn()
        .map_err(|error| format!("cannot start the daemon: {error}"))?;
    let result = (|| {
        smoke::wait_for_health(port.parse().map_err(|_| "no port")?)?;
        let agent = root().join("server/tests/api/acp_agent.py");
        let command = format!("{} acp -- python3 {}", hark.display(), agent.display());
        let output = Command::new(&client)
            .args(["--command", &command, "test it"])
            .env("HARK_HOME", &home)
            .env("HARK_PORT", &port)
            .output()
            .map_err(|error| format!("the ACP SDK's client: {error}"))?;
        let (said, logged) = (
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        if !output.status.success() || !logged.contains("Stop reason: EndTurn") {
            return Err(format!(
                "the ACP SDK's client did not end its turn:\n{logged}"
            ));
        }
        if !said.contains("call_0") {
            return Err(format!(
                "the agent's tool call did not reach the client:\n{said}"
            ));
        }
        Ok(())
    })();
    let _ = daemon.kill();
    let _ = daemon.wait();
    result
}
