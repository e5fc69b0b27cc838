//! Games on a rule-set file sent by the page: a file with thousands of
//! mistakes gets a short answer, an id that could not name a file is
//! refused, and a record download names its file in a well-formed header.

use crate::common;

use std::net::SocketAddr;

use common::*;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use ur_rules::spec::BUILTIN;

const FINKEL: &str = BUILTIN[0].1;

/// `POST /api/games` for a rule-set file: the status and the answer.
async fn create_with_file(addr: SocketAddr, text: &str) -> (u16, Value) {
    let req = json!({"rules_file": text, "mode": "hotseat"}).to_string();
    let (status, body) = http(addr, "POST", "/api/games", Some(&req)).await;
    (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}")))
}

/// One GET; the response's head (status line and headers) and its size.
async fn head_of(addr: SocketAddr, path: &str) -> String {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut out)).await.expect("an answer in time").unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    text.split_once("\r\n\r\n").map_or(text.clone(), |(head, _)| head.to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_file_with_thousands_of_problems_gets_a_short_answer() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let cells = vec!["[9,9]"; 8100].join(",");
    let text = FINKEL.replace("path = \"PATH-14\"", &format!("path = [{cells}]"));
    let (status, v) = create_with_file(addr, &text).await;
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["code"], "bad_rules");
    let message = v["message"].as_str().unwrap();
    assert!(v.to_string().len() < 4096, "{} bytes", v.to_string().len());
    assert!(message.contains("16,200 problems") && message.ends_with("… and 16,180 more problems"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_set_id_that_could_not_name_a_file_is_refused_at_create() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    // Each id as the file writes it.
    for id in [r#""a\u007Fb""#, r#""a\r\nb""#, r#""a\"b""#, r#""../x""#, r#""""#, r#""Finkel""#] {
        let text = FINKEL.replace("id = \"finkel\"", &format!("id = {id}"));
        let (status, v) = create_with_file(addr, &text).await;
        assert_eq!(status, 400, "{id:?}: {v}");
        assert_eq!(v["code"], "bad_rules", "{id:?}");
        let message = v["message"].as_str().unwrap();
        assert!(message.contains("field 'id'") && message.contains("use 1 to 64 characters from a-z, 0-9, - and _"), "{id:?}: {message}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_download_names_its_file_in_plain_ascii_and_in_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let (status, g) = create_with_file(addr, &FINKEL.replace("id = \"finkel\"", "id = \"my-finkel_2\"")).await;
    assert_eq!(status, 200, "{g}");
    let id = g["id"].as_str().unwrap();
    let head = head_of(addr, &format!("/api/games/{id}/record")).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let line = head.lines().find(|l| l.to_ascii_lowercase().starts_with("content-disposition:")).unwrap_or_else(|| panic!("{head}"));
    let name = format!("ur-my-finkel_2-{}.json", &id[..8]);
    assert_eq!(line.split_once(':').unwrap().1.trim(), format!("attachment; filename=\"{name}\"; filename*=UTF-8''{name}"));
    replays(&record(addr, id).await);
}
