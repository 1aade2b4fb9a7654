//! Another account on the same machine (SPEC §16): its connections come from loopback too, but
//! their sockets are not the daemon's user's, so it needs the token like any stranger. The test
//! runs curl as `nobody` (setpriv) against a daemon run by this user.

use crate::api::support::*;

/// `curl` as uid and gid 65534, answering the status code it got.
fn curl_as_nobody(args: &[&str]) -> String {
    let output = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "curl"])
        .args([
            "-s",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
            "--max-time",
            "10",
        ])
        .args(args)
        .output()
        .expect("setpriv and curl run");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[tokio::test]
async fn another_account_needs_the_token_to_read_or_answer() {
    // Only root can take another uid; elsewhere this cannot be tried.
    if !std::fs::metadata("/proc/self").is_ok_and(|me| {
        use std::os::unix::fs::MetadataExt;
        me.uid() == 0
    }) {
        eprintln!("skipped: taking another uid needs root");
        return;
    }
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    let list = daemon.url("/api/questions");
    let answer = daemon.url(&format!("/api/questions/{id}/answer"));
    let picked = r#"{"answers":[{"selected":["Yes"]}]}"#;
    assert_eq!(
        curl_as_nobody(&[&list]),
        "401",
        "another account cannot read"
    );
    assert_eq!(
        curl_as_nobody(&[
            "-X",
            "POST",
            "-H",
            "content-type: application/json",
            "-d",
            picked,
            &answer
        ]),
        "401",
        "nor answer"
    );
    assert_eq!(
        curl_as_nobody(&[&daemon.url("/")]),
        "401",
        "nor open the page"
    );
    assert_eq!(
        daemon
            .get(&format!("/api/questions/{id}"))
            .await
            .json::<serde_json::Value>()
            .await
            .unwrap()["status"],
        "pending"
    );
    // This user, on the same loopback, needs nothing.
    assert_eq!(daemon.get("/api/questions").await.status(), 200);
    // A guess is refused (and makes the daemon settle its token); with the token, which only
    // this user can read, the other account gets in.
    assert_eq!(
        curl_as_nobody(&["-H", "authorization: Bearer a-guess", &list]),
        "401"
    );
    let token = std::fs::read_to_string(daemon.home.path().join("token")).unwrap();
    let bearer = format!("authorization: Bearer {}", token.trim());
    assert_eq!(curl_as_nobody(&["-H", &bearer, &list]), "200");
}
