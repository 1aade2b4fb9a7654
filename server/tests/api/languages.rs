//! The server renders each page in the person's language and theme: the cookie's pick, else
//! `Accept-Language`, else English; a plain form switches both and keeps them in cookies.

use crate::api::pages::form_action;
use crate::api::support::*;

async fn page(daemon: &Daemon, path: &str, headers: &[(&str, &str)]) -> String {
    let mut request = daemon.http.get(daemon.url(path));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    response.text().await.unwrap()
}

#[tokio::test]
async fn pages_speak_the_cookie_language_else_accept_language_else_english() {
    let daemon = Daemon::start();
    let cases = [
        (vec![], "lang=\"en\"", "Waiting for you"),
        (
            vec![("accept-language", "ko-KR,ko;q=0.9")],
            "lang=\"ko\"",
            "답을 기다리는 질문",
        ),
        (
            vec![("accept-language", "zh-Hans-CN")],
            "lang=\"zh-CN\"",
            "等你回答",
        ),
        (
            vec![("accept-language", "fr, ja;q=0.5")],
            "lang=\"ja\"",
            "回答待ちの質問",
        ),
        (
            vec![("accept-language", "de")],
            "lang=\"en\"",
            "Waiting for you",
        ),
        (
            vec![("accept-language", "ko"), ("cookie", "hark_lang=ru")],
            "lang=\"ru\"",
            "Ждут вашего ответа",
        ),
        // A cookie naming no language Hark has is ignored.
        (
            vec![("accept-language", "ja"), ("cookie", "hark_lang=xx")],
            "lang=\"ja\"",
            "回答待ちの質問",
        ),
    ];
    for (headers, lang, heading) in cases {
        let html = page(&daemon, "/", &headers).await;
        assert!(
            html.contains(&format!("<html {lang}")),
            "{headers:?}: {html:.300}"
        );
        assert!(html.contains(heading), "{headers:?} lacks {heading}");
    }
    let settings = page(&daemon, "/settings", &[("accept-language", "ru")]).await;
    assert!(settings.contains("Настройки") && settings.contains("Язык и тема"));
}

/// Each language's `app-title`, read from its catalogue.
fn app_title(code: &str) -> String {
    let catalogue = std::fs::read_to_string(format!(
        "{}/../locales/{code}/main.ftl",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    catalogue
        .lines()
        .find_map(|line| line.strip_prefix("app-title = "))
        .unwrap()
        .trim()
        .to_string()
}

#[tokio::test]
async fn the_title_is_in_the_pages_language_on_every_render() {
    let daemon = Daemon::start();
    let languages = ["zh-CN", "ru", "ja", "ko", "en"];
    let titles: Vec<String> = languages.iter().map(|code| app_title(code)).collect();
    let mut wrong = Vec::new();
    // Each language 50 times, interleaved, five requests at a time (as browser tabs would).
    for round in 0..50 {
        let loads = languages.iter().zip(&titles).map(|(code, title)| {
            let daemon = &daemon;
            async move {
                let path = if round % 2 == 0 { "/" } else { "/settings" };
                let html = page(daemon, path, &[("accept-language", code)]).await;
                let found = html
                    .split_once("<title>")
                    .and_then(|(_, rest)| rest.split_once("</title>"))
                    .map(|(title, _)| title.to_string());
                let right_lang = html.contains(&format!("<html lang=\"{code}\""));
                (found.as_deref() == Some(title.as_str()) && right_lang)
                    .then_some(())
                    .ok_or(format!("{code} on {path}: {found:?}"))
            }
        });
        for outcome in futures::future::join_all(loads).await {
            if let Err(problem) = outcome {
                wrong.push(problem);
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of 250 titles wrong: {wrong:?}",
        wrong.len()
    );
}

#[tokio::test]
async fn the_theme_is_on_the_html_element_from_the_first_byte() {
    let daemon = Daemon::start();
    let plain = page(&daemon, "/", &[]).await;
    assert!(plain.contains("data-theme=\"system\""));
    assert!(plain.contains("<meta name=\"color-scheme\" content=\"light dark\""));
    let dark = page(&daemon, "/", &[("cookie", "hark_theme=dark")]).await;
    assert!(dark.contains("data-theme=\"dark\""));
    assert!(dark.contains("<meta name=\"color-scheme\" content=\"dark\""));
    let bogus = page(&daemon, "/", &[("cookie", "hark_theme=\"><script>")]).await;
    assert!(bogus.contains("data-theme=\"system\""));
}

#[tokio::test]
async fn the_picker_form_sets_both_cookies_without_javascript() {
    let daemon = Daemon::start();
    let html = page(&daemon, "/settings", &[]).await;
    let action = form_action(&html, "save_preferences");
    let response = daemon
        .http
        .post(daemon.url(&action))
        .header("accept", "text/html")
        .form(&[("lang", "ja"), ("theme", "dark"), ("back", "/settings")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 302);
    assert_eq!(response.headers()["location"], "/settings");
    let cookies: Vec<&str> = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|value| value.to_str().unwrap())
        .collect();
    assert_eq!(cookies.len(), 2, "{cookies:?}");
    assert!(cookies[0].starts_with("hark_lang=ja;") && cookies[1].starts_with("hark_theme=dark;"));
    assert!(
        cookies
            .iter()
            .all(|cookie| cookie.contains("SameSite=Strict"))
    );
    let after = page(
        &daemon,
        "/settings",
        &[("cookie", "hark_lang=ja; hark_theme=dark")],
    )
    .await;
    assert!(after.contains("<html lang=\"ja\" data-theme=\"dark\""));

    // Returning is only ever to a path on this server.
    let elsewhere = daemon
        .http
        .post(daemon.url(&action))
        .header("accept", "text/html")
        .form(&[("theme", "light"), ("back", "//evil.example/")])
        .send()
        .await
        .unwrap();
    let location = elsewhere
        .headers()
        .get("location")
        .map(|value| value.to_str().unwrap().to_string());
    assert!(
        location
            .as_deref()
            .is_none_or(|location| location.starts_with('/') && !location.starts_with("//")),
        "{location:?}"
    );
}

#[tokio::test]
async fn a_bad_pick_is_refused_naming_the_field_and_changes_nothing() {
    let daemon = Daemon::start();
    let html = page(&daemon, "/", &[]).await;
    let action = form_action(&html, "save_preferences");
    for (field, value) in [("lang", "xx"), ("theme", "pink")] {
        let response = daemon
            .http
            .post(daemon.url(&action))
            .form(&[(field, value)])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400, "{field}");
        assert!(response.headers().get("set-cookie").is_none());
        let body = response.text().await.unwrap();
        assert!(body.contains(field), "{body}");
    }
    let config: serde_json::Value = daemon.get("/api/config").await.json().await.unwrap();
    assert!(config.get("language").is_none(), "{config}");
    assert_eq!(daemon.get("/api/health").await.status(), 200);
}

#[tokio::test]
async fn a_refused_plain_form_post_comes_back_explained_in_the_persons_language() {
    let daemon = Daemon::start();
    let question = daemon.ask(&yes_no()).await;
    let id = question["id"].as_str().unwrap();
    let page_path = format!("/q/{id}");
    let html = page(&daemon, &page_path, &[]).await;
    let action = form_action(&html, "submit_answer");
    assert_eq!(
        daemon
            .post(&format!("/api/questions/{id}/answer"), &pick("Yes"))
            .await
            .status(),
        200
    );
    // Answered elsewhere meanwhile: the page's post is refused and the browser sent back (it
    // sends no Referer under the no-referrer policy; the daemon knows the page).
    let response = daemon
        .http
        .post(daemon.url(&action))
        .header("accept", "text/html")
        .form(&[("id", id), ("answer[0][selected][0]", "No")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 302);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    assert!(
        location.contains(&page_path) && location.contains("__err"),
        "{location}"
    );
    let back = page(
        &daemon,
        &location.replace(&daemon.url(""), ""),
        &[("accept-language", "ja")],
    )
    .await;
    assert!(back.contains("この質問はすでに終了しています"), "{back}");
}

/// The catalogues a page carries (`app::i18n::page_catalogues`), read from its data block.
fn carried_catalogues(html: &str) -> app::i18n::page_catalogues::PageCatalogues {
    let block = crate::api::pages::between(html, r#"id="hark-catalogues""#, "</script>")
        .and_then(|tag| tag.split_once('>'))
        .map(|(_, json)| json)
        .expect("the page carries its catalogues");
    serde_json::from_str(block).expect("they are JSON")
}

#[tokio::test]
async fn a_page_carries_only_its_own_catalogue_and_fetches_another_on_a_switch() {
    use leptos::server_fn::ServerFn;
    let daemon = Daemon::start();
    let html = page(&daemon, "/", &[("accept-language", "ru")]).await;
    let carried = carried_catalogues(&html);
    assert_eq!(carried.whole, ["ru"]);
    let words = |code: &str| {
        carried
            .catalogues
            .iter()
            .find(|(of, _)| of == code)
            .map(|(_, words)| words.clone())
            .unwrap_or_else(|| panic!("{code} is carried"))
    };
    let other = |_| hark_text::words::Plural::Other;
    let russian = words("ru");
    assert_eq!(
        russian
            .format("home-waiting-heading", &[], other)
            .as_deref(),
        Some(hark_text::t_in(app::i18n::Lang::Ru, "home-waiting-heading", &[]).as_str()),
        "Russian whole, resolved"
    );
    assert_eq!(
        russian.format("home-question-count", &[("count", 3.into())], |_| {
            hark_text::words::Plural::Few
        }),
        Some("3 вопроса".to_string()),
        "with its plural forms"
    );
    // But for the settings page's own messages, which come with that page alone.
    let settings_only = |words: &hark_text::words::Words| {
        (words.plain.keys().chain(words.patterns.keys()))
            .filter(|key| key.starts_with("elsewhere-") || key.starts_with("settings-"))
            .count()
    };
    assert_eq!(settings_only(&russian), 0);
    let settings = page(&daemon, "/settings", &[("accept-language", "ru")]).await;
    let settings = carried_catalogues(&settings);
    let (_, settings_words) = (settings.catalogues.iter())
        .find(|(of, _)| of == "ru")
        .expect("Russian is carried");
    assert!(
        settings_only(settings_words) > 100,
        "the settings page carries them"
    );
    for (code, name) in [("ja", "日本語"), ("en", "English")] {
        let carried = words(code);
        assert_eq!(
            carried.plain.len() + carried.patterns.len(),
            1,
            "{code} by name only"
        );
        assert_eq!(
            carried.format("language-name", &[], other).as_deref(),
            Some(name)
        );
    }

    // Nor does any of the page's WebAssembly modules carry a catalogue, or Fluent to read one.
    let mut modules: Vec<String> = crate::api::pages::split_manifest(&daemon)
        .await
        .values()
        .flat_map(|files| files.as_array().unwrap().iter())
        .map(|file| file.as_str().unwrap().to_string())
        .collect();
    modules.push("hark".to_string());
    modules.sort();
    modules.dedup();
    assert!(modules.len() >= 3, "{modules:?}");
    for module in modules {
        let served = daemon.get(&format!("/pkg/{module}.wasm")).await;
        assert_eq!(served.status(), 200, "{module} is served");
        let wasm = served.bytes().await.unwrap();
        // WebAssembly's magic number: a module, whatever its size (the split's smallest shared
        // chunks are a few KB).
        assert!(
            wasm.starts_with(b"\0asm"),
            "{module} is a WebAssembly module"
        );
        let waiting = hark_text::t_in(app::i18n::Lang::En, "home-waiting-heading", &[]);
        for text in ["app-title = ", "language-name = ", &waiting, "FluentNumber"] {
            assert!(
                !wasm
                    .windows(text.len())
                    .any(|window| window == text.as_bytes()),
                "{module} carries a catalogue or Fluent ({text})"
            );
        }
    }

    // A switch to Japanese fetches its whole catalogue.
    let path = app::i18n::page_catalogues::Catalogue::PATH;
    let response = daemon.get(&format!("{path}?lang=ja")).await;
    assert_eq!(response.status(), 200);
    let japanese: hark_text::words::Words = response.json().await.unwrap();
    assert_eq!(japanese, hark_text::words::compile(app::i18n::Lang::Ja));

    let refused = daemon.get(&format!("{path}?lang=xx")).await;
    assert!(refused.status().is_client_error(), "{}", refused.status());
    let body = refused.text().await.unwrap();
    assert!(body.contains("lang"), "names the field: {body}");
}
