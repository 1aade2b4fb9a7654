//! A private npm registry on 127.0.0.1 for the tests: verdaccio (from npm, pinned in
//! `end2end/package.json`) with no uplink, so what installs from it is only what was published
//! to it. Hark's npm packages are published there and run with `npx`, as a person runs them.

use crate::tools;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The registry, stopped when dropped.
pub struct Registry {
    child: Child,
    pub url: String,
    /// npm's user config pointing at the registry, with a publishing token.
    pub npmrc: PathBuf,
}

impl Registry {
    /// Starts verdaccio with its storage in `folder` and signs a user up to publish.
    pub fn start(folder: &Path) -> Result<Registry, String> {
        std::fs::create_dir_all(folder)
            .map_err(|error| format!("{}: {error}", folder.display()))?;
        let port = crate::smoke::free_port()?;
        let url = format!("http://127.0.0.1:{port}/");
        let config = folder.join("config.yaml");
        std::fs::write(
            &config,
            format!(
                "storage: {storage}\n\
                 auth:\n  htpasswd:\n    file: {htpasswd}\n    max_users: 10\n\
                 uplinks: {{}}\n\
                 packages:\n  '**':\n    access: $all\n    publish: $authenticated\n\
                 log: {{ type: stdout, format: pretty, level: warn }}\n\
                 max_body_size: 1gb\n",
                storage = folder.join("storage").display(),
                htpasswd = folder.join("htpasswd").display(),
            ),
        )
        .map_err(|error| format!("{}: {error}", config.display()))?;
        let log = std::fs::File::create(folder.join("verdaccio.log"))
            .map_err(|error| format!("verdaccio's log: {error}"))?;
        let child = tools::npm("verdaccio")
            .arg("--config")
            .arg(&config)
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .env("PATH", tools::path_with_npm_bin())
            .stdout(log.try_clone().map_err(|error| error.to_string())?)
            .stderr(log)
            .spawn()
            .map_err(|error| format!("cannot start verdaccio: {error}"))?;
        let mut registry = Registry {
            child,
            npmrc: folder.join("npmrc"),
            url,
        };
        registry.wait_until_up()?;
        let token = registry.sign_up()?;
        let host = registry.url.trim_start_matches("http:");
        std::fs::write(
            &registry.npmrc,
            format!("registry={}\n{host}:_authToken={token}\n", registry.url),
        )
        .map_err(|error| format!("{}: {error}", registry.npmrc.display()))?;
        Ok(registry)
    }

    fn wait_until_up(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().map_err(|error| error.to_string())? {
                return Err(format!("verdaccio ended at start ({status})"));
            }
            let ping = Command::new("curl")
                .args(["-sf", "--max-time", "2"])
                .arg(format!("{}-/ping", self.url))
                .output();
            if ping.is_ok_and(|output| output.status.success()) {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        Err("verdaccio did not come up within a minute".into())
    }

    /// Adds a user through the registry's CouchDB-style login, as `npm adduser` does; returns
    /// its token.
    fn sign_up(&self) -> Result<String, String> {
        let output = Command::new("curl")
            .args(["-sS", "--fail-with-body", "-X", "PUT"])
            .args(["-H", "content-type: application/json"])
            .args([
                "--data",
                r#"{"name":"hark-ci","password":"only-for-this-registry"}"#,
            ])
            .arg(format!("{}-/user/org.couchdb.user:hark-ci", self.url))
            .output()
            .map_err(|error| format!("cannot run curl: {error}"))?;
        let body = String::from_utf8_lossy(&output.stdout).into_owned();
        let reply: serde_json::Value = serde_json::from_str(&body)
            .map_err(|_| format!("verdaccio refused the sign-up: {body}"))?;
        reply["token"]
            .as_str()
            .map(str::to_string)
            .ok_or(format!("verdaccio gave no token: {body}"))
    }

    /// Publishes the package `tarball` (what `npm pack` made).
    pub fn publish(&self, tarball: &Path) -> Result<(), String> {
        crate::run_command(
            tools::npm("npm")
                .arg("publish")
                .arg(tarball)
                .env("npm_config_userconfig", &self.npmrc)
                .stdout(Stdio::null()),
        )
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
