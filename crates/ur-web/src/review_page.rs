//! The review as one self-contained html file (`ur review --format html`):
//! the page's own `review.js` draws it, with `board.js` for the boards, so a
//! shared report looks like the browser app's review screen.
//!
//! Nothing is fetched: the styles are inlined, `review.js` is the page's one
//! inline module, and the modules it imports (`./board.js`, `./dom.js`,
//! `./i18n.js`) are mapped by an import map to `data:` URLs, which Chromium
//! loads from a `file://` page where it refuses files next to it. A Content
//! Security Policy forbids any other source, and the review itself is JSON
//! in the page.

use base64::Engine;
use ur_session::review_doc::ReviewDoc;

const STYLE: &str = include_str!("../assets/style.css");
const REVIEW_STYLE: &str = include_str!("../assets/review.css");
const REVIEW_JS: &str = include_str!("../assets/review.js");
/// The modules `review.js` imports, by the specifier it imports them with.
const MODULES: [(&str, &str); 3] = [
    ("./board.js", include_str!("../assets/board.js")),
    ("./dom.js", include_str!("../assets/dom.js")),
    ("./i18n.js", include_str!("../assets/i18n.js")),
];
const ICON: &str = include_str!("../assets/icon.svg");

/// Only what the page holds: inline styles and scripts, `data:` modules and images.
const CSP: &str = "default-src 'none'; script-src 'unsafe-inline' data:; style-src 'unsafe-inline'; img-src data:";

/// The html file of a review. `text` (the text report) is shown where
/// scripts do not run.
pub fn review_html(doc: &ReviewDoc, text: Option<&str>) -> String {
    let title = match &doc.winner {
        Some(w) if w == "draw" => format!("Review: {}, drawn", doc.rules.name),
        Some(w) => format!("Review: {}, {} won", doc.rules.name, side_name(doc, w)),
        None => format!("Review: {}, unfinished", doc.rules.name),
    };
    let fallback = text.map(|t| format!("<noscript><pre>{}</pre></noscript>", escape(t))).unwrap_or_default();
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let imports: serde_json::Map<String, serde_json::Value> =
        MODULES.iter().map(|(name, src)| (name.to_string(), format!("data:text/javascript;base64,{}", b64(src)).into())).collect();
    let import_map = serde_json::json!({ "imports": imports });
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n\
         <title>{title}</title>\n\
         <link rel=\"icon\" href=\"data:image/svg+xml;base64,{icon}\">\n\
         <style>\n{STYLE}\n{REVIEW_STYLE}\n</style>\n\
         <script type=\"importmap\">{map}</script>\n\
         <script type=\"application/json\" id=\"review-data\">{data}</script>\n\
         </head>\n<body>\n<main id=\"review\" class=\"review-page\">{fallback}</main>\n\
         <script type=\"module\">\n{js}\n\
         renderReview(document.getElementById('review'), JSON.parse(document.getElementById('review-data').textContent), {{ standalone: true }});\n\
         </script>\n</body>\n</html>\n",
        title = escape(&title),
        icon = b64(ICON),
        map = script_json(&import_map),
        data = script_json(doc),
        js = REVIEW_JS,
    )
}

fn side_name<'a>(doc: &'a ReviewDoc, key: &'a str) -> &'a str {
    doc.sides.iter().find(|s| s.key == key).map_or(key, |s| s.name.as_str())
}

/// JSON safe inside a `<script>` element: no `<`, `>` or `&` (they only
/// occur in strings, where the `\u` escapes mean the same).
fn script_json(value: &impl serde::Serialize) -> String {
    let text = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
    text.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inlined_module_cannot_close_its_script_element() {
        assert!(!REVIEW_JS.to_ascii_lowercase().contains("</script"), "review.js must not contain a closing script tag");
        let imports = REVIEW_JS.lines().filter(|l| l.starts_with("import ")).count();
        assert!(!REVIEW_JS.contains("import(") && imports == MODULES.len(), "review.js imports exactly the mapped modules");
        for (name, src) in MODULES {
            assert!(REVIEW_JS.contains(&format!("from '{name}'")), "review.js imports {name}");
            assert!(!src.contains("\nimport "), "{name} must be a leaf module: a data: module cannot import relative paths");
        }
    }

    #[test]
    fn script_json_escapes_what_could_end_the_script() {
        assert_eq!(script_json(&"</script><!--&"), r#""\u003c/script\u003e\u003c!--\u0026""#);
        let back: String = serde_json::from_str(&script_json(&"</script>")).unwrap();
        assert_eq!(back, "</script>");
    }
}
