//! The invitation: what an online game was created with (rules, options,
//! start, who moves first, the seat offered) can be read before the
//! invitee joins, and reading it takes no seat.

use crate::common;

use common::*;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invitation_shows_the_setup_before_the_seat_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let start = "d:e.2,1";
    let g =
        create(addr, json!({"rules": "finkel", "mode": "online", "seat": "light", "options": {"pieces": "3"}, "position": start})).await;
    let id = g["id"].as_str().unwrap();
    let invite = g["invite"].as_str().unwrap().split("token=").nth(1).unwrap().to_string();
    let get = |path: String| async move {
        let (status, body) = http(addr, "GET", &path, None).await;
        (status, serde_json::from_str::<Value>(&body).unwrap_or_else(|e| panic!("{e}: {body}")))
    };

    let (status, v) = get(format!("/api/games/{id}?token={invite}")).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!((v["mode"].as_str(), v["status"].as_str(), v["custom"].as_bool()), (Some("online"), Some("playing"), Some(false)));
    assert_eq!(v["options"], json!({"pieces": 3}));
    assert_eq!(v["start"], start);
    assert_eq!(v["first"], "dark");
    assert_eq!(v["you"], "dark", "the invitation opens the seat the creator left");
    assert_eq!(v["view"]["rules"]["id"], "finkel");
    assert_eq!(v["view"]["position_string"], start);
    assert_eq!(v["view"]["position"]["reserve"], json!([0, 2]));
    assert!(v["view"]["board"]["squares"].as_array().is_some_and(|s| !s.is_empty()), "{v}");
    assert_eq!(v["seats"]["dark"]["connected"], false);

    // Without a token, or with a wrong one, nobody's seat is named.
    assert_eq!(get(format!("/api/games/{id}")).await.1["you"], Value::Null);
    assert_eq!(get(format!("/api/games/{id}?token=0123")).await.1["you"], Value::Null);
    let (status, v) = get(format!("/api/games/{}", "0".repeat(32))).await;
    assert_eq!((status, v["code"].as_str()), (404, Some("unknown_game")));

    // Reading took no seat: the invitee joins afterwards, and dark moves first from the start.
    let dark = Client::join(addr, id, Some(&invite)).await;
    let v = dark.last.clone().unwrap();
    assert_eq!(v["game"]["you"], "dark");
    assert_eq!(v["view"]["position_string"], start);
    assert_eq!(v["view"]["turn"]["side"], "dark");
}
