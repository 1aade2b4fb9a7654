//! Installing the build and test tools when missing: the wasm target, wasm-opt (npm binaryen),
//! uglify-js, Playwright and Debian's Chromium.
//! Nothing is downloaded from outside the package registries.

use crate::{root, run_command};
use std::path::Path;
use std::process::Command;

fn has(program: &str, version_arg: &str) -> Option<String> {
    let output = Command::new(program).arg(version_arg).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// PATH with `end2end/node_modules/.bin` first, so the tests find their npm tools there.
pub fn path_with_npm_bin() -> std::ffi::OsString {
    path_with(&root().join("end2end/node_modules/.bin"))
}

/// PATH with `folder` first, joined as this OS joins it.
pub fn path_with(folder: &Path) -> std::ffi::OsString {
    let current = std::env::var_os("PATH").unwrap_or_default();
    let folders = std::iter::once(folder.to_path_buf()).chain(std::env::split_paths(&current));
    std::env::join_paths(folders).unwrap_or(current)
}

/// npm's command (a batch file on Windows, which `Command` does not look for by itself).
pub fn npm(program: &str) -> Command {
    if cfg!(windows) {
        Command::new(format!("{program}.cmd"))
    } else {
        Command::new(program)
    }
}

/// The wasm-bindgen version in Cargo.lock, which xtask's wasm-bindgen-cli-support must equal.
#[cfg(test)]
fn locked_wasm_bindgen() -> Result<String, String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|error| format!("cannot read Cargo.lock: {error}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\"" {
            let version = lines.next().unwrap_or_default();
            return version
                .strip_prefix("version = \"")
                .and_then(|rest| rest.strip_suffix('"'))
                .map(str::to_string)
                .ok_or_else(|| "Cargo.lock names wasm-bindgen without a version".into());
        }
    }
    Err("Cargo.lock has no wasm-bindgen".into())
}

/// The flags for the page's WebAssembly, beyond the `wasm-release` profile, unless
/// `HARK_WASM_PANIC_MESSAGES` is set (issue 30): the standard library rebuilt for size, a panic
/// that stops at once instead of formatting its message and place, and `Debug` formatting left
/// out. The first view's module weighs 248 KiB rather than 278 (brotli). These are unstable
/// flags of the pinned stable toolchain, unlocked for this one build by `RUSTC_BOOTSTRAP`, as
/// Leptos' guide to small binaries does with nightly; the server is built without them. The
/// page shows no `Debug` text, so the only loss is a panic's message in the browser's console,
/// which `HARK_WASM_PANIC_MESSAGES=1` brings back.
///
/// # Errors
/// When the standard library's source (rustup's `rust-src`) cannot be installed.
pub fn small_wasm(command: &mut Command) -> Result<(), String> {
    let small = std::env::var_os("HARK_WASM_PANIC_MESSAGES").is_none();
    if small {
        ensure_from_rustup("component", &["rust-src"])?;
        command
            .env("RUSTC_BOOTSTRAP", "1")
            .env("CARGO_UNSTABLE_BUILD_STD", "std,panic_abort")
            .env("CARGO_UNSTABLE_BUILD_STD_FEATURES", "optimize_for_size");
    }
    command.env(
        "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS",
        wasm_rustflags(small),
    );
    Ok(())
}

/// The WebAssembly's rustflags. They replace `[build] rustflags` (.cargo/config.toml) for that
/// target, so they repeat its cfg. The linker keeps the relocations, which wasm-split reads to
/// cut the module along its lazy functions (last, as cargo-leptos put it: a change of order would
/// rebuild the standard library).
fn wasm_rustflags(small: bool) -> String {
    let mut flags = String::from("--cfg erase_components");
    if small {
        flags.push_str(
            " -Zunstable-options -Cpanic=immediate-abort -Zfmt-debug=none -Zlocation-detail=none",
        );
    }
    flags.push_str(" -Clink-args=--emit-relocs");
    flags
}

/// What building the site needs beyond xtask's own crates: the wasm target, and `end2end`'s npm
/// packages (binaryen's wasm-opt, uglify-js).
pub fn ensure_site_tools() -> Result<(), String> {
    ensure_rust_targets(&["wasm32-unknown-unknown"])?;
    ensure_npm_packages()
}

/// `npm ci` in end2end when its packages (binaryen's wasm-opt, Playwright) are missing.
fn ensure_npm_packages() -> Result<(), String> {
    ensure_npm_folder(&root().join("end2end"))
}

/// `npm ci` in `folder` when its packages are missing or older than its lock file.
pub fn ensure_npm_folder(folder: &Path) -> Result<(), String> {
    let folder = folder.to_path_buf();
    let modified = |path: &str| {
        std::fs::metadata(folder.join(path))
            .and_then(|meta| meta.modified())
            .ok()
    };
    // npm records what it installed in node_modules/.package-lock.json; an older record than
    // the project's lock file means packages were added or changed since.
    let installed = modified("node_modules/.package-lock.json");
    let ready = installed.is_some() && installed >= modified("package-lock.json");
    if !ready {
        run_command(
            npm("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&folder),
        )?;
    }
    Ok(())
}

/// The Windows target the daemon is compiled for on every test run.
pub const WINDOWS: &str = "x86_64-pc-windows-gnu";

/// Rust's Windows target and Debian's MinGW-w64, which compiles the C inside the dependencies
/// (SQLite, ring) for it.
pub fn ensure_windows_target() -> Result<(), String> {
    ensure_rust_targets(&[WINDOWS])?;
    if has("x86_64-w64-mingw32-gcc", "--version").is_none() {
        apt_install(&["gcc-mingw-w64-x86-64"])?;
    }
    Ok(())
}

/// Debian's wine, which runs the Windows build here (64-bit only: Hark has no 32-bit build).
pub fn ensure_wine() -> Result<(), String> {
    if has("wine", "--version").is_none() {
        apt_install(&["wine", "wine64"])?;
    }
    Ok(())
}

/// The Linux ARM target the daemon is built and run for on every test run.
pub const ARM_LINUX: &str = "aarch64-unknown-linux-gnu";

/// Rust's Linux ARM target, Debian's cross C compiler and ARM C library to build and link for
/// it, and qemu-user to run the result. Returns the environment a cross build needs.
pub fn ensure_arm_linux() -> Result<Vec<(String, String)>, String> {
    ensure_rust_targets(&[ARM_LINUX])?;
    let mut missing = Vec::new();
    if has("aarch64-linux-gnu-gcc", "--version").is_none() {
        missing.push("gcc-aarch64-linux-gnu");
    }
    if !Path::new("/usr/aarch64-linux-gnu/lib/crti.o").exists() {
        missing.push("libc6-dev-arm64-cross");
    }
    if has("qemu-aarch64-static", "--version").is_none() {
        missing.push("qemu-user-static");
    }
    if !missing.is_empty() {
        apt_install(&missing)?;
    }
    Ok(vec![
        (
            "CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER".into(),
            "aarch64-linux-gnu-gcc".into(),
        ),
        (
            "CC_aarch64_unknown_linux_gnu".into(),
            "aarch64-linux-gnu-gcc".into(),
        ),
        (
            "AR_aarch64_unknown_linux_gnu".into(),
            "aarch64-linux-gnu-ar".into(),
        ),
    ])
}

/// Adds the Rust targets (their standard libraries, from rustup's server) not installed yet.
fn ensure_rust_targets(wanted: &[&str]) -> Result<(), String> {
    ensure_from_rustup("target", wanted)
}

/// Adds what of `wanted` rustup has not installed yet, of `kind` (`target` or `component`).
fn ensure_from_rustup(kind: &str, wanted: &[&str]) -> Result<(), String> {
    let installed = Command::new("rustup")
        .args([kind, "list", "--installed"])
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
        .unwrap_or_default();
    for name in wanted {
        if !installed.lines().any(|line| line.trim() == *name) {
            run_command(Command::new("rustup").args([kind, "add", name]))?;
        }
    }
    Ok(())
}

/// The macOS target the daemon is checked for (not linked: linking needs Apple's SDK, which only
/// a Mac has; the release workflow builds both Macs' there).
pub const MACOS_CHECKED: &str = "aarch64-apple-darwin";

/// What checking for macOS takes here: Rust's targets, `cargo-zigbuild`, and zig from PyPI
/// (`ziglang`), whose C compiler brings macOS's libc headers for the C in the dependencies.
/// Returns PATH with zig on it.
pub fn ensure_macos_check() -> Result<std::ffi::OsString, String> {
    ensure_rust_targets(&[MACOS_CHECKED])?;
    let zig_folder = || {
        Command::new("python3")
            .args([
                "-c",
                "import ziglang, os; print(os.path.dirname(ziglang.__file__))",
            ])
            .output()
            .ok()
            .filter(|output| output.status.success())
            .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string())
    };
    if zig_folder().is_none() {
        run_command(Command::new("python3").args(["-m", "pip", "install", "ziglang"]))?;
    }
    let zig = zig_folder().ok_or("PyPI's ziglang installed, but Python cannot find it")?;
    if has("cargo-zigbuild", "--version").is_none() {
        run_command(Command::new("cargo").args(["install", "--locked", "cargo-zigbuild"]))?;
    }
    Ok(path_with(Path::new(&zig)))
}

/// Debian's packages the tests run: Chromium for the browser tests (never a browser downloaded
/// by Playwright), and for the crowd tests, which build network namespaces of their own,
/// `unshare` and `prlimit` (util-linux) and `ip` (iproute2); for the other-account tests
/// `setpriv`, `curl` and Debian's `python3`.
pub fn ensure_test_packages() -> Result<(), String> {
    let wanted = [
        ("/usr/bin/chromium", "chromium"),
        ("/usr/bin/unshare", "util-linux"),
        ("/usr/bin/prlimit", "util-linux"),
        ("/usr/sbin/ip", "iproute2"),
        // The other-account tests: curl run as `nobody` (setpriv, util-linux), and a server
        // in Debian's Python, which every account may run.
        ("/usr/bin/setpriv", "util-linux"),
        ("/usr/bin/curl", "curl"),
        ("/usr/bin/python3", "python3"),
        // A private session bus for the desktop notification's click.
        ("/usr/bin/dbus-daemon", "dbus-daemon"),
        ("/usr/share/dbus-1/session.conf", "dbus-session-bus-common"),
    ];
    let mut missing: Vec<&str> = wanted
        .iter()
        .filter(|(file, _)| {
            !Path::new(file).exists() && !Path::new(&file.replace("/usr", "")).exists()
        })
        .map(|(_, package)| *package)
        .collect();
    missing.dedup();
    if missing.is_empty() {
        return Ok(());
    }
    apt_install(&missing)
}

/// Installs Debian's `packages`.
fn apt_install(packages: &[&str]) -> Result<(), String> {
    eprintln!("Installing Debian's {}…", packages.join(", "));
    run_command(Command::new("apt-get").arg("update"))?;
    run_command(
        Command::new("apt-get")
            .args(["install", "-y", "--no-install-recommends"])
            .args(packages)
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_wasm_flags_keep_every_cfg_of_the_build_flags_they_replace() {
        let config = std::fs::read_to_string(crate::root().join(".cargo/config.toml")).unwrap();
        let build_flags = config
            .lines()
            .find_map(|line| line.strip_prefix("rustflags = "))
            .expect(".cargo/config.toml sets [build] rustflags");
        let cfgs: Vec<&str> = build_flags
            .split('"')
            .filter(|part| {
                part.chars().all(|c| c.is_alphanumeric() || c == '_') && !part.is_empty()
            })
            .collect();
        assert!(!cfgs.is_empty(), "no cfg found in {build_flags}");
        for small in [true, false] {
            let flags = super::wasm_rustflags(small);
            for cfg in &cfgs {
                assert!(
                    flags.contains(&format!("--cfg {cfg}")),
                    "{flags} lacks --cfg {cfg}"
                );
            }
        }
        assert!(super::wasm_rustflags(true).contains("immediate-abort"));
        assert!(!super::wasm_rustflags(false).contains("-Z"));
        assert!(super::wasm_rustflags(false).ends_with("--emit-relocs"));
    }

    #[test]
    fn the_bindings_library_is_the_locked_wasm_bindgen() {
        let manifest = std::fs::read_to_string(crate::root().join("Cargo.toml")).unwrap();
        let locked = super::locked_wasm_bindgen().unwrap();
        for crate_name in ["wasm-bindgen", "wasm-bindgen-cli-support"] {
            assert!(
                manifest.contains(&format!("{crate_name} = {{ version = \"={locked}\" }}")),
                "Cargo.toml must pin {crate_name} to exactly {locked}: the site's bindings are \
                 written by the library of the version the page compiles against"
            );
        }
    }
}
