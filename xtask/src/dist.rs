//! `cargo xtask dist [--target T]`: the release binary for a target, packed for download
//! (`hark-<version>-<target>.tar.gz`, `.zip` for Windows, each with a `.sha256`) and for npm
//! (SPEC §15): one package per platform holding the binary, with `os` and `cpu` set so npm
//! installs only the matching one, and the main package `hark-mcp`, whose `bin` starts it, as
//! Biome and Codex CLI are shipped. Everything lands in `target/dist/`.

use crate::{cargo, root, run_command, tools};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The npm package people run (`npx -y hark-mcp mcp`); its platform packages are named after
/// it (`hark-mcp-linux-x64`). Free on the npm registry when chosen.
pub const NPM_PACKAGE: &str = "hark-mcp";

/// A target Hark ships for, with npm's names for its OS and CPU.
pub struct Platform {
    pub target: &'static str,
    pub npm_os: &'static str,
    pub npm_cpu: &'static str,
}

pub const PLATFORMS: [Platform; 5] = [
    Platform {
        target: "x86_64-unknown-linux-gnu",
        npm_os: "linux",
        npm_cpu: "x64",
    },
    Platform {
        target: "aarch64-unknown-linux-gnu",
        npm_os: "linux",
        npm_cpu: "arm64",
    },
    Platform {
        target: "aarch64-apple-darwin",
        npm_os: "darwin",
        npm_cpu: "arm64",
    },
    Platform {
        target: "x86_64-apple-darwin",
        npm_os: "darwin",
        npm_cpu: "x64",
    },
    Platform {
        target: "x86_64-pc-windows-msvc",
        npm_os: "win32",
        npm_cpu: "x64",
    },
];

impl Platform {
    /// The platform of `target`; the GNU Windows build (what this machine makes) ships as the
    /// same npm platform as the MSVC one.
    pub fn of(target: &str) -> Option<&'static Platform> {
        let target = if target == tools::WINDOWS {
            "x86_64-pc-windows-msvc"
        } else {
            target
        };
        PLATFORMS.iter().find(|platform| platform.target == target)
    }

    pub fn npm_name(&self) -> String {
        format!("{NPM_PACKAGE}-{}-{}", self.npm_os, self.npm_cpu)
    }

    fn binary_name(&self) -> &'static str {
        if self.npm_os == "win32" {
            "hark.exe"
        } else {
            "hark"
        }
    }
}

/// The version every artifact carries: the workspace's.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// This machine's target, as rustc names it (`host:` in `rustc -vV`).
pub fn host_target() -> Result<String, String> {
    let output = Command::new("rustc")
        .arg("-vV")
        .output()
        .map_err(|error| format!("cannot run rustc: {error}"))?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| "rustc -vV names no host".into())
}

/// `cargo xtask dist [--target T]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let host = host_target()?;
    let target = match args {
        [] => host.clone(),
        [flag, target] if flag == "--target" => target.clone(),
        _ => return Err("usage: cargo xtask dist [--target <target triple>]".into()),
    };
    let platform = Platform::of(&target).ok_or_else(|| {
        let known: Vec<&str> = PLATFORMS.iter().map(|platform| platform.target).collect();
        format!(
            "--target {target}: Hark ships for {} (and {})",
            known.join(", "),
            tools::WINDOWS
        )
    })?;
    crate::build_site(crate::Half::SiteOnly)?;
    let mut build = cargo(&["build", "--release", "-p", "hark", "--target", &target]);
    // Cross builds from this Linux machine: the C compilers of the targets it builds for.
    if target != host && host.contains("linux") {
        if target == tools::ARM_LINUX {
            build.envs(tools::ensure_arm_linux()?);
        } else if target == tools::WINDOWS {
            tools::ensure_windows_target()?;
        }
    }
    run_command(&mut build)?;
    let binary = root()
        .join("target")
        .join(&target)
        .join("release")
        .join(platform.binary_name());
    let out = root().join("target/dist");
    let written = pack(&binary, &target, platform, &out)?;
    eprintln!();
    for path in written {
        println!("{}", path.display());
    }
    Ok(())
}

/// Packs `binary` (built for `target`) into `out`: the archive and its checksum, the platform's
/// npm package and the main one, each as a folder and as npm's `.tgz`. Returns what it wrote.
pub fn pack(
    binary: &Path,
    target: &str,
    platform: &Platform,
    out: &Path,
) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(out).map_err(|error| at(out, &error))?;
    let archive = archive(binary, target, platform, out)?;
    let checksum = write_checksum(&archive)?;
    let npm = out.join("npm");
    let platform_package = platform_package(binary, platform, &npm)?;
    let main_package = main_package(&npm)?;
    let mut written = vec![archive, checksum];
    for folder in [platform_package, main_package] {
        written.push(npm_pack(&folder, &npm)?);
    }
    Ok(written)
}

/// `hark-<version>-<target>.tar.gz`, or `.zip` for Windows, holding a folder of that name with
/// the binary, the README and the licence.
fn archive(
    binary: &Path,
    target: &str,
    platform: &Platform,
    out: &Path,
) -> Result<PathBuf, String> {
    let stem = format!("hark-{}-{target}", version());
    let mut files = vec![(binary.to_path_buf(), platform.binary_name().to_string())];
    for extra in ["README.md", "LICENSE"] {
        files.push((root().join(extra), extra.to_string()));
    }
    if platform.npm_os == "win32" {
        let path = out.join(format!("{stem}.zip"));
        let file = File::create(&path).map_err(|error| at(&path, &error))?;
        let mut zip = zip::ZipWriter::new(file);
        for (source, name) in &files {
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated)
                .unix_permissions(0o755);
            zip.start_file(format!("{stem}/{name}"), options)
                .map_err(|error| format!("{}: {error}", path.display()))?;
            let bytes = std::fs::read(source).map_err(|error| at(source, &error))?;
            zip.write_all(&bytes).map_err(|error| at(&path, &error))?;
        }
        zip.finish()
            .map_err(|error| format!("{}: {error}", path.display()))?;
        Ok(path)
    } else {
        let path = out.join(format!("{stem}.tar.gz"));
        let file = File::create(&path).map_err(|error| at(&path, &error))?;
        let gzip = flate2::write::GzEncoder::new(file, flate2::Compression::best());
        let mut tar = tar::Builder::new(gzip);
        for (source, name) in &files {
            tar.append_path_with_name(source, format!("{stem}/{name}"))
                .map_err(|error| at(source, &error))?;
        }
        tar.into_inner()
            .and_then(flate2::write::GzEncoder::finish)
            .map_err(|error| at(&path, &error))?;
        Ok(path)
    }
}

/// `<archive>.sha256`, in `sha256sum`'s format (`sha256sum -c` checks it).
fn write_checksum(archive: &Path) -> Result<PathBuf, String> {
    let bytes = std::fs::read(archive).map_err(|error| at(archive, &error))?;
    let digest = Sha256::digest(&bytes);
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    let name = archive
        .file_name()
        .expect("an archive has a name")
        .to_string_lossy();
    let path = PathBuf::from(format!("{}.sha256", archive.display()));
    std::fs::write(&path, format!("{hex}  {name}\n")).map_err(|error| at(&path, &error))?;
    Ok(path)
}

/// The platform's npm package: `bin/hark` (or `hark.exe`) and a package.json that npm
/// installs only on that OS and CPU.
fn platform_package(binary: &Path, platform: &Platform, npm: &Path) -> Result<PathBuf, String> {
    let folder = npm.join(platform.npm_name());
    fresh_folder(&folder.join("bin"))?;
    let installed = folder.join("bin").join(platform.binary_name());
    std::fs::copy(binary, &installed).map_err(|error| at(binary, &error))?;
    make_executable(&installed)?;
    add_licence(&folder)?;
    write_package_json(
        &folder,
        json!({
            "name": platform.npm_name(),
            "version": version(),
            "description": format!(
                "The Hark binary for {} {} (installed by {NPM_PACKAGE})",
                platform.npm_os, platform.npm_cpu
            ),
            "license": "MIT",
            "os": [platform.npm_os],
            "cpu": [platform.npm_cpu],
            "files": ["bin"],
            "preferUnplugged": true,
        }),
    )?;
    Ok(folder)
}

/// A package.json, with the repository the release was built from where GitHub's runner names
/// it (`GITHUB_REPOSITORY`): npm's provenance checks the package against it.
fn write_package_json(folder: &Path, mut manifest: serde_json::Value) -> Result<(), String> {
    if let Ok(repository) = std::env::var("GITHUB_REPOSITORY")
        && !repository.is_empty()
    {
        manifest["repository"] = json!({
            "type": "git",
            "url": format!("git+https://github.com/{repository}.git"),
        });
    }
    write_json(&folder.join("package.json"), &manifest)
}

/// Copies the licence into a package folder (npm ships it whatever `files` says).
fn add_licence(folder: &Path) -> Result<(), String> {
    let licence = root().join("LICENSE");
    std::fs::copy(&licence, folder.join("LICENSE"))
        .map(drop)
        .map_err(|error| at(&licence, &error))
}

/// The main package: `bin/hark.js` starts the binary of whichever platform package npm
/// installed; every platform package is an optional dependency at the same version.
fn main_package(npm: &Path) -> Result<PathBuf, String> {
    let folder = npm.join(NPM_PACKAGE);
    fresh_folder(&folder.join("bin"))?;
    let launcher = folder.join("bin/hark.js");
    std::fs::write(&launcher, LAUNCHER).map_err(|error| at(&launcher, &error))?;
    make_executable(&launcher)?;
    add_licence(&folder)?;
    let optional: serde_json::Map<String, serde_json::Value> = PLATFORMS
        .iter()
        .map(|platform| (platform.npm_name(), json!(version())))
        .collect();
    write_package_json(
        &folder,
        json!({
            "name": NPM_PACKAGE,
            "version": version(),
            "description": "Hark: AI agents ask you a question, and wait for your answer (MCP server and local daemon)",
            "license": "MIT",
            "keywords": ["mcp", "ask_user", "claude-code", "codex", "human-in-the-loop"],
            "bin": { "hark": "bin/hark.js", NPM_PACKAGE: "bin/hark.js" },
            "files": ["bin"],
            "engines": { "node": ">=18" },
            "optionalDependencies": optional,
        }),
    )?;
    Ok(folder)
}

/// Starts the platform's binary with this process's arguments and streams (stdio stays the
/// binary's own, so `hark mcp` speaks MCP through it), passes signals on, and exits as it exits.
const LAUNCHER: &str = r#"#!/usr/bin/env node
// Starts the Hark binary that npm installed for this platform (an optional dependency), with
// this process's arguments and streams, and ends as it ends.
"use strict";
const { spawn } = require("node:child_process");

const packages = {
  "linux x64": "hark-mcp-linux-x64",
  "linux arm64": "hark-mcp-linux-arm64",
  "darwin arm64": "hark-mcp-darwin-arm64",
  "darwin x64": "hark-mcp-darwin-x64",
  "win32 x64": "hark-mcp-win32-x64",
};
const platform = `${process.platform} ${process.arch}`;
const name = packages[platform];
if (!name) {
  console.error(`hark-mcp: no Hark build for ${platform}; build it from source (see the README).`);
  process.exit(1);
}
let binary;
try {
  binary = require.resolve(`${name}/bin/hark${process.platform === "win32" ? ".exe" : ""}`);
} catch {
  console.error(`hark-mcp: the package ${name} is missing; install again without --no-optional.`);
  process.exit(1);
}
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
// A signal meant for this launcher (a client stopping its MCP server) is meant for Hark.
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
for (const signal of forwarded) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (error) => {
  console.error(`hark-mcp: cannot start ${binary}: ${error.message}`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    for (const forwardedSignal of forwarded) {
      process.removeAllListeners(forwardedSignal);
    }
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
"#;

/// `npm pack` of `folder` into `into`; returns the `.tgz`.
fn npm_pack(folder: &Path, into: &Path) -> Result<PathBuf, String> {
    let output = tools::npm("npm")
        .args(["pack", "--silent", "--pack-destination"])
        .arg(into)
        .current_dir(folder)
        .output()
        .map_err(|error| format!("cannot run npm pack: {error}"))?;
    if !output.status.success() {
        return Err(format!(
            "npm pack in {} failed: {}",
            folder.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let name = String::from_utf8_lossy(&output.stdout).trim().to_string();
    Ok(into.join(name.lines().last().unwrap_or_default()))
}

fn write_json(path: &Path, value: &serde_json::Value) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).expect("JSON values serialise");
    std::fs::write(path, text + "\n").map_err(|error| at(path, &error))
}

fn fresh_folder(folder: &Path) -> Result<(), String> {
    if folder.exists() {
        std::fs::remove_dir_all(folder).map_err(|error| at(folder, &error))?;
    }
    std::fs::create_dir_all(folder).map_err(|error| at(folder, &error))
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|error| at(path, &error))
}

#[cfg(not(unix))]
fn make_executable(_path: &Path) -> Result<(), String> {
    Ok(())
}

fn at(path: &Path, error: &std::io::Error) -> String {
    format!("{}: {error}", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_has_one_npm_platform_and_windows_gnu_ships_as_msvc() {
        let names: Vec<String> = PLATFORMS.iter().map(Platform::npm_name).collect();
        for (index, name) in names.iter().enumerate() {
            assert!(!names[index + 1..].contains(name), "{name} twice");
            assert!(
                LAUNCHER.contains(&format!("\"{name}\"")),
                "{name} in the launcher"
            );
        }
        assert_eq!(
            Platform::of(tools::WINDOWS).map(Platform::npm_name),
            Some("hark-mcp-win32-x64".to_string())
        );
        assert!(Platform::of("riscv64gc-unknown-linux-gnu").is_none());
    }
}
