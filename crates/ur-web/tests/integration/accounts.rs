//! Accounts: register, sign in and out, who am I, delete; the cookie's
//! attributes; failed sign-ins limited; other sites refused.

use crate::common;
use crate::social;

use serde_json::json;
use social::{call, ok, register};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn register_sign_in_sign_out_and_delete() {
    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), common::fast).await;
    assert_eq!(ok(call(addr, "GET", "/api/session", None, &[]).await), json!({"name": null}));

    let reg = call(addr, "POST", "/api/accounts", Some(json!({"name": "Ann_1", "password": "correct horse"})), &[]).await;
    assert_eq!(reg.status, 200, "{}", reg.json);
    let cookie = reg.cookie();
    assert!(cookie.starts_with("ur_session="), "{}", reg.set_cookie());
    assert_eq!(ok(call(addr, "GET", "/api/session", None, &[("Cookie", &cookie)]).await)["name"], "Ann_1");

    // The name is taken, whatever its case.
    let taken = call(addr, "POST", "/api/accounts", Some(json!({"name": "ann_1", "password": "another one"})), &[]).await;
    assert_eq!(taken.status, 409);
    assert_eq!(taken.json["code"], "name_taken");

    // Signing out ends the session in the store: the old cookie is nobody.
    let out = call(addr, "DELETE", "/api/session", None, &[("Cookie", &cookie)]).await;
    assert_eq!(out.status, 200);
    assert!(out.set_cookie().contains("Max-Age=0"));
    assert_eq!(ok(call(addr, "GET", "/api/session", None, &[("Cookie", &cookie)]).await)["name"], json!(null));

    let wrong = call(addr, "POST", "/api/session", Some(json!({"name": "Ann_1", "password": "wrong password"})), &[]).await;
    assert_eq!(wrong.status, 401);
    assert_eq!(wrong.json["code"], "bad_login");
    let login = call(addr, "POST", "/api/session", Some(json!({"name": "ANN_1", "password": "correct horse"})), &[]).await;
    assert_eq!(login.status, 200, "{}", login.json);
    assert_eq!(login.json["name"], "Ann_1");
    let cookie = login.cookie();

    // A game played while signed in links to the account, and stays when it is deleted.
    let g =
        ok(call(addr, "POST", "/api/games", Some(json!({"rules": "finkel", "mode": "online", "seat": "light"})), &[("Cookie", &cookie)])
            .await);
    let other = register(addr, "bob").await;
    let refused = call(addr, "DELETE", "/api/accounts/Ann_1", None, &[("Cookie", &other)]).await;
    assert_eq!(refused.status, 403);
    assert_eq!(refused.json["code"], "not_yours");
    let player = ok(call(addr, "GET", "/api/players/ann_1", None, &[]).await);
    assert_eq!(player["archive"][0]["id"], g["id"]);

    let del = call(addr, "DELETE", "/api/accounts/Ann_1", None, &[("Cookie", &cookie)]).await;
    assert_eq!(del.status, 200, "{}", del.json);
    assert_eq!(ok(call(addr, "GET", "/api/session", None, &[("Cookie", &cookie)]).await)["name"], json!(null));
    assert_eq!(call(addr, "GET", "/api/players/Ann_1", None, &[]).await.status, 404);
    let relogin = call(addr, "POST", "/api/session", Some(json!({"name": "Ann_1", "password": "correct horse"})), &[]).await;
    assert_eq!(relogin.status, 401);
    let setup = ok(call(addr, "GET", &format!("/api/games/{}", g["id"].as_str().unwrap()), None, &[]).await);
    assert_eq!(setup["id"], g["id"], "the game stays");
    // The name is free again.
    register(addr, "ann_1").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cookie_is_http_only_lax_and_secure_over_https() {
    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), common::fast).await;
    let plain = call(addr, "POST", "/api/accounts", Some(json!({"name": "carol", "password": "password-1"})), &[]).await;
    let c = plain.set_cookie();
    assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax") && c.contains("Path=/"), "{c}");
    assert!(!c.contains("Secure"), "{c}");
    let proxied =
        call(addr, "POST", "/api/session", Some(json!({"name": "carol", "password": "password-1"})), &[("X-Forwarded-Proto", "https")])
            .await;
    let c = proxied.set_cookie();
    assert!(c.contains("Secure") && c.contains("HttpOnly") && c.contains("SameSite=Lax"), "{c}");

    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), |c| {
        common::fast(c);
        c.https = true;
    })
    .await;
    let c = call(addr, "POST", "/api/accounts", Some(json!({"name": "carol", "password": "password-1"})), &[]).await.set_cookie();
    assert!(c.contains("Secure"), "{c}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_sign_ins_are_limited_per_name() {
    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), common::fast).await;
    register(addr, "dave").await;
    let mut codes = Vec::new();
    for _ in 0..7 {
        let a = call(addr, "POST", "/api/session", Some(json!({"name": "dave", "password": "not the one"})), &[]).await;
        codes.push(a.json["code"].as_str().unwrap().to_string());
    }
    assert_eq!(&codes[..5], ["bad_login"; 5]);
    assert_eq!(&codes[5..], ["rate_limited"; 2]);
    // Even the right password waits now.
    let a = call(addr, "POST", "/api/session", Some(json!({"name": "dave", "password": "password-1"})), &[]).await;
    assert_eq!(a.status, 429);
    // Another name is not held up by dave's.
    register(addr, "erin").await;
    let a = call(addr, "POST", "/api/session", Some(json!({"name": "erin", "password": "password-1"})), &[]).await;
    assert_eq!(a.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_names_and_passwords_and_other_sites_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), common::fast).await;
    for (name, password) in [
        ("ab", "password-1"),
        ("a b c", "password-1"),
        ("élodie", "password-1"),
        ("x".repeat(21).as_str(), "password-1"),
        ("frank", "short"),
        ("frank", &"p".repeat(201)),
    ] {
        let a = call(addr, "POST", "/api/accounts", Some(json!({"name": name, "password": password})), &[]).await;
        assert_eq!(a.status, 400, "{name}");
        assert_eq!(a.json["code"], "bad_account");
    }
    let a = call(addr, "POST", "/api/accounts", Some(json!({"name": "frank"})), &[]).await;
    assert_eq!(a.json["code"], "bad_request");
    let cookie = register(addr, "frank").await;
    let evil = [("Origin", "https://evil.example"), ("Cookie", cookie.as_str())];
    for (method, path, body) in [
        ("POST", "/api/accounts", Some(json!({"name": "gina", "password": "password-1"}))),
        ("POST", "/api/session", Some(json!({"name": "frank", "password": "password-1"}))),
        ("DELETE", "/api/session", None),
        ("DELETE", "/api/accounts/frank", None),
    ] {
        let a = call(addr, method, path, body, &evil).await;
        assert_eq!(a.status, 403, "{method} {path}");
        assert_eq!(a.json["code"], "cross_origin");
    }
    assert_eq!(ok(call(addr, "GET", "/api/session", None, &[("Cookie", &cookie)]).await)["name"], "frank", "still signed in");
    // The server's own page may.
    let own = format!("http://{addr}");
    let a = call(addr, "DELETE", "/api/session", None, &[("Origin", &own), ("Cookie", &cookie)]).await;
    assert_eq!(a.status, 200);
}
