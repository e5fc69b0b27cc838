//! Every reference to a rule set page resolves inside the repository.
//!
//! * Any text file of the repository (`.git` and `target` folders skipped) that names
//!   `docs/rules/<page>.md` or `docs/rules/<page>.md#<anchor>` names a page that exists, and an anchor
//!   that page has.
//! * Every relative markdown link in `docs/` (`[text](other.md#anchor)`, `[text](#anchor)`)
//!   leads to a file that exists and, for a markdown file, to an anchor it has.
//! * Every DECISION or OPEN item (`**D08**`, `**O01**`) listed in a page's "Judgment calls"
//!   section, and in the shared items of `docs/rules/README.md`, has its own anchor on that page
//!   (`<a id="d08"></a>`), and every item of the index in `docs/rules/README.md` links to a page.
//!
//! An anchor is an explicit `<a id="...">` or a heading's GitHub-style slug.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository root")
}

/// Folders that hold data, not prose: build output, npm packages, and fuzz
/// inputs (mangled text that may look like a link).
const SKIPPED: [&str; 6] = [".git", "target", "node_modules", "corpus", "artifacts", "fuzz-regressions"];

/// Every file under `dir`, skipping the [`SKIPPED`] folders.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let entry = entry.unwrap();
        let path = entry.path();
        let name = entry.file_name();
        let file_type = entry.file_type().unwrap();
        if file_type.is_dir() {
            if !SKIPPED.iter().any(|s| name == *s) {
                walk(&path, out);
            }
        } else if file_type.is_file() {
            out.push(path);
        }
    }
}

/// The text files of the repository, with their contents.
fn text_files(root: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    walk(root, &mut files);
    files.sort();
    files.into_iter().filter_map(|p| fs::read_to_string(&p).ok().map(|text| (p, text))).collect()
}

/// The lines of a markdown text outside fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push(line);
        }
    }
    lines
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor a markdown text defines.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut headings: BTreeMap<String, usize> = BTreeMap::new();
    for line in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let s = slug(&line[hashes..]);
            let n = headings.entry(s.clone()).or_insert(0);
            found.insert(if *n == 0 { s.clone() } else { format!("{s}-{n}") });
            *n += 1;
        }
        let mut rest = line;
        while let Some(i) = rest.find("id=\"") {
            rest = &rest[i + 4..];
            if let Some(end) = rest.find('"') {
                found.insert(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    found
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// Every `docs/rules/<page>.md[#<anchor>]` named in `text`: (page, anchor, line number).
fn page_references(text: &str) -> Vec<(String, Option<String>, usize)> {
    const PREFIX: &str = "docs/rules/";
    let mut refs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(i) = rest.find(PREFIX) {
            rest = &rest[i + PREFIX.len()..];
            let name_len = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
            let (name, after) = rest.split_at(name_len);
            let Some(after) = after.strip_prefix(".md") else { continue };
            if name.is_empty() {
                continue;
            }
            let anchor = after.strip_prefix('#').map(|a| {
                let len = a.find(|c: char| !is_name_char(c)).unwrap_or(a.len());
                a[..len].to_string()
            });
            refs.push((format!("{name}.md"), anchor.filter(|a| !a.is_empty()), n + 1));
        }
    }
    refs
}

/// Every relative markdown link target in `text` (outside code blocks): (target, line number).
fn markdown_links(text: &str) -> Vec<(String, usize)> {
    let mut links = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = rest[..end].split_whitespace().next().unwrap_or("").to_string();
            rest = &rest[end..];
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            links.push((target, n + 1));
        }
    }
    links
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

#[test]
fn references_to_rule_set_pages_resolve() {
    let root = root();
    let rules_dir = root.join("docs/rules");
    let mut cache: BTreeMap<String, Option<BTreeSet<String>>> = BTreeMap::new();
    let mut bad = Vec::new();
    let mut checked = 0;
    for (path, text) in text_files(&root) {
        for (page, anchor, line) in page_references(&text) {
            let known = cache.entry(page.clone()).or_insert_with(|| fs::read_to_string(rules_dir.join(&page)).ok().map(|t| anchors(&t)));
            let at = format!("{}:{line}", relative(&root, &path));
            match (known, &anchor) {
                (None, _) => bad.push(format!("{at}: docs/rules/{page} does not exist")),
                (Some(a), Some(anchor)) if !a.contains(anchor) => bad.push(format!("{at}: docs/rules/{page} has no anchor #{anchor}")),
                _ => checked += 1,
            }
        }
    }
    assert!(bad.is_empty(), "{} broken references:\n{}", bad.len(), bad.join("\n"));
    assert!(checked > 50, "only {checked} references to docs/rules pages found");
}

#[test]
fn relative_links_in_docs_resolve() {
    let root = root();
    let mut files = Vec::new();
    walk(&root.join("docs"), &mut files);
    let mut bad = Vec::new();
    let mut checked = 0;
    for path in files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")) {
        let text = fs::read_to_string(&path).unwrap();
        for (target, line) in markdown_links(&text) {
            let at = format!("{}:{line}", relative(&root, &path));
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let dest = if file.is_empty() { path.clone() } else { path.parent().unwrap().join(file) };
            if !dest.exists() {
                bad.push(format!("{at}: {target}: {} does not exist", dest.display()));
                continue;
            }
            if let (Some(anchor), true) = (anchor, dest.extension().is_some_and(|e| e == "md")) {
                if !anchors(&fs::read_to_string(&dest).unwrap()).contains(anchor) {
                    bad.push(format!("{at}: {target}: no anchor #{anchor}"));
                    continue;
                }
            }
            checked += 1;
        }
    }
    assert!(bad.is_empty(), "{} broken links:\n{}", bad.len(), bad.join("\n"));
    assert!(checked > 50, "only {checked} links in docs/ found");
}

/// The ids written in bold (`**D08**`, `**O01**`) in `section`.
fn listed_items(section: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut rest = section;
    while let Some(i) = rest.find("**") {
        rest = &rest[i + 2..];
        let b = rest.as_bytes();
        if b.len() >= 5 && (b[0] == b'D' || b[0] == b'O') && b[1].is_ascii_digit() && b[2].is_ascii_digit() && &rest[3..5] == "**" {
            ids.insert(rest[..3].to_string());
            rest = &rest[5..];
        }
    }
    ids
}

/// The part of a page from the heading `title` to the next heading of the same level.
fn section<'a>(text: &'a str, title: &str) -> Option<&'a str> {
    let start = text.find(&format!("\n## {title}"))? + 1;
    let end = text[start + 3..].find("\n## ").map_or(text.len(), |e| start + 3 + e);
    Some(&text[start..end])
}

#[test]
fn every_listed_judgment_call_has_an_anchor() {
    let dir = root().join("docs/rules");
    let mut bad = Vec::new();
    let mut items = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = fs::read_to_string(&path).unwrap();
        let found = anchors(&text);
        for title in ["Judgment calls", "Shared judgment calls"] {
            let Some(sec) = section(&text, title) else { continue };
            for id in listed_items(sec) {
                items += 1;
                if !found.contains(&id.to_lowercase()) {
                    bad.push(format!("docs/rules/{name}: {id} is listed under \"{title}\" without <a id=\"{}\">", id.to_lowercase()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(items > 70, "only {items} listed judgment calls found");

    // The index lists every item once and links each to at least one page's anchor.
    let readme = fs::read_to_string(dir.join("README.md")).unwrap();
    let index = section(&readme, "Index of judgment calls").expect("docs/rules/README.md has an index of judgment calls");
    let mut ids = BTreeSet::new();
    for row in index.lines().filter(|l| l.starts_with("| D") || l.starts_with("| O")) {
        let id = row[2..5].to_string();
        let anchor = format!("#{}", id.to_lowercase());
        assert!(row.contains(&format!(".md{anchor})")), "index row {id} links to no page's {anchor}: {row}");
        assert!(ids.insert(id.clone()), "index lists {id} twice");
    }
    assert!(ids.len() >= 71, "the index lists {} items", ids.len());
}
