//! The site the daemon embeds (`target/site`), built here: the page's WebAssembly compiled, split
//! along its lazy islands, bound to JavaScript and shrunk, the style minified, the assets copied,
//! and every file precompressed. This is what `cargo leptos build --release -P --split` does, done
//! with the same libraries (wasm-split's, wasm-bindgen's at the locked version, lightningcss,
//! brotli) so that a first build compiles Hark and no separate tools (issue 48). The two steps
//! that are programs, not crates, run from `end2end`'s npm packages: binaryen's `wasm-opt` and
//! uglify-js (swc, cargo-leptos' minifier, is ~120 crates; uglify-js' output is as small).

use crate::{root, run_command, tools};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the site's parts come from and go, as `[[workspace.metadata.leptos]]` in Cargo.toml
/// names them (the one definition, which `cargo leptos watch` reads too).
struct Layout {
    output_name: String,
    lib_package: String,
    lib_profile: String,
    site_root: PathBuf,
    pkg_dir: PathBuf,
    style_file: PathBuf,
    assets_dir: PathBuf,
    browser_query: String,
}

/// The page's modules: compiled by cargo into `target/front`, then written to the site.
const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// The loader wasm-split writes for the lazy modules (the name cargo-leptos gives it, which the
/// server looks for).
const SPLIT_LOADER: &str = "__wasm_split.______________________.js";
/// Which modules each lazy island loads; read by the server to preload them.
const SPLIT_MANIFEST: &str = "__wasm_split_manifest.json";

/// Builds `target/site`. With `keep_names`, wasm-opt keeps the functions' names (`weigh` reads
/// them).
pub fn build(keep_names: bool) -> Result<(), String> {
    tools::ensure_site_tools()?;
    let layout = Layout::read()?;
    empty(&layout.site_root)?;
    let pkg = layout.site_root.join(&layout.pkg_dir);
    std::fs::create_dir_all(&pkg).map_err(|error| format!("{}: {error}", pkg.display()))?;

    let compiled = compile(&layout)?;
    let modules = split_and_bind(&layout, &compiled, &pkg)?;
    shrink_wasm(&modules, keep_names)?;
    minify_js(&pkg.join(format!("{}.js", layout.output_name)))?;
    copy_assets(&layout.assets_dir, &layout.site_root)?;
    write_style(
        &layout.style_file,
        &layout.browser_query,
        &pkg.join(format!("{}.css", layout.output_name)),
    )?;
    precompress(&layout.site_root)
}

impl Layout {
    fn read() -> Result<Layout, String> {
        let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["metadata", "--no-deps", "--format-version", "1"])
            .current_dir(root())
            .output()
            .map_err(|error| format!("cannot run cargo metadata: {error}"))?;
        if !output.status.success() {
            return Err(format!(
                "cargo metadata failed: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)
            .map_err(|error| format!("cargo metadata: {error}"))?;
        let site = &metadata["metadata"]["leptos"][0];
        let text = |key: &str| {
            site[key]
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("Cargo.toml's [[workspace.metadata.leptos]] lacks {key}"))
        };
        let root = root();
        Ok(Layout {
            output_name: text("output-name")?,
            lib_package: text("lib-package")?,
            lib_profile: text("lib-profile-release")?,
            site_root: root.join(text("site-root")?),
            pkg_dir: PathBuf::from(text("site-pkg-dir")?),
            style_file: root.join(text("style-file")?),
            assets_dir: root.join(text("assets-dir")?),
            browser_query: text("browserquery")?,
        })
    }
}

/// Removes everything in `folder`: the last build's split modules are named after the code and
/// must not linger, to be embedded and weighed.
fn empty(folder: &Path) -> Result<(), String> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let removed = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        removed.map_err(|error| format!("cannot empty {}: {error}", path.display()))?;
    }
    Ok(())
}

/// Compiles the page's crate for the browser; returns the module, with the relocations
/// wasm-split reads.
fn compile(layout: &Layout) -> Result<PathBuf, String> {
    let front = root().join("target/front");
    let mut cargo = crate::cargo(&[
        "build",
        "--package",
        &layout.lib_package,
        "--lib",
        "--target",
        WASM_TARGET,
        "--no-default-features",
        "--profile",
        &layout.lib_profile,
    ]);
    cargo.arg("--target-dir").arg(&front);
    tools::small_wasm(&mut cargo)?;
    run_command(&mut cargo)?;
    let compiled = front
        .join(WASM_TARGET)
        .join(&layout.lib_profile)
        .join(format!("{}.wasm", layout.lib_package));
    if !compiled.exists() {
        return Err(format!(
            "cargo finished but {} is missing",
            compiled.display()
        ));
    }
    Ok(compiled)
}

/// Splits the module along the app's `#[lazy]` functions, then writes the JavaScript that binds
/// the main module to the browser. Returns every module written, the main one first.
fn split_and_bind(layout: &Layout, compiled: &Path, pkg: &Path) -> Result<Vec<PathBuf>, String> {
    let input =
        std::fs::read(compiled).map_err(|error| format!("{}: {error}", compiled.display()))?;
    let main_module = compiled.with_file_name(format!("{}_split.wasm", layout.lib_package));
    let main_js = format!("./{}.js", layout.output_name);
    let loader = format!("./{SPLIT_LOADER}");
    let mut options = wasm_split_cli_support::Options::new(&input);
    options.output_dir = pkg;
    options.main_out_path = &main_module;
    options.main_module = &main_js;
    options.link_name = &loader;
    let split = wasm_split_cli_support::transform(options)
        .map_err(|error| format!("wasm-split: {error:?}"))?;
    // Sorted, so the same code gives the same bytes.
    let manifest: BTreeMap<_, _> = split.prefetch_map.into_iter().collect();
    let manifest = serde_json::to_string_pretty(&manifest).map_err(|error| error.to_string())?;
    write(&pkg.join(SPLIT_MANIFEST), manifest.as_bytes())?;

    // As the wasm-bindgen CLI with `--target web --keep-lld-exports --no-demangle`: the lazy
    // modules import the main module's memory, table and shared functions by their link names.
    let mut bindgen = wasm_bindgen_cli_support::Bindgen::new();
    bindgen
        .web(true)
        .map_err(|error| format!("wasm-bindgen: {error:#}"))?;
    #[allow(deprecated)] // The CLI turns reference types off this way too.
    bindgen
        .input_path(&main_module)
        .out_name(&layout.output_name)
        .demangle(false)
        .keep_lld_exports(true)
        .typescript(false)
        .omit_default_module_path(false)
        .reference_types(false);
    bindgen
        .generate(pkg)
        .map_err(|error| format!("wasm-bindgen: {error:#}"))?;
    // The hydration script loads `<output name>.wasm`.
    let bound = pkg.join(format!("{}_bg.wasm", layout.output_name));
    let main = pkg.join(format!("{}.wasm", layout.output_name));
    std::fs::rename(&bound, &main).map_err(|error| format!("{}: {error}", bound.display()))?;
    Ok(std::iter::once(main).chain(split.split_modules).collect())
}

/// binaryen's `wasm-opt -Oz` over each module, two at a time (the machine's cores); it takes the
/// main module from 3 MB to under 1 MB. Its passes run until they stop paying (`--converge`).
/// `--ignore-implicit-traps` made the first view 1.4 KiB smaller still, but lets binaryen hoist a
/// load past the check that guarded it (binaryen#3934), so it is left out.
fn shrink_wasm(modules: &[PathBuf], keep_names: bool) -> Result<(), String> {
    let wasm_opt = root().join("end2end/node_modules/binaryen/bin/wasm-opt");
    let lanes = std::thread::available_parallelism().map_or(2, usize::from);
    for batch in modules.chunks(lanes) {
        std::thread::scope(|scope| {
            let runs: Vec<_> = batch
                .iter()
                .map(|module| {
                    let wasm_opt = &wasm_opt;
                    scope.spawn(move || {
                        let mut command = Command::new("node");
                        command.arg(wasm_opt);
                        if keep_names {
                            command.arg("-g");
                        }
                        command
                            .args([
                                "-Oz",
                                "--converge",
                                "--enable-bulk-memory",
                                "--enable-nontrapping-float-to-int",
                            ])
                            .arg(module)
                            .arg("-o")
                            .arg(module);
                        run_command(&mut command)
                    })
                })
                .collect();
            runs.into_iter().try_for_each(|run| {
                run.join()
                    .unwrap_or_else(|_| Err("wasm-opt panicked".into()))
            })
        })?;
    }
    Ok(())
}

/// Minifies the bindings' JavaScript in place (uglify-js, as an ES module).
fn minify_js(script: &Path) -> Result<(), String> {
    run_command(
        Command::new("node")
            .arg(root().join("end2end/node_modules/uglify-js/bin/uglifyjs"))
            .args(["--module", "--compress", "--mangle", "--output"])
            .arg(script)
            .arg(script),
    )
}

/// Copies the assets folder's entries into the site's root.
fn copy_assets(assets: &Path, site_root: &Path) -> Result<(), String> {
    for reserved in ["index.html", "pkg"] {
        if assets.join(reserved).exists() {
            return Err(format!(
                "{} must not hold {reserved}: the site's root keeps that name for itself",
                assets.display()
            ));
        }
    }
    copy_folder(assets, site_root)
}

fn copy_folder(from: &Path, to: &Path) -> Result<(), String> {
    let entries =
        std::fs::read_dir(from).map_err(|error| format!("{}: {error}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|error| format!("{}: {error}", from.display()))?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if source.is_dir() {
            std::fs::create_dir_all(&target)
                .map_err(|error| format!("{}: {error}", target.display()))?;
            copy_folder(&source, &target)?;
        } else {
            std::fs::copy(&source, &target)
                .map_err(|error| format!("{}: {error}", source.display()))?;
        }
    }
    Ok(())
}

/// The stylesheet minified for the browsers the query names (lightningcss adds the fallbacks
/// they need). Unlike cargo-leptos, a stylesheet that does not parse fails the build.
fn write_style(file: &Path, browser_query: &str, to: &Path) -> Result<(), String> {
    use lightningcss::stylesheet::{MinifyOptions, ParserOptions, PrinterOptions, StyleSheet};
    use lightningcss::targets::{Browsers, Targets};
    let name = file.display().to_string();
    let css = std::fs::read_to_string(file).map_err(|error| format!("{name}: {error}"))?;
    let browsers = Browsers::from_browserslist([browser_query])
        .map_err(|error| format!("browser query {browser_query:?}: {error}"))?;
    let targets = Targets::from(browsers);
    let mut sheet = StyleSheet::parse(
        &css,
        ParserOptions {
            filename: name.clone(),
            ..ParserOptions::default()
        },
    )
    .map_err(|error| format!("{name}: {error}"))?;
    sheet
        .minify(MinifyOptions {
            targets,
            ..MinifyOptions::default()
        })
        .map_err(|error| format!("{name}: {error}"))?;
    let printed = sheet
        .to_css(PrinterOptions {
            targets,
            minify: true,
            ..PrinterOptions::default()
        })
        .map_err(|error| format!("{name}: {error}"))?;
    write(to, printed.code.as_bytes())
}

/// Writes `F.br` and `F.gz` beside every file `F` of the site, which the server sends to a
/// browser that takes them. Brotli at its defaults (quality 11), as the budget weighs it.
fn precompress(site_root: &Path) -> Result<(), String> {
    let mut files = Vec::new();
    collect_files(site_root, &mut files)?;
    let lanes = std::thread::available_parallelism().map_or(2, usize::from);
    let share = files.len().div_ceil(lanes).max(1);
    std::thread::scope(|scope| {
        let runs: Vec<_> = files
            .chunks(share)
            .map(|part| scope.spawn(move || part.iter().try_for_each(|file| compress(file))))
            .collect();
        runs.into_iter().try_for_each(|run| {
            run.join()
                .unwrap_or_else(|_| Err("compression panicked".into()))
        })
    })
}

fn collect_files(folder: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(folder).map_err(|error| format!("{}: {error}", folder.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|error| format!("{}: {error}", folder.display()))?
            .path();
        if path.is_dir() {
            collect_files(&path, files)?;
        } else if !matches!(
            path.extension().and_then(|extension| extension.to_str()),
            Some("br" | "gz")
        ) {
            files.push(path);
        }
    }
    Ok(())
}

fn compress(file: &Path) -> Result<(), String> {
    let data = std::fs::read(file).map_err(|error| format!("{}: {error}", file.display()))?;
    let mut br = Vec::new();
    brotli::BrotliCompress(
        &mut data.as_slice(),
        &mut br,
        &brotli::enc::BrotliEncoderParams::default(),
    )
    .map_err(|error| format!("brotli {}: {error}", file.display()))?;
    write(&with_suffix(file, "br"), &br)?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let gz = gz
        .write_all(&data)
        .and_then(|()| gz.finish())
        .map_err(|error| format!("gzip {}: {error}", file.display()))?;
    write(&with_suffix(file, "gz"), &gz)
}

fn with_suffix(file: &Path, suffix: &str) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".");
    name.push(suffix);
    PathBuf::from(name)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|error| format!("{}: {error}", path.display()))
}

#[cfg(test)]
mod tests {
    use std::io::Read;
    use std::path::Path;

    fn scratch(name: &str) -> std::path::PathBuf {
        let folder = crate::root().join("target/xtask-tests").join(name);
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        folder
    }

    #[test]
    fn every_file_gets_a_brotli_and_a_gzip_twin_that_give_it_back() {
        let site = scratch("precompress");
        std::fs::create_dir_all(site.join("pkg")).unwrap();
        let text = "a page's words, ".repeat(200);
        std::fs::write(site.join("pkg/hark.js"), &text).unwrap();
        std::fs::write(site.join("icon.svg"), "<svg/>").unwrap();
        super::precompress(&site).unwrap();
        // Twins are not compressed again.
        super::precompress(&site).unwrap();
        assert!(!site.join("pkg/hark.js.br.br").exists());
        for (file, original) in [("pkg/hark.js", text.as_str()), ("icon.svg", "<svg/>")] {
            let mut unbrotlied = Vec::new();
            brotli::BrotliDecompress(
                &mut std::fs::read(site.join(format!("{file}.br")))
                    .unwrap()
                    .as_slice(),
                &mut unbrotlied,
            )
            .unwrap();
            assert_eq!(unbrotlied, original.as_bytes(), "{file}.br");
            let mut ungzipped = String::new();
            flate2::read::GzDecoder::new(
                std::fs::read(site.join(format!("{file}.gz")))
                    .unwrap()
                    .as_slice(),
            )
            .read_to_string(&mut ungzipped)
            .unwrap();
            assert_eq!(ungzipped, original, "{file}.gz");
        }
    }

    #[test]
    fn the_style_is_minified_for_the_query_and_a_broken_one_fails_naming_its_file() {
        let folder = scratch("style");
        let (style, out) = (folder.join("main.css"), folder.join("hark.css"));
        std::fs::write(&style, "main {\n  color: rgb(0 0 0 / 6%);\n}\n").unwrap();
        super::write_style(&style, "defaults", &out).unwrap();
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "main{color:#0000000f}"
        );

        std::fs::write(&style, "main { color: red; }\n@media screen and ( {").unwrap();
        let error = super::write_style(&style, "defaults", &out).unwrap_err();
        assert!(error.contains("main.css"), "{error}");
        let error = super::write_style(&style, "no such browsers", &out).unwrap_err();
        assert!(error.contains("no such browsers"), "{error}");
    }

    #[test]
    fn assets_may_not_take_the_names_the_site_keeps() {
        let folder = scratch("assets");
        let (assets, site) = (folder.join("public"), folder.join("site"));
        std::fs::create_dir_all(assets.join("icons")).unwrap();
        std::fs::create_dir_all(&site).unwrap();
        std::fs::write(assets.join("icons/a.png"), "png").unwrap();
        super::copy_assets(&assets, &site).unwrap();
        assert_eq!(std::fs::read(site.join("icons/a.png")).unwrap(), b"png");

        std::fs::create_dir_all(assets.join("pkg")).unwrap();
        let error = super::copy_assets(&assets, &site).unwrap_err();
        assert!(error.contains("pkg"), "{error}");
        assert!(Path::new(&site).join("icons").exists());
    }
}
