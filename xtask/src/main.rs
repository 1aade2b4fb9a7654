//! `cargo xtask build | run | test | smoke | bench | weigh`: builds Hark's one binary, runs it, tests
//! everything (the builds for other platforms too, run under their emulators), and measures it.
//! Installs the tools each step needs when they are missing, from the package registries only
//! (docs/development.md says which and why).

mod acp_sdk;
mod bench;
mod budget;
mod conformance;
mod dist;
mod lines;
mod python_sdk;
mod registry;
mod site;
mod smoke;
mod tools;
mod weigh;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const USAGE: &str = "usage: cargo xtask <build | site [--names] | run [hark serve args…] | test | smoke | dist [--target T] | bench | soak | weigh [MODULE] | lines [FOLDER] | acp>

  build   build the site (installing the wasm target and npm packages when missing), then
          target/release/hark, which embeds it
  site [--names]  build the site alone (target/site), which a release build of the server
          embeds and a debug one reads as it serves; with --names its WebAssembly keeps its
          functions' names (to profile the page)
  run     build, then start the daemon in the foreground (default http://127.0.0.1:13390)
  test    fmt check, clippy (Linux, Windows, macOS), unit, integration and browser
          tests, the MCP conformance suite on /mcp, the MCP Python SDK and the ACP Rust SDK
          as clients, then the smoke runs (installs what they need)
  smoke   run the npm packages from a local registry with npx, and the builds for Windows and
          Linux on ARM under wine and qemu-user; with --binary PATH, run that binary here
  dist    build the release binary for a target (default: this machine's) and pack it in
          target/dist: the archive, its .sha256, and the npm packages
  bench   build, then print sizes, memory and latency figures (never fails on a number)
  weigh [MODULE]  the page's WebAssembly modules, and one by crate: the first view's (`hark`),
          or the module whose name starts with MODULE (builds the site twice)
  soak    build, then 500 calls in flight from 50 shims and 10,000 through the API: fails on
          any lost or misrouted answer, prints memory before and after
  lines   the lines of non-test Rust code under a folder (default server/src/channels)
  acp     the ACP Rust SDK's example client in front of `hark acp` (part of test; needs the
          debug binary the tests build)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("build") => build(),
        Some("run") => build().and_then(|()| run(&args[1..])),
        Some("test") => test(),
        Some("smoke") => smoke(&args[1..]),
        Some("dist") => dist::run(&args[1..]),
        Some("bench") => build().and_then(|()| bench::run(&root())),
        Some("soak") => build().and_then(|()| bench::soak(&root())),
        Some("weigh") => weigh(args.get(1).map_or("hark", String::as_str)),
        Some("site") if args.get(1).is_some_and(|arg| arg == "--names") => site::build(true),
        Some("site") => build_site(Half::SiteOnly),
        Some("lines") => lines::run(&args[1..]),
        Some("acp") => acp_sdk::run(),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("xtask: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Runs a command (in the workspace root unless it names a directory), echoing it, and fails when it fails.
pub fn run_command(command: &mut Command) -> Result<(), String> {
    if command.get_current_dir().is_none() {
        command.current_dir(root());
    }
    eprintln!("\n$ {}", describe(command));
    let status = command
        .status()
        .map_err(|error| format!("cannot start {}: {error}", describe(command)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} failed ({status})", describe(command)))
    }
}

fn describe(command: &Command) -> String {
    let mut text = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        text.push(' ');
        text.push_str(&arg.to_string_lossy());
    }
    text
}

/// A `cargo` command with `end2end`'s npm tools first on PATH.
pub fn cargo(args: &[&str]) -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command.args(args).env("PATH", tools::path_with_npm_bin());
    command
}

fn build() -> Result<(), String> {
    build_site(Half::Both)?;
    let binary = root().join("target/release/hark");
    if !binary.exists() {
        return Err("the build finished but target/release/hark is missing".into());
    }
    eprintln!("\nBuilt {}", binary.display());
    Ok(())
}

/// What a build makes: the site and the release server that embeds it, or the site alone.
#[derive(Clone, Copy, PartialEq)]
enum Half {
    Both,
    SiteOnly,
}

fn build_site(half: Half) -> Result<(), String> {
    site::build(false)?;
    // The server on its own, without the site's unstable flags: it embeds the finished site.
    if half == Half::Both {
        run_command(&mut cargo(&["build", "--release", "--package", "hark"]))?;
    }
    Ok(())
}

/// `cargo xtask weigh [MODULE]`: the site built once with the functions' names kept through
/// wasm-opt, to weigh one module by crate (the first view's, or the first whose name starts with
/// `module`), then again as it ships, to weigh the modules as served.
fn weigh(module: &str) -> Result<(), String> {
    let folder = root().join("target/weigh");
    std::fs::create_dir_all(&folder).map_err(|error| format!("{}: {error}", folder.display()))?;
    site::build(true)?;
    let pkg = root().join("target/site/pkg");
    let built = std::fs::read_dir(&pkg)
        .map_err(|error| format!("{}: {error}", pkg.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "wasm")
        })
        .filter(|path| {
            path.file_stem()
                .is_some_and(|stem| stem.to_string_lossy().starts_with(module))
        })
        .min()
        .ok_or_else(|| format!("no module in {} starts with {module:?}", pkg.display()))?;
    let named = folder.join(format!("{module}-named.wasm"));
    std::fs::copy(&built, &named).map_err(|error| format!("{}: {error}", built.display()))?;
    build_site(Half::SiteOnly)?;
    weigh::run(&root(), &named)
}

fn run(serve_args: &[String]) -> Result<(), String> {
    run_command(
        Command::new(root().join("target/release/hark"))
            .arg("serve")
            .args(serve_args),
    )
}

/// The server's packages, built together with the features they ship with; every build of
/// them takes these same arguments, so none rebuilds what another built.
const SERVER_SIDE: [&str; 12] = [
    "-p",
    "hark-core",
    "-p",
    "hark-text",
    "-p",
    "app",
    "-p",
    "hark",
    "-p",
    "xtask",
    "--features",
    "app/ssr",
];

/// `command` (a cargo build) linted as it compiles: clippy as the compiler of the workspace's own
/// crates, denying every warning, as `cargo clippy -- -D warnings` would, but in the same
/// compilation that builds them (`cargo clippy` checks every dependency again first). Cargo
/// hands clippy its arguments this way itself (`CLIPPY_ARGS`, split at `__CLIPPY_HACKERY__`).
/// The build's code is the same but for clippy's own settings (no MIR optimisation), which only
/// the tests' debug builds get.
fn linted(command: &mut Command) -> &mut Command {
    command.env("RUSTC_WORKSPACE_WRAPPER", "clippy-driver").env(
        "CLIPPY_ARGS",
        "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__",
    )
}

/// The packages whose unit tests the Windows build lints and runs (under wine here, natively
/// in the release workflow).
const UNIT_TESTED: [&str; 6] = ["-p", "hark-core", "-p", "hark-text", "-p", "hark"];

fn test() -> Result<(), String> {
    tools::ensure_site_tools()?;
    tools::ensure_test_packages()?;
    run_command(&mut cargo(&["fmt", "--all", "--check"]))?;
    // The page's WebAssembly is linted apart, as `--workspace` would unify `ssr` with
    // `hydrate`. The server's packages and the Windows build are linted as they are built for
    // the tests (`linted`), not in a check of their own first: CI spent 12 of its minutes
    // checking every dependency again for that.
    let deny = ["--", "-D", "warnings"];
    for args in [
        // As the page's WebAssembly takes it.
        &["clippy", "-p", "hark-text", "--no-default-features"][..],
        &[
            "clippy",
            "-p",
            "frontend",
            "--target",
            "wasm32-unknown-unknown",
        ],
    ] {
        run_command(&mut cargo(&[args, &deny].concat()))?;
    }
    // macOS is compiled (and linted) on every run, so nothing it lacks slips in unguarded
    // (Windows is, in `smoke_other_platforms`). On Apple silicon: the Intel build differs from
    // it in no line of Hark's (nothing is `cfg(target_arch)`), and the release workflow builds
    // both.
    let path = tools::ensure_macos_check()?;
    run_command(
        Command::new("cargo-zigbuild")
            .args(["clippy", "-p", "hark", "--target", tools::MACOS_CHECKED])
            .args(deny)
            .env("PATH", &path),
    )?;
    // The site is built first, in release as it ships (and as the budget weighs it), so the
    // binary the tests build embeds it. The tests, the browser's included, run that debug
    // binary: a release build of the server would compile every dependency a third time, for
    // 15 of CI's minutes.
    build_site(Half::SiteOnly)?;
    budget::check_wasm(&root())?;
    run_command(linted(&mut cargo(
        &[&["test"][..], &SERVER_SIDE[..]].concat(),
    )))?;
    run_command(
        tools::npm("npx")
            .args(["playwright", "test"])
            .current_dir(root().join("end2end"))
            .env("PATH", tools::path_with_npm_bin())
            .env("HARK_BIN", root().join("target/debug/hark")),
    )
    .map_err(|error| format!("browser tests: {error}"))?;
    conformance::run()?;
    python_sdk::run()?;
    acp_sdk::run()?;
    smoke_other_platforms(Built::ByTheTests)
}

/// Whether this machine's debug build is there already: the tests built it (with their
/// dependencies' features, which the browser tests ran too); a build of its own would compile
/// the server and half its dependencies again for 1 to 2.5 of CI's minutes.
#[derive(Clone, Copy, PartialEq)]
enum Built {
    ByTheTests,
    NotYet,
}

/// `cargo xtask smoke [--binary PATH]`.
fn smoke(args: &[String]) -> Result<(), String> {
    match args {
        [] => smoke_other_platforms(Built::NotYet),
        [flag, binary] if flag == "--binary" => {
            let scratch = root().join("target/smoke-native");
            if scratch.exists() {
                std::fs::remove_dir_all(&scratch)
                    .map_err(|error| format!("cannot empty {}: {error}", scratch.display()))?;
            }
            let home = scratch.join("home");
            smoke::run(
                &smoke::Foreign {
                    name: "this machine's build",
                    program: vec![
                        std::path::absolute(binary)
                            .map_err(|error| format!("{binary}: {error}"))?
                            .into(),
                    ],
                    env: Vec::new(),
                    folder: root(),
                    home_as_given: home.clone().into(),
                    home,
                },
                smoke::Round::Mcp,
            )
        }
        _ => Err("usage: cargo xtask smoke [--binary PATH]".into()),
    }
}

/// Runs Hark's npm packages from a local registry, then builds Hark for Windows and for Linux on
/// ARM and runs each here, through wine and qemu-user: start, health, a question answered
/// (through `hark mcp`, but on ARM over REST), stop.
fn smoke_other_platforms(built: Built) -> Result<(), String> {
    let scratch = root().join("target/smoke");
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch)
            .map_err(|error| format!("cannot empty {}: {error}", scratch.display()))?;
    }
    smoke_npm(&scratch, built)?;

    tools::ensure_windows_target()?;
    tools::ensure_wine()?;
    // Linted as built: Windows' own code (`cfg(windows)`) is nowhere else.
    run_command(linted(&mut cargo(&[
        "build",
        "-p",
        "hark",
        "--target",
        tools::WINDOWS,
    ])))?;
    // Beside the binary, the one DLL Debian's Wine 8 lacks (xtask/wine/bcryptprimitives.c).
    let windows = scratch.join("windows");
    std::fs::create_dir_all(&windows).map_err(|error| format!("{}: {error}", windows.display()))?;
    let exe = windows.join("hark.exe");
    let built = root().join(format!("target/{}/debug/hark.exe", tools::WINDOWS));
    std::fs::copy(&built, &exe).map_err(|error| format!("{}: {error}", built.display()))?;
    run_command(
        Command::new("x86_64-w64-mingw32-gcc")
            .args(["-shared", "-O2", "-o"])
            .arg(windows.join("bcryptprimitives.dll"))
            .arg(root().join("xtask/wine/bcryptprimitives.c"))
            .arg("-ladvapi32"),
    )?;
    // The unit tests too, run by wine: all but the HARK_HOME access list's, which Wine cannot
    // show (it keeps no file's access list and reads back its default one); that one runs on
    // the release workflow's Windows runner.
    run_command(
        linted(&mut cargo(
            &[
                &["test"][..],
                &UNIT_TESTED[..],
                &[
                    "--lib",
                    "--target",
                    tools::WINDOWS,
                    "--",
                    "--skip",
                    "a_home_is_made_private_to_this_user",
                ][..],
            ]
            .concat(),
        ))
        .env("CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER", "wine")
        .env("WINEPATH", wine_path(&windows))
        .envs(wine_env(&scratch)),
    )?;
    let home = scratch.join("windows-home");
    let home_as_given = wine_path(&home);
    smoke::run(
        &smoke::Foreign {
            name: "Windows under wine",
            program: vec!["wine".into(), exe.into()],
            folder: scratch.clone(),
            env: wine_env(&scratch)
                .into_iter()
                .map(|(key, value)| (key.into(), value))
                .collect(),
            home,
            home_as_given: home_as_given.into(),
        },
        smoke::Round::Mcp,
    )?;

    let cross = tools::ensure_arm_linux()?;
    run_command(
        cargo(&["build", "-p", "hark", "--target", tools::ARM_LINUX])
            .envs(cross.iter().map(|(key, value)| (key, value))),
    )?;
    let home = scratch.join("arm-home");
    smoke::run(
        &smoke::Foreign {
            name: "Linux ARM under qemu-user",
            program: vec![
                "qemu-aarch64-static".into(),
                root()
                    .join(format!("target/{}/debug/hark", tools::ARM_LINUX))
                    .into(),
            ],
            folder: scratch.clone(),
            env: vec![("QEMU_LD_PREFIX".into(), "/usr/aarch64-linux-gnu".into())],
            home_as_given: home.clone().into(),
            home,
        },
        smoke::Round::Rest,
    )
}

/// This machine's debug build (the one the tests ran), packed as `dist` packs a release,
/// published to a local registry and run with `npx`, as a person would.
fn smoke_npm(scratch: &Path, built: Built) -> Result<(), String> {
    if built == Built::NotYet {
        run_command(&mut cargo(&["build", "-p", "hark"]))?;
    }
    let host = dist::host_target()?;
    let platform = dist::Platform::of(&host).ok_or("this machine's target ships")?;
    let packed = dist::pack(
        &root().join("target/debug/hark"),
        &host,
        platform,
        &scratch.join("dist"),
    )?;
    let registry = registry::Registry::start(&scratch.join("registry"))?;
    for package in packed
        .iter()
        .filter(|path| path.extension().is_some_and(|extension| extension == "tgz"))
    {
        registry.publish(package)?;
    }
    let folder = scratch.join("npx");
    std::fs::create_dir_all(&folder).map_err(|error| format!("{}: {error}", folder.display()))?;
    let home = scratch.join("npm-home");
    smoke::run(
        &smoke::Foreign {
            name: "npx hark-mcp from a local registry",
            program: vec![
                if cfg!(windows) { "npx.cmd" } else { "npx" }.into(),
                "--yes".into(),
                format!("{}@{}", dist::NPM_PACKAGE, dist::version()).into(),
            ],
            env: vec![
                (
                    "npm_config_userconfig".into(),
                    registry.npmrc.clone().into(),
                ),
                ("npm_config_cache".into(), scratch.join("npm-cache").into()),
            ],
            folder,
            home_as_given: home.clone().into(),
            home,
        },
        smoke::Round::Mcp,
    )
}

/// A folder of this machine as a program under wine names it (wine maps `/` to drive Z:).
fn wine_path(folder: &Path) -> String {
    format!("Z:{}", folder.display()).replace('/', "\\")
}

/// Wine's settings for the smoke runs: its prefix in `scratch`, quiet, and no Mono or Gecko
/// installer (a console program needs neither).
fn wine_env(scratch: &Path) -> Vec<(&'static str, std::ffi::OsString)> {
    vec![
        ("WINEPREFIX", scratch.join("wine").into()),
        ("WINEDEBUG", "-all".into()),
        ("WINEDLLOVERRIDES", "mscoree,mshtml=".into()),
    ]
}
