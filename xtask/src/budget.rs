//! The page's weight budget: `cargo xtask test` fails when the compressed WebAssembly grows past
//! it, so growth is a decision, not an accident. Two marks, as brotli serves them: the first
//! view's module (`hark.wasm`, all that `/` loads), and every module together (the lazily loaded
//! question and settings routes too). Set from the build of 2026-12-01 (325 and 562 KiB, once
//! the catalogues left the WebAssembly) with about 2.5% of room; lower them whenever the page
//! gets lighter (issue 16 aimed at 160 KB for the whole first view). All modules together were
//! raised to 592 KiB for WeChat's settings part (587 KiB built on 2026-12-02, the settings module
//! 124 KiB of it, loaded only when settings open). Then both for issue 29's "Tell the agent…"
//! (its box and the messages' live list on the inbox: the first view 331 → 343 KiB, once its
//! form was a plain one rather than an `ActionForm`, which cost 40 KiB more) and issue 28's
//! Slack settings part (the settings module 124 → 134 KiB): 345 and 625 KiB (620 built). All
//! modules then to 640 KiB for Discord's and Feishu/Lark's settings parts (the settings module
//! 134 → 150 KiB; 636 KiB built on 2026-12-03; the first view unchanged at 343 KiB). Issue 30
//! then brought them down to 285 and 480 KiB (278 and 469 built on 2026-12-03): no Fluent in the
//! browser, one JSON reader per type, no buffered readers of tagged enums, Leptos' erased views,
//! and the event stream's own small socket. Then to 254 and 437 KiB (248 and 427 built): the
//! standard library rebuilt for size, with panics that stop at once (`tools::small_wasm`). The
//! first view then to 245 KiB and all to 435 (239 and 424 built): a page reads three fields of
//! the config, not every channel's settings, and timestamps with chrono's strict RFC 3339 reader.
//! All modules then to 456 KiB for issue 46's Agents page (its own module, 16 KiB, loaded when
//! it opens) and the sessions in the live state (the first view 243 KiB; 450 built on
//! 2026-12-04). Issue 48's islands then to 206 and 432 KiB (202 and 423 built on 2026-12-05):
//! the browser hydrates only the header and the live parts, the router stays on the server. Then
//! to 170 and 372 KiB (166 and 368 built on 2026-12-05): the browser reads JSON through its own
//! `JSON.parse` (serde-wasm-bindgen), and the inbox, question and agents islands take their data
//! from data blocks, not from props or resources. The first view then to 158 KiB (155 built on
//! 2026-12-05, all modules unchanged at 369): the server writes the inbox's lists and the island
//! swaps them in, so their views left the browser's code. Then to 147 and 371 KiB (144 and 368
//! built on 2026-12-05): the first view reads each question and message on the event stream as
//! a brief, whose whole is read only by the pages that show it (the question's readers moved to
//! the modules the question and agents pages share), and wasm-opt runs to convergence. A chat
//! app's refusal then travelled in a failure as its text, read only by that app's settings
//! part, so the first view carries no reader of any JSON value (142.5 and 366.6 built); the
//! Tell boxes' wait for an input method and the history's older pages written again after a
//! language switch took 1.5 KiB of that back: 144.0 and 368.3 built on 2026-12-06, the marks
//! unchanged at 147 and 371 KiB. The marks keep about 3 KiB of room: the same code built in another
//! folder weighed 1.4 KiB more.

use std::path::Path;

/// The most the first view's WebAssembly may weigh.
pub const FIRST_VIEW_BUDGET: u64 = 147 * 1024;
/// The most all of the page's WebAssembly may weigh together.
pub const ALL_WASM_BUDGET: u64 = 371 * 1024;

/// Checks the built site's compressed WebAssembly against the budgets.
///
/// # Errors
/// When either is over its budget, or the first view's module is missing.
pub fn check_wasm(root: &Path) -> Result<(), String> {
    let pkg = root.join("target/site/pkg");
    let first = pkg.join("hark.wasm.br");
    let first_view = std::fs::metadata(&first)
        .map_err(|error| format!("cannot weigh {}: {error}", first.display()))?
        .len();
    let all: u64 = std::fs::read_dir(&pkg)
        .map_err(|error| format!("cannot list {}: {error}", pkg.display()))?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".wasm.br"))
        .filter_map(|entry| entry.metadata().ok())
        .map(|metadata| metadata.len())
        .sum();
    verdict(first_view, all)
}

fn verdict(first_view: u64, all: u64) -> Result<(), String> {
    let kib = |bytes: u64| bytes.div_ceil(1024);
    let hint = "find what grew (`cargo xtask weigh`) before raising the budget in \
                xtask/src/budget.rs";
    if first_view > FIRST_VIEW_BUDGET {
        return Err(format!(
            "the first view's WebAssembly weighs {} KiB (brotli), over its budget of {} KiB: {hint}",
            kib(first_view),
            kib(FIRST_VIEW_BUDGET)
        ));
    }
    if all > ALL_WASM_BUDGET {
        return Err(format!(
            "the page's WebAssembly weighs {} KiB in all (brotli), over its budget of {} KiB: \
             {hint}",
            kib(all),
            kib(ALL_WASM_BUDGET)
        ));
    }
    eprintln!(
        "wasm: first view {} KiB, all {} KiB (brotli); budgets {} and {} KiB",
        kib(first_view),
        kib(all),
        kib(FIRST_VIEW_BUDGET),
        kib(ALL_WASM_BUDGET)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_budget_fails_past_its_mark() {
        assert!(verdict(FIRST_VIEW_BUDGET, ALL_WASM_BUDGET).is_ok());
        assert!(verdict(FIRST_VIEW_BUDGET + 1, ALL_WASM_BUDGET).is_err());
        assert!(verdict(FIRST_VIEW_BUDGET, ALL_WASM_BUDGET + 1).is_err());
    }
}
