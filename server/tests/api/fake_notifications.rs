//! A desktop's notification service for the tests: a private D-Bus session bus (Debian's
//! `dbus-daemon`) with a server of `org.freedesktop.Notifications` on it that records what it
//! is asked to show and can "click" a notification (the `ActionInvoked` signal), as GNOME's or
//! KDE's would when the person clicks it.

use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::sync::mpsc;
use zbus::OwnedVariant;

const PATH: &str = "/org/freedesktop/Notifications";
const INTERFACE: &str = "org.freedesktop.Notifications";

/// One notification as the service received it.
#[derive(Debug)]
pub struct Shown {
    pub id: u32,
    pub summary: String,
    pub body: String,
    pub actions: Vec<String>,
}

/// The bus and the service on it; the bus stops when this is dropped.
pub struct Desktop {
    bus: Child,
    _dir: tempfile::TempDir,
    pub address: String,
    connection: zbus::Connection,
    shown: mpsc::UnboundedReceiver<Shown>,
}

struct Service {
    next_id: u32,
    shown: mpsc::UnboundedSender<Shown>,
}

#[zbus::interface(name = "org.freedesktop.Notifications")]
impl Service {
    #[allow(clippy::too_many_arguments)]
    fn notify(
        &mut self,
        _app_name: &str,
        _replaces_id: u32,
        _app_icon: &str,
        summary: &str,
        body: &str,
        actions: Vec<String>,
        _hints: HashMap<String, OwnedVariant>,
        _expire_timeout: i32,
    ) -> u32 {
        self.next_id += 1;
        let _ = self.shown.send(Shown {
            id: self.next_id,
            summary: summary.to_string(),
            body: body.to_string(),
            actions,
        });
        self.next_id
    }

    fn get_capabilities(&self) -> Vec<String> {
        vec!["actions".into(), "body".into()]
    }

    fn get_server_information(&self) -> (String, String, String, String) {
        ("hark-test".into(), "hark".into(), "1".into(), "1.2".into())
    }

    fn close_notification(&self, _id: u32) {}
}

impl Desktop {
    /// Starts a session bus in a temporary folder and the notification service on it.
    pub async fn start() -> Desktop {
        let dir = tempfile::tempdir().unwrap();
        let address = format!("unix:path={}", dir.path().join("bus").display());
        let bus = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--nopidfile"])
            .arg(format!("--address={address}"))
            .stdout(Stdio::null())
            .spawn()
            .expect("Debian's dbus-daemon (cargo xtask test installs it)");
        let (sender, shown) = mpsc::unbounded_channel();
        let service = Service {
            next_id: 0,
            shown: sender,
        };
        for _ in 0..100 {
            if dir.path().join("bus").exists() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let connection = zbus::connection::Builder::address(address.as_str())
            .name(INTERFACE)
            .serve_at(PATH, service)
            .build()
            .await
            .expect("the notification service takes its name on the session bus");
        Desktop {
            bus,
            _dir: dir,
            connection,
            address,
            shown,
        }
    }

    /// The next notification shown, within ten seconds.
    pub async fn next_shown(&mut self) -> Option<Shown> {
        tokio::time::timeout(Duration::from_secs(10), self.shown.recv())
            .await
            .ok()
            .flatten()
    }

    /// The person clicks notification `id`.
    pub async fn click(&self, id: u32) {
        self.connection
            .emit_signal(
                None::<&str>,
                PATH,
                INTERFACE,
                "ActionInvoked",
                &(id, "default"),
            )
            .await
            .unwrap();
    }
}

impl Drop for Desktop {
    fn drop(&mut self) {
        let _ = self.bus.kill();
        let _ = self.bus.wait();
    }
}
