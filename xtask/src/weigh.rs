//! `cargo xtask weigh`: what the page's WebAssembly is made of (issue 30's measure). First each
//! module as served, raw and brotli; then, by crate, one module (the first view's unless named)
//! as built with its functions' names kept (`main.rs` builds it so); each function's bytes count for the crate its
//! mangled name starts with (the trait's, for a generic type's impl). `HARK_WEIGH_DUMP=<file>`
//! also writes every function's size, crate and name there, one a line.
//!
//! Our own reading rather than `twiggy`: twiggy has no view by crate, and the names to group by
//! are mangled (legacy and v0) in this module; `wasmparser` does the reading.

use std::collections::HashMap;
use std::path::Path;
use wasmparser::{KnownCustom, Name, Parser, Payload, TypeRef};

/// A module's functions (their sizes in bytes, in order), names and data.
struct Module {
    functions: Vec<u64>,
    first_defined: u32,
    names: HashMap<u32, String>,
    data: u64,
}

fn read(path: &Path) -> Result<Module, String> {
    let bytes = std::fs::read(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let mut module = Module {
        functions: Vec::new(),
        first_defined: 0,
        names: HashMap::new(),
        data: 0,
    };
    for payload in Parser::new(0).parse_all(&bytes) {
        match payload.map_err(|error| format!("{}: {error}", path.display()))? {
            Payload::ImportSection(imports) => {
                for import in imports.into_imports() {
                    let import = import.map_err(|e| e.to_string())?;
                    if matches!(import.ty, TypeRef::Func(_) | TypeRef::FuncExact(_)) {
                        module.first_defined += 1;
                    }
                }
            }
            Payload::CodeSectionEntry(body) => {
                let range = body.range();
                let size = range.end - range.start;
                module.functions.push(size);
            }
            Payload::DataSection(data) => {
                let range = data.range();
                module.data += range.end - range.start;
            }
            Payload::CustomSection(custom) => {
                if let KnownCustom::Name(names) = custom.as_known() {
                    for name in names {
                        if let Ok(Name::Function(map)) = name {
                            for naming in map.into_iter().flatten() {
                                module.names.insert(naming.index, naming.name.to_string());
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(module)
}

/// The crate a mangled symbol belongs to: its first path segment; in `<Type as Trait>::f`, the
/// type's, or the trait's when the type is generic, a reference or a tuple.
fn crate_of(symbol: &str) -> String {
    if let Some(v0) = symbol.strip_prefix("_R") {
        return crate_of_v0(v0).unwrap_or_else(|| "?".into());
    }
    let Some(rest) = symbol.strip_prefix("_ZN") else {
        return symbol.split("::").next().unwrap_or(symbol).to_string();
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let Ok(length) = digits.parse::<usize>() else {
        return "?".into();
    };
    let segment = &rest[digits.len()..];
    let mut segment = &segment[..length.min(segment.len())];
    loop {
        let before = segment;
        for prefix in [
            "_",
            "$LT$",
            "$RF$",
            "mut$u20$",
            "$BP$",
            "const$u20$",
            "$u5b$",
        ] {
            segment = segment.trim_start_matches(prefix);
        }
        let head = segment.split("$u20$as$u20$").next().unwrap_or(segment);
        // A generic, a tuple or a slice in the type's place: the trait says more.
        if !head.contains("..")
            && let Some((_, trait_part)) = segment.split_once("$u20$as$u20$")
        {
            segment = trait_part;
        }
        if segment == before {
            break;
        }
    }
    segment
        .split("..")
        .next()
        .unwrap_or(segment)
        .split('$')
        .next()
        .unwrap_or(segment)
        .to_string()
}

/// A v0-mangled symbol's first crate: `C`, a disambiguator `s…_`, then its length and name.
fn crate_of_v0(symbol: &str) -> Option<String> {
    let at = symbol.find("Cs")?;
    let rest = &symbol[at + 2..];
    let rest = &rest[rest.find('_')? + 1..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let length: usize = digits.parse().ok()?;
    rest.get(digits.len()..digits.len() + length)
        .map(str::to_string)
}

/// Prints the page's WebAssembly by crate.
///
/// # Errors
/// When a module cannot be read (build the site first: `cargo xtask build`).
pub fn run(root: &Path, module: &Path) -> Result<(), String> {
    let pkg = root.join("target/site/pkg");
    let named = read(module)?;
    let mut modules: Vec<(String, u64, u64)> = std::fs::read_dir(&pkg)
        .map_err(|error| format!("{}: {error}", pkg.display()))?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().to_string();
            let stem = name.strip_suffix(".wasm")?.to_string();
            let raw = entry.metadata().ok()?.len();
            let brotli = std::fs::metadata(pkg.join(format!("{name}.br")))
                .ok()?
                .len();
            Some((stem, raw, brotli))
        })
        .collect();
    modules.sort_by_key(|module| std::cmp::Reverse(module.2));
    println!("modules as served (raw, brotli):");
    for (stem, raw, brotli) in &modules {
        println!(
            "{:>8} KiB {:>6} KiB  {stem}",
            raw.div_ceil(1024),
            brotli.div_ceil(1024)
        );
    }
    let mut crates: HashMap<String, u64> = HashMap::new();
    let mut code: u64 = 0;
    let dump =
        std::env::var_os("HARK_WEIGH_DUMP").and_then(|path| std::fs::File::create(path).ok());
    for (offset, size) in named.functions.iter().enumerate() {
        code += size;
        let index = named.first_defined + offset as u32;
        let owner = named
            .names
            .get(&index)
            .map_or_else(|| "(unnamed)".to_string(), |name| crate_of(name));
        if let Some(dump) = &dump {
            use std::io::Write;
            let name = named.names.get(&index).map_or("(unnamed)", String::as_str);
            let _ = writeln!(&*dump, "{size}\t{owner}\t{name}");
        }
        *crates.entry(owner).or_default() += size;
    }
    let total = code + named.data;
    println!(
        "{} (its names kept), by crate ({} KiB of code, {} KiB of data):",
        module
            .file_name()
            .map_or(String::new(), |name| name.to_string_lossy().to_string()),
        code.div_ceil(1024),
        named.data.div_ceil(1024)
    );
    let mut rows: Vec<(String, u64)> = crates.into_iter().collect();
    rows.push(("(data section)".into(), named.data));
    rows.sort_by_key(|row| std::cmp::Reverse(row.1));
    for (owner, size) in rows.iter().take(45) {
        println!(
            "{:>8} KiB {:>5.1}%  {owner}",
            size.div_ceil(1024),
            *size as f64 * 100.0 / total as f64
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::crate_of;

    #[test]
    fn a_symbol_belongs_to_its_first_crate_or_its_types() {
        assert_eq!(
            crate_of(
                "_ZN6tachys14reactive_graph52_$LT$impl$u20$tachys..view..Render$u20$for$u20$F$GT$7rebuild17h1da1ff3176682f9bE"
            ),
            "tachys"
        );
        assert_eq!(
            crate_of(
                "_ZN94_$LT$tachys..reactive_graph..RenderEffectState$LT$T$GT$$u20$as$u20$tachys..view..Mountable$GT$7unmount17h3a5610ac71d0341cE"
            ),
            "tachys"
        );
        assert_eq!(
            crate_of(
                "_ZN12wasm_bindgen9externref32__wbindgen_externref_statics_end17h793b1745c5a46769E"
            ),
            "wasm_bindgen"
        );
        assert_eq!(
            crate_of(
                "_ZN60_$LT$T$u20$as$u20$alloc..string..ToString$GT$9to_string17h0123456789abcdefE"
            ),
            "alloc"
        );
        assert_eq!(
            crate_of(
                "_ZN64_$LT$$RF$mut$u20$W$u20$as$u20$core..fmt..Write$GT$9write_str17h0123456789abcdefE"
            ),
            "core"
        );
        assert_eq!(
            crate_of("_RNvXsK_NtCsgXGp5Oqx2Ny_4core3fmtNtB5_5ErrorNtB5_5Debug3fmt"),
            "core"
        );
    }
}
