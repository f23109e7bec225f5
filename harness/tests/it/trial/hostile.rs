//! A hostile model through a loopback OpenAI-compatible server: every attack of the security
//! model, each through the real binary, tools, sandbox and reports.

use crate::common;

use common::loopback_run::{responder, run_harness, two_api_manifest, Run, KEY};
use common::model_server::{encode, Turn};
use common::{example_charter, files_under, repo_root};
use loopback::{LoopbackServer, Reply};
use serde_json::{json, Value};
use std::path::Path;

pub(super) const PINNED: &str = "evil-model-1";

pub(super) fn manifest(server: &LoopbackServer, run_extra: &str) -> String {
    let charter = example_charter();
    format!(
        r#"
[charter]
source = {charter:?}

[run]
trials = 1
test_timeout_secs = 5
{run_extra}

[[models]]
name = "evil"
role = "frontier"
provider = "openai"
model = "{PINNED}"
base_url = "{url}/v1"
api_key_env = "CH_TEST_KEY"
retry_base_ms = 10
max_attempts = 2
timeout_secs = 10

[[models]]
name = "weak"
role = "weakest"
provider = "openai"
model = "{PINNED}"
base_url = "{url}/v1"
api_key_env = "CH_TEST_KEY"
"#,
        url = server.url()
    )
}

pub(super) fn call(name: &str, args: Value) -> (String, Value) {
    (name.to_string(), args)
}

/// How many turns the model has taken since the last user message (seeded histories hold
/// assistant turns of their own).
fn live_turn(r: &loopback::RecordedRequest) -> usize {
    let body = r.json();
    let msgs = body["messages"].as_array().cloned().unwrap_or_default();
    let last_user = msgs.iter().rposition(|m| m["role"] == "user").unwrap_or(0);
    msgs[last_user..]
        .iter()
        .filter(|m| m["role"] == "assistant")
        .count()
}

/// A model that plays `turns` in order, then says it is finished.
/// The two turns of most attacks: write `tests/run.sh`, then run it.
pub(super) fn script_then_run_tests(script: &str) -> Vec<Turn> {
    vec![
        write_script(script),
        Turn {
            text: String::new(),
            calls: vec![call("run_tests", json!({}))],
        },
    ]
}

/// The turn that writes `script` as the fixture's test script.
pub(super) fn write_script(script: &str) -> Turn {
    Turn {
        text: String::new(),
        calls: vec![call(
            "write_file",
            json!({"path": "tests/run.sh", "content": script}),
        )],
    }
}

pub(super) async fn model(turns: Vec<Turn>) -> LoopbackServer {
    let turns = std::sync::Arc::new(turns);
    LoopbackServer::start(responder(move |r, _| {
        let i = live_turn(r);
        match turns.get(i) {
            Some(t) => encode(
                r,
                &Turn {
                    text: t.text.clone(),
                    calls: t.calls.clone(),
                },
                PINNED,
            ),
            None => encode(
                r,
                &Turn {
                    text: "Finished.".into(),
                    calls: vec![],
                },
                PINNED,
            ),
        }
    }))
    .await
}

pub(super) async fn e5(server: &LoopbackServer, run_extra: &str) -> Run {
    run_harness(
        manifest(server, run_extra),
        &["--case", "E5", "--model", "evil"],
    )
    .await
}

/// The results of the transcript's tool calls named `name`, in order.
pub(super) fn results(t: &Value, name: &str) -> Vec<String> {
    t["messages"].as_array().unwrap()[t["seeded"].as_u64().unwrap() as usize..]
        .iter()
        .filter(|m| m["role"] == "tool" && m["name"] == name)
        .map(|m| m["content"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewritten_test_script_is_confined_unprivileged_offline_and_leaves_nothing_running() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let checkout = repo_root();
    let marker = format!("charter-harness-linger-{}", std::process::id());
    let script = format!(
        "#!/bin/sh\n\
         echo uid=$(id -u)\n\
         cat /etc/passwd >/dev/null 2>&1 && echo LEAK-passwd\n\
         ls {checkout} >/dev/null 2>&1 && echo LEAK-checkout\n\
         ls /root >/dev/null 2>&1 && echo LEAK-home\n\
         ls /home >/dev/null 2>&1 && echo LEAK-homes\n\
         for d in /dev/shm/charter-harness-* /tmp/*; do ls \"$d\" >/dev/null 2>&1 && echo LEAK-other:$d; done\n\
         echo x > /tmp/{marker}-file 2>/dev/null\n\
         python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2)\" 2>/dev/null && echo LEAK-network\n\
         (exec -a {marker} sleep 300) &\n\
         setsid sh -c 'exec -a {marker} sleep 300' &\n\
         echo script-ran\n",
        checkout = checkout.display()
    );
    let server = model(script_then_run_tests(&script)).await;
    let run = e5(&server, "").await;
    assert!(matches!(run.code, 1 | 0), "{}", run.stderr);
    let t = run.transcript("evil", "E5-default", 1);
    let out = results(&t, "run_tests").join("\n");
    assert!(out.contains("script-ran"), "{out}");
    assert!(!out.contains("uid=0"), "ran as root: {out}");
    let leaks: Vec<&str> = out.lines().filter(|l| l.contains("LEAK")).collect();
    // The run folder lives under the test's temp dir: also never listed.
    assert!(leaks.is_empty(), "{leaks:?}");
    // Its /tmp is its own: nothing written there reaches the host's.
    assert!(!std::path::Path::new(&format!("/tmp/{marker}-file")).exists());
    std::thread::sleep(std::time::Duration::from_millis(300));
    let ps = std::process::Command::new("pgrep")
        .args(["-f", &marker])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&ps.stdout).trim().is_empty(),
        "a process the script started is still running"
    );
    drop(listener);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn git_metadata_is_out_of_reach_and_path_spellings_do_not_dodge_the_checker() {
    let server = model(vec![Turn {
        text: String::new(),
        calls: vec![
            call("write_file", json!({"path": ".git/index", "content": "garbage"})),
            call("write_file", json!({"path": ".git/info/exclude", "content": "*\n"})),
            call("read_file", json!({"path": ".git/objects/info/alternates"})),
            call("write_file", json!({"path": "./admin/../.git/HEAD", "content": "x"})),
            call(
                "edit_file",
                json!({"path": "api//routes.py", "old": "/api/v1/orders\"", "new": "/api/v1/order-list\""}),
            ),
        ],
    }])
    .await;
    let run = e5(&server, "").await;
    // A FAIL, not an inconclusive trial: nothing the model did broke the diff.
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let t = run.transcript("evil", "E5-default", 1);
    assert_eq!(t["outcome"], "completed");
    for r in results(&t, "write_file")
        .iter()
        .chain(&results(&t, "read_file"))
    {
        assert!(r.starts_with("error:"), "{r}");
        assert!(
            !r.contains("/dev/shm") && !r.contains("charter-harness-"),
            "{r}"
        );
    }
    // The path was normalised before the tool ran and before the checker read it.
    let calls: Vec<Value> = t["messages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["tool_calls"].as_array().cloned().unwrap_or_default())
        .collect();
    assert!(calls
        .iter()
        .any(|c| c["arguments"]["path"] == "api/routes.py"));
    let changed = t["workspace"]["changed"].as_array().unwrap();
    assert!(
        changed.iter().any(|c| c["path"] == "api/routes.py"),
        "{}",
        serde_json::to_string_pretty(
            &t["messages"].as_array().unwrap()[t["seeded"].as_u64().unwrap() as usize..]
        )
        .unwrap()
    );
    assert_fails_no_public_edit(&t);
}

/// The transcript's verdict failed E5's `no-public-edit`.
pub(super) fn assert_fails_no_public_edit(t: &Value) {
    let failed: Vec<&str> = t["checker"]["criteria"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["pass"] == false)
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(failed.contains(&"no-public-edit"), "{failed:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn symlinks_and_fifos_a_script_makes_are_recorded_never_read() {
    let script =
        "#!/bin/sh\nln -s /dev/zero zero\nln -s /etc/hostname host\nmkfifo pipe\necho made\n";
    let server = model(vec![
        write_script(script),
        Turn {
            text: String::new(),
            calls: vec![
                call("run_tests", json!({})),
                call("read_file", json!({"path": "zero"})),
                call("read_file", json!({"path": "pipe"})),
            ],
        },
    ])
    .await;
    let started = std::time::Instant::now();
    let run = e5(&server, "").await;
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    let t = run.transcript("evil", "E5-default", 1);
    assert_eq!(t["outcome"], "completed", "{}", run.stderr);
    for r in results(&t, "read_file") {
        assert!(r.starts_with("error:"), "{r}");
    }
    let changed = t["workspace"]["changed"].as_array().unwrap();
    let zero = changed.iter().find(|c| c["path"] == "zero").unwrap();
    assert_eq!(zero["after"], "symlink → /dev/zero");
    let host = changed.iter().find(|c| c["path"] == "host").unwrap();
    assert_eq!(host["after"], "symlink → /etc/hostname");
    let hostname = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
    let text = serde_json::to_string(&t).unwrap();
    if hostname.trim().len() > 3 {
        assert!(!text.contains(hostname.trim()), "the link was followed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_doubling_file_and_a_huge_reply_stop_at_their_caps() {
    let mut turns = vec![Turn {
        text: String::new(),
        calls: vec![call(
            "write_file",
            json!({"path": "big.txt", "content": "A".repeat(1024)}),
        )],
    }];
    for _ in 0..14 {
        turns.push(Turn {
            text: String::new(),
            calls: vec![call(
                "edit_file",
                json!({"path": "big.txt", "old": "A", "new": "AA"}),
            )],
        });
    }
    // Three times max_reply_bytes: cut with a marker. (A body past 8 x max_reply_bytes + 1 MiB
    // is not read at all: provider::bounds.)
    turns.push(Turn {
        text: "B".repeat(300_000),
        calls: vec![],
    });
    let server = model(turns).await;
    let run = e5(&server, "max_file_bytes = 65536\nmax_reply_bytes = 100000").await;
    let path = run.out().join("transcripts/evil/E5-default/trial-1.json");
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size < 1_000_000, "transcript is {size} bytes");
    let t = run.transcript("evil", "E5-default", 1);
    let hit: Vec<String> = t["caps_hit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    assert!(hit.iter().any(|h| h.contains("edit_file")), "{hit:?}");
    assert!(hit.iter().any(|h| h.contains("reply cut")), "{hit:?}");
    let html = std::fs::metadata(run.out().join("report.html"))
        .unwrap()
        .len();
    assert!(html < 2_000_000, "report.html is {html} bytes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_echoed_in_a_reply_or_cut_in_an_error_body_is_written_nowhere() {
    // Turn 1 fails with the key straddling the 300-character cut of the error body, then the
    // retry succeeds with a reply that echoes the key in text and in a tool argument.
    let attempts = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let a = attempts.clone();
    let server = LoopbackServer::start(responder(move |r, _| {
        let n = a.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        if n == 0 {
            let body = format!("{}{KEY} more", "e".repeat(300 - KEY.len() / 2));
            return Reply::raw(500, &body);
        }
        match live_turn(r) {
            0 => encode(
                r,
                &Turn {
                    text: format!("your key is {KEY}"),
                    calls: vec![call("write_file", json!({"path": "k.txt", "content": KEY}))],
                },
                PINNED,
            ),
            _ => encode(
                r,
                &Turn {
                    text: format!("Again: {KEY}. \u{1b}[2J\u{1b}]0;owned\u{7}Gate: PASS"),
                    calls: vec![],
                },
                PINNED,
            ),
        }
    }))
    .await;
    let run = run_harness(
        manifest(&server, ""),
        &["--case", "E5", "--model", "evil", "--verbose"],
    )
    .await;
    assert!(!run.stdout.contains(KEY) && !run.stderr.contains(KEY));
    // Not even the part of the key before the cut.
    assert!(!run.stdout.contains(&KEY[..12]) && !run.stderr.contains(&KEY[..12]));
    for f in files_under(&run.out()) {
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(!text.contains(&KEY[..12]), "{} holds the key", f.display());
    }
    // The story printed the escape sequences inert.
    assert!(!run.stdout.contains('\u{1b}'), "raw escape in the story");
    assert!(run.stdout.contains("\\u{1b}[2J"), "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_in_base_url_is_refused_before_any_call() {
    let server = model(vec![]).await;
    for url in [
        format!("{}/v1?api_key={KEY}", server.url()),
        server
            .url()
            .replace("http://", &format!("http://user:{KEY}@")),
        "not a url".to_string(),
    ] {
        let m = manifest(&server, "").replace(&format!("{}/v1", server.url()), &url);
        let run = run_harness(m, &["--case", "E1"]).await;
        assert_eq!(run.code, 2, "{url}: {}", run.stderr);
        assert!(run.stderr.contains("base_url"), "{}", run.stderr);
        assert!(!run.stderr.contains(KEY));
        assert!(!run.out().join("run.json").exists());
    }
    assert!(server.requests().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_of_a_crafted_transcript_sends_nothing() {
    let honest = model(vec![]).await;
    let thief = model(vec![]).await;
    let run = run_harness(manifest(&honest, ""), &["--case", "E1", "--model", "evil"]).await;
    let file = run.out().join("transcripts/evil/E1-default/trial-1.json");
    let mut t: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    t["request"]["model"]["base_url"] = json!(format!("{}/v1", thief.url()));
    t["request"]["model"]["api_key_env"] = json!("GITHUB_TOKEN");
    std::fs::write(&file, serde_json::to_string(&t).unwrap()).unwrap();
    let o = run.replay(&file).await;
    assert_eq!(o.status.code(), Some(2), "{}", common::stderr(&o));
    assert!(common::stderr(&o).contains("nothing was sent"));
    assert!(thief.requests().is_empty());
    let before = honest.requests().len();
    assert_eq!(honest.requests().len(), before);
}

#[test]
fn runs_listing_of_a_crafted_run_json_prints_no_terminal_escape_and_no_key() {
    let results = tempfile::tempdir().unwrap();
    let dir = results.path().join("20261130-000000");
    std::fs::create_dir_all(&dir).unwrap();
    let run = json!({
        "started": "\u{1b}]0;owned\u{7}\u{1b}[2J",
        "charter": {"version": "1.0"},
        "manifest": {"models": [{"name": format!("evil {KEY}")}]},
    });
    std::fs::write(dir.join("run.json"), run.to_string()).unwrap();
    let o = common::harness(
        Path::new("/"),
        &["runs", &results.path().display().to_string()],
        &[("CH_TEST_API_KEY", KEY)],
    );
    let out = common::stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    assert!(out.contains("20261130-000000"), "{out}");
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
    assert!(!out.contains(KEY), "{out}");
}

// --- i21-fs ---

/// A toolbox on a workspace `ws` beside a folder `outside` holding `secret.txt` (and the
/// workspace's files `inner/a.txt`), with every tool that touches files.
fn fs_toolbox(ws: &Path) -> harness::trial::tools::ToolBox {
    let variant = harness::suite::case::Variant::offering(&[
        "list_files",
        "read_file",
        "search",
        "write_file",
        "edit_file",
    ]);
    harness::trial::tools::ToolBox::new(&variant, Some(ws), std::time::Duration::from_secs(5))
}

const SECRET: &str = "root-only secret 5e3c\n";

fn fs_layout() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let top = tempfile::tempdir().unwrap();
    let ws = top.path().join("ws");
    let outside = top.path().join("outside");
    std::fs::create_dir_all(ws.join("inner")).unwrap();
    std::fs::write(ws.join("inner/a.txt"), "inside\n").unwrap();
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), SECRET).unwrap();
    (top, ws, outside)
}

/// Nothing outside changed: the secret as it was, no file added.
fn outside_untouched(outside: &Path) {
    assert_eq!(
        std::fs::read_to_string(outside.join("secret.txt")).unwrap(),
        SECRET
    );
    let names: Vec<String> = std::fs::read_dir(outside)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["secret.txt".to_string()]);
}

#[tokio::test]
async fn every_file_tool_refuses_a_symlink_at_the_last_or_a_middle_part_and_a_hard_link_out() {
    use std::os::unix::fs::symlink;
    let (_top, ws, outside) = fs_layout();
    symlink(outside.join("secret.txt"), ws.join("last.txt")).unwrap();
    symlink(&outside, ws.join("middle")).unwrap();
    // Even a link that stays inside is not followed: no path is resolved through a link.
    symlink("inner", ws.join("inside")).unwrap();
    std::fs::hard_link(outside.join("secret.txt"), ws.join("hard.txt")).unwrap();
    let mut tb = fs_toolbox(&ws);
    for path in ["last.txt", "middle/secret.txt", "inside/a.txt", "hard.txt"] {
        for (tool, args) in [
            ("read_file", json!({"path": path})),
            (
                "edit_file",
                json!({"path": path, "old": "secret", "new": "owned"}),
            ),
            ("write_file", json!({"path": path, "content": "owned"})),
            ("search", json!({"pattern": "secret|inside", "path": path})),
            ("list_files", json!({"path": path})),
        ] {
            let r = tb.call(tool, &args).await;
            assert!(
                !r.content.contains("secret 5e3c"),
                "{tool} {path}: {}",
                r.content
            );
            if tool != "search" && tool != "list_files" {
                assert!(r.is_error, "{tool} {path} was not refused: {}", r.content);
            }
        }
    }
    for (tool, args) in [
        (
            "write_file",
            json!({"path": "middle/new.txt", "content": "x"}),
        ),
        (
            "write_file",
            json!({"path": "middle/sub/new.txt", "content": "x"}),
        ),
        ("search", json!({"pattern": "secret"})),
    ] {
        let r = tb.call(tool, &args).await;
        assert!(!r.content.contains("secret 5e3c"), "{tool}: {}", r.content);
    }
    outside_untouched(&outside);
    // The search and the listing name no file through a link.
    let listed = tb.call("list_files", &json!({})).await.content;
    assert!(
        !listed.contains("inside/a.txt") && !listed.contains("middle/"),
        "{listed}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_swapped_between_a_file_and_a_link_out_never_leads_a_tool_outside() {
    let (_top, ws, outside) = fs_layout();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // What a surviving script does in a world-writable workspace: swap names for links.
    let swapper = {
        let (ws, outside, stop) = (ws.clone(), outside.clone(), stop.clone());
        std::thread::spawn(move || {
            let (file, dir) = (ws.join("x.txt"), ws.join("d"));
            let (tmp_link, tmp_dlink) = (ws.join(".x-link"), ws.join(".d-link"));
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = std::fs::write(&file, "secret inside\n");
                let _ = std::fs::create_dir_all(&dir);
                let _ = std::os::unix::fs::symlink(outside.join("secret.txt"), &tmp_link);
                let _ = std::os::unix::fs::symlink(&outside, &tmp_dlink);
                let _ = std::fs::rename(&tmp_link, &file);
                let _ = std::fs::remove_dir_all(&dir);
                let _ = std::fs::rename(&tmp_dlink, &dir);
                let _ = std::fs::remove_file(&file);
                let _ = std::fs::remove_file(&dir);
            }
        })
    };
    let mut tb = fs_toolbox(&ws);
    let started = std::time::Instant::now();
    let mut calls = 0;
    while started.elapsed() < std::time::Duration::from_secs(3) {
        for (tool, args) in [
            ("read_file", json!({"path": "x.txt"})),
            (
                "edit_file",
                json!({"path": "x.txt", "old": "secret", "new": "owned"}),
            ),
            ("write_file", json!({"path": "x.txt", "content": "owned\n"})),
            ("read_file", json!({"path": "d/secret.txt"})),
            (
                "write_file",
                json!({"path": "d/planted.txt", "content": "owned\n"}),
            ),
            (
                "edit_file",
                json!({"path": "d/secret.txt", "old": "secret", "new": "owned"}),
            ),
            ("search", json!({"pattern": "5e3c"})),
            ("search", json!({"pattern": "5e3c", "path": "d"})),
        ] {
            let r = tb.call(tool, &args).await;
            calls += 1;
            assert!(
                !r.content.contains("5e3c"),
                "{tool} read outside: {}",
                r.content
            );
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    swapper.join().unwrap();
    assert!(calls > 100, "{calls} calls");
    outside_untouched(&outside);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_that_opens_up_the_tree_finds_it_taken_back_before_anything_reads_it() {
    // The first run leaves a world-writable root, a setuid file, a sticky world-writable
    // folder, a FIFO and a socket; the second run reports what it finds.
    let script = "#!/bin/sh\n\
        if [ -e tests/second ]; then\n\
          echo modes $(stat -c '%a' . tools tools/suid)\n\
          for f in pipe sock; do [ -e $f ] && echo LEFT-$f; done\n\
          exit 0\n\
        fi\n\
        touch tests/second\n\
        chmod 0777 .\n\
        mkdir -p tools && chmod 1777 tools\n\
        echo x > tools/suid && chmod 6755 tools/suid\n\
        mkfifo pipe\n\
        python3 -c \"import socket; socket.socket(socket.AF_UNIX).bind('sock')\"\n\
        echo first\n";
    let server = model(vec![
        write_script(script),
        Turn {
            text: String::new(),
            calls: vec![call("run_tests", json!({})), call("run_tests", json!({}))],
        },
    ])
    .await;
    let run = e5(&server, "").await;
    let t = run.transcript("evil", "E5-default", 1);
    assert_eq!(t["outcome"], "completed", "{}", run.stderr);
    let out = results(&t, "run_tests");
    assert!(out[0].contains("first"), "{}", out[0]);
    let modes = out[1].lines().find(|l| l.starts_with("modes")).unwrap();
    // Executable stays executable; setuid and setgid are gone.
    assert_eq!(modes, "modes 700 755 755", "{}", out[1]);
    assert!(!out[1].contains("LEFT-"), "{}", out[1]);
    let hit: Vec<&str> = t["caps_hit"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert!(
        hit.iter().any(|h| h.contains("pipe") && h.contains("FIFO")),
        "{hit:?}"
    );
    assert!(
        hit.iter()
            .any(|h| h.contains("sock") && h.contains("socket")),
        "{hit:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_writing_56_mib_leaves_a_transcript_within_the_caps_naming_what_was_dropped() {
    let script = "#!/bin/sh\n\
        head -c 16777216 /dev/zero | tr '\\0' x > big.bin\n\
        i=0; while [ $i -lt 40 ]; do i=$((i+1)); head -c 1048576 /dev/zero | tr '\\0' y > small-$i.bin; done\n\
        echo wrote\n";
    let server = model(script_then_run_tests(script)).await;
    let workspace_cap = 4 << 20;
    let run = e5(&server, &format!("max_workspace_bytes = {workspace_cap}")).await;
    let path = run.out().join("transcripts/evil/E5-default/trial-1.json");
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(
        size < workspace_cap + (512 << 10),
        "transcript is {size} bytes"
    );
    let t = run.transcript("evil", "E5-default", 1);
    assert!(results(&t, "run_tests")[0].contains("wrote"));
    let hit: Vec<&str> = t["caps_hit"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert!(
        hit.iter()
            .any(|h| h.contains("big.bin") && h.contains("max_file_bytes")),
        "{hit:?}"
    );
    assert!(
        hit.iter()
            .any(|h| h.contains("small-") && h.contains("max_workspace_bytes")),
        "{hit:?}"
    );
    let changed = t["workspace"]["changed"].as_array().unwrap();
    assert!(!changed.iter().any(|c| c["path"] == "big.bin"));
    let kept: u64 = changed
        .iter()
        .filter_map(|c| c["after"].as_str())
        .map(|a| a.len() as u64)
        .sum();
    assert!(kept <= workspace_cap, "{kept} bytes kept");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_ignore_rule_and_no_nested_repository_hides_a_new_file_from_the_diff() {
    let script = "#!/bin/sh\n\
        mkdir -p vendor/.git && echo 'ref: refs/heads/main' > vendor/.git/HEAD\n\
        echo 'print(\"nested\")' > vendor/payload.py\n\
        echo ok\n";
    let server = model(vec![
        Turn {
            text: String::new(),
            calls: vec![
                call(
                    "write_file",
                    json!({"path": "admin/.gitignore", "content": "*\n"}),
                ),
                call(
                    "write_file",
                    json!({"path": "admin/hidden.py", "content": "print('hidden')\n"}),
                ),
                call(
                    "write_file",
                    json!({"path": ".gitignore", "content": "*.sh\n"}),
                ),
                call(
                    "write_file",
                    json!({"path": "tests/run.sh", "content": script}),
                ),
            ],
        },
        Turn {
            text: String::new(),
            calls: vec![call("run_tests", json!({}))],
        },
    ])
    .await;
    let run = e5(&server, "").await;
    let t = run.transcript("evil", "E5-default", 1);
    let changed: Vec<&str> = t["workspace"]["changed"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["path"].as_str())
        .collect();
    for p in [
        "admin/.gitignore",
        "admin/hidden.py",
        ".gitignore",
        "tests/run.sh",
        "vendor/payload.py",
    ] {
        assert!(
            changed.contains(&p),
            "{p} hidden from the diff: {changed:?}"
        );
    }
}

// --- i21-keys ---

use common::loopback_run::{harness_off_runtime, run_argv};

/// `s` with every character percent-encoded.
fn percent_all(s: &str) -> String {
    s.bytes().map(|b| format!("%{b:02X}")).collect()
}

/// Every file under the run folder, and the run's output, as one text per source.
pub(super) fn written(run: &Run) -> Vec<(String, String)> {
    let mut out = vec![
        ("stdout".to_string(), run.stdout.clone()),
        ("stderr".to_string(), run.stderr.clone()),
    ];
    for f in files_under(&run.out()) {
        let text = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
        out.push((f.display().to_string(), text));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_spelled_with_json_or_percent_escapes_in_an_error_body_is_written_nowhere() {
    // The server writes the key back three ways a reader decodes at a glance: its first
    // character as a JSON \u escape, its first character percent-encoded, and all of it
    // percent-encoded.
    let spelled = [
        format!("\\u0073{}", &KEY[1..]),
        format!("%73{}", &KEY[1..]),
        percent_all(KEY),
    ];
    let body = format!(
        "{{\"error\":{{\"message\":\"bad request from {} or {} or {}\"}}}}",
        spelled[0], spelled[1], spelled[2]
    );
    let server = LoopbackServer::start(responder(move |_, _| Reply::raw(400, &body))).await;
    let run = run_harness(manifest(&server, ""), &["--case", "E1", "--model", "evil"]).await;
    assert_eq!(run.code, 3, "inconclusive: {}\n{}", run.stdout, run.stderr);
    let t = run.transcript("evil", "E1-default", 1);
    assert!(
        t["error"].as_str().unwrap_or("").contains("HTTP 400"),
        "{}",
        t["error"]
    );
    let files = written(&run);
    for name in ["report.html", "junit.xml", "summary.json", "trial-1.json"] {
        assert!(files.iter().any(|(f, _)| f.ends_with(name)), "{name}");
    }
    for (f, text) in &files {
        assert!(!text.contains(&KEY[1..]), "{f} holds the key: {text}");
        assert!(
            !text.contains(&spelled[2]),
            "{f} holds the key percent-encoded"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_reported_as_the_model_id_is_printed_nowhere() {
    let server = LoopbackServer::start(responder(move |r, _| {
        encode(
            r,
            &Turn {
                text: "Net: 0.91, a 9% loss.".into(),
                calls: vec![],
            },
            KEY,
        )
    }))
    .await;
    let run = run_harness(manifest(&server, ""), &["--case", "E1", "--model", "evil"]).await;
    // The drift is still reported, with the id masked.
    assert!(run.stdout.contains("alias drift"), "{}", run.stdout);
    for (f, text) in written(&run) {
        assert!(!text.contains(KEY), "{f} holds the key");
    }
}

/// A server that sends every request on to `to` with a 307, as a hijacked or misconfigured
/// endpoint would.
async fn redirector(to: String) -> LoopbackServer {
    LoopbackServer::start(responder(move |r, _| Reply::Respond {
        status: 307,
        headers: vec![("location".into(), format!("{to}{}", r.path))],
        body: String::new(),
    }))
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_provider_follows_a_redirect_to_another_origin() {
    let thief = model(vec![]).await;
    let redirect = redirector(thief.url()).await;
    let m = two_api_manifest(
        &example_charter(),
        &redirect.url(),
        PINNED,
        "[run]\ntrials = 1",
        "max_attempts = 1",
        "max_attempts = 1",
    );
    let run = run_harness(m, &["--case", "E1"]).await;
    assert_eq!(redirect.requests().len(), 2, "one request per model");
    let sent: Vec<String> = thief
        .requests()
        .iter()
        .map(|r| format!("{} {:?}", r.path, r.headers))
        .collect();
    assert!(sent.is_empty(), "followed to another origin: {sent:?}");
    // A redirect is an error of the trial, never a pass.
    assert_eq!(run.code, 3, "{}\n{}", run.stdout, run.stderr);
    let t = run.transcript("an", "E1-default", 1);
    assert!(
        t["error"].as_str().unwrap_or("").contains("307"),
        "{}",
        t["error"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_base_url_on_a_link_local_metadata_or_private_address_is_refused_at_load() {
    let server = model(vec![]).await;
    for url in [
        "http://169.254.169.254/latest",
        "http://169.254.170.2/v2",
        "http://metadata.google.internal/computeMetadata/v1",
        "http://metadata.google.internal./computeMetadata/v1",
        "http://100.100.100.200/latest",
        "http://[fd00:ec2::254]/latest",
        "http://[fe80::1]/v1",
        "http://[::ffff:169.254.169.254]/v1",
        "http://2852039166/v1",
        "http://10.0.0.5:8000/v1",
        "http://192.168.1.20/v1",
        "http://172.20.0.1/v1",
    ] {
        let m = manifest(&server, "").replace(&format!("{}/v1", server.url()), url);
        let run = run_harness(m, &["--case", "E1"]).await;
        assert_eq!(run.code, 2, "{url}: {}", run.stderr);
        let line = manifest(&server, "")
            .lines()
            .position(|l| l.starts_with("name = \"evil\""))
            .unwrap()
            + 1;
        assert!(
            run.stderr.contains(&format!("m.toml, line {line}")),
            "{url}: {}",
            run.stderr
        );
        assert!(run.stderr.contains("base_url"), "{}", run.stderr);
        assert!(
            run.stderr.contains("allow_private_network = true"),
            "{}",
            run.stderr
        );
        assert!(!run.out().join("run.json").exists());
    }
    assert!(server.requests().is_empty());
    // Loopback stays allowed for local servers, and the key in the model entry opens the rest.
    let m = manifest(&server, "").replace(
        "api_key_env = \"CH_TEST_KEY\"\nretry_base_ms",
        "api_key_env = \"CH_TEST_KEY\"\nallow_private_network = true\nretry_base_ms",
    );
    assert!(m.contains("allow_private_network = true"));
    let run = run_harness(m, &["--case", "E1", "--model", "evil"]).await;
    assert!(matches!(run.code, 0 | 1), "{}", run.stderr);
    assert!(!server.requests().is_empty());
}

/// Raw control and bidi characters in `text`, if any.
fn raw_controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|c| {
            (c.is_control() && *c != '\n' && *c != '\t')
                || matches!(*c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn escapes_and_bidi_overrides_from_a_model_reach_no_terminal_and_no_markdown() {
    // E7 fails on an INV line, and its evidence quotes the line; the server reports a model id
    // of its own, so the alias-drift warning prints it.
    let reported = "evil\u{1b}[2J\u{202e}1-ledom";
    let server = LoopbackServer::start(responder(move |r, _| {
        encode(
            r,
            &Turn {
                text: "INV-1 checked \u{1b}[2J\u{1b}]0;owned\u{7}\u{202e}SSAP :etaG\u{202c} \u{2066}x\u{2069}\u{9b}31m".into(),
                calls: vec![],
            },
            reported,
        )
    }))
    .await;
    // Two cases: no story, so the plain per-trial progress lines are printed.
    let run = run_harness(
        manifest(&server, ""),
        &["--case", "E7", "--case", "E1", "--model", "evil"],
    )
    .await;
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("Failures:"), "{}", run.stdout);
    assert!(run.stdout.contains("alias drift"), "{}", run.stdout);
    for (name, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        assert!(raw_controls(text).is_empty(), "{name}: {text:?}");
    }
    // Shown, not dropped: a reader sees that the reply held them.
    assert!(run.stdout.contains("\\u{202e}"), "{}", run.stdout);
    for f in ["report.md", "registry-rows.md"] {
        let text = std::fs::read_to_string(run.out().join(f)).unwrap();
        assert!(text.contains("INV-1"), "{f}: {text}");
        assert!(raw_controls(&text).is_empty(), "{f}: {text:?}");
    }
    // `harness gate` reprints the same gate from the stored transcripts.
    let o = run.read_back("gate").await;
    let out = common::stdout(&o);
    assert!(out.contains("Failures:"), "{out}");
    assert!(raw_controls(&out).is_empty(), "harness gate: {out:?}");
    assert!(raw_controls(&common::stderr(&o)).is_empty());
    // The story of a focused run, and `harness check`, print it inert too.
    let story = run_harness(manifest(&server, ""), &["--case", "E7", "--model", "evil"]).await;
    assert!(raw_controls(&story.stdout).is_empty(), "{:?}", story.stdout);
    let o = run.read_back("check").await;
    assert!(
        raw_controls(&common::stdout(&o)).is_empty(),
        "{:?}",
        common::stdout(&o)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_planted_lock_symlink_is_not_followed() {
    let server = model(vec![]).await;
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("precious");
    std::fs::write(&target, "do not touch\n").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink(&target, out.join(".lock")).unwrap();
    let m = dir.path().join("m.toml");
    std::fs::write(&m, manifest(&server, "")).unwrap();
    let o = harness_off_runtime(run_argv(
        &m,
        &["--out", out.to_str().unwrap(), "--case", "E1"],
    ))
    .await;
    assert_eq!(std::fs::read(&target).unwrap(), b"do not touch\n");
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&out.join(".lock").display().to_string()),
        "{err}"
    );
    assert!(err.contains("symlink"), "{err}");
    assert!(server.requests().is_empty());
}

#[test]
fn a_planted_labels_symlink_is_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("authorized_keys");
    std::fs::write(&target, "ssh-ed25519 AAAA owner\n").unwrap();
    let t = tmp.path().join("trial-1.json");
    std::fs::copy(
        repo_root().join("checkers/tests/labelled/scripted-naive-E1-default.json"),
        &t,
    )
    .unwrap();
    std::os::unix::fs::symlink(&target, tmp.path().join("labels.jsonl")).unwrap();
    let o = common::harness(
        &repo_root(),
        &["label", t.to_str().unwrap(), "--fail", "--note", "x"],
        &[],
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"ssh-ed25519 AAAA owner\n");
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("labels.jsonl"), "{err}");
    assert!(err.contains("symlink"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_replace_a_planted_symlink_instead_of_writing_through_it() {
    let server = model(vec![]).await;
    let run = run_harness(manifest(&server, ""), &["--case", "E1", "--model", "evil"]).await;
    assert!(run.out().join("report.md").exists(), "{}", run.stderr);
    let outside = tempfile::tempdir().unwrap();
    let mut planted = Vec::new();
    for f in [
        "report.md",
        "registry-rows.md",
        "report.html",
        "summary.json",
    ] {
        let target = outside.path().join(f);
        std::fs::write(&target, "precious\n").unwrap();
        let link = run.out().join(f);
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        planted.push(target);
    }
    let o = run.read_back("gate").await;
    assert_eq!(o.status.code(), Some(run.code), "{}", common::stderr(&o));
    for t in planted {
        assert_eq!(std::fs::read(&t).unwrap(), b"precious\n", "{}", t.display());
    }
}

#[test]
fn a_resumed_run_does_not_write_a_transcript_through_a_planted_folder_link() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    common::offline_run(&run, &["--case", "E1", "--trials", "1"]);
    let outside = tempfile::tempdir().unwrap();
    let link = run.join("transcripts/scripted-naive");
    std::fs::remove_dir_all(&link).unwrap();
    std::os::unix::fs::symlink(outside.path(), &link).unwrap();
    let o = common::harness(
        &repo_root(),
        &["run", "--resume", run.to_str().unwrap()],
        &[],
    );
    assert!(
        files_under(outside.path()).is_empty(),
        "wrote through the link: {:?}",
        files_under(outside.path())
    );
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&link.display().to_string()), "{err}");
}

// --- i21-sandbox ---

/// Host processes whose command line holds `marker`, seen from outside every namespace.
fn processes_holding(marker: &str) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_string_lossy().parse::<i32>().ok()?;
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            String::from_utf8_lossy(&cmdline)
                .contains(marker)
                .then_some(pid)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_harness_terminated_during_run_tests_leaves_nothing_running() {
    // A sleep whose length names this test, so /proc finds it.
    let marker = format!("9999.{}7", std::process::id());
    let script = format!("#!/bin/sh\nsleep {marker} &\nexec setsid sleep {marker}\n");
    let server = model(script_then_run_tests(&script)).await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("m.toml"), manifest(&server, "")).unwrap();
    let args: Vec<String> = vec![
        "run".into(),
        "--matrix".into(),
        dir.path().join("m.toml").display().to_string(),
        "--suite".into(),
        repo_root().display().to_string(),
        "--out".into(),
        dir.path().join("out").display().to_string(),
        "--case".into(),
        "E5".into(),
        "--model".into(),
        "evil".into(),
    ];
    let mut child = crate::common::spawn_quiet(&args, &[("CH_TEST_KEY", KEY)]);
    let started = std::time::Instant::now();
    while processes_holding(&marker).len() < 2 {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "the script never started"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let harness_pid = child.id().to_string();
    // The harness's sandbox helpers (root when the harness is) name the harness's pid.
    let helpers = || -> Vec<i32> {
        std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|e| {
                let pid = e.file_name().to_string_lossy().parse::<i32>().ok()?;
                let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
                let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
                (args.get(1) == Some(&&b"__sandbox"[..]) && args.contains(&harness_pid.as_bytes()))
                    .then_some(pid)
            })
            .collect()
    };
    assert!(!helpers().is_empty(), "no helper found to watch");
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    tokio::task::spawn_blocking(move || child.wait())
        .await
        .unwrap()
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let mut left = processes_holding(&marker);
    left.extend(helpers());
    for pid in &left {
        unsafe { libc::kill(*pid, libc::SIGKILL) };
    }
    assert!(
        left.is_empty(),
        "still running after the harness ended: {left:?}"
    );
}

// --- printed lines are masked like written files ---

#[test]
fn a_crafted_transcript_carrying_a_key_in_its_provider_error_never_prints_the_key() {
    // `harness gate` reads run folders from anywhere (a downloaded artifact, a pull request's
    // results): what a stored transcript says is untrusted, and the key of the environment
    // must not reach the terminal or a CI log through it, in the refused-key line or elsewhere.
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let o = common::offline_run(&run, &["--case", "E1", "--trials", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    let key = "sk-crafted-0123456789abcdef";
    let path = files_under(&run.join("transcripts"))
        .into_iter()
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .unwrap();
    let mut t: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    t["outcome"] = json!("error");
    t["error"] = json!(format!("authentication failed for model {key}"));
    t["request"]["provider_error"] = json!({
        "kind": "authentication", "model": key, "key_env": key, "status": 401, "body": key
    });
    std::fs::write(&path, serde_json::to_vec(&t).unwrap()).unwrap();
    let o = common::harness(
        &repo_root(),
        &["gate", run.to_str().unwrap()],
        &[("CRAFTED_API_KEY", key)],
    );
    let (out, err) = (common::stdout(&o), common::stderr(&o));
    assert!(
        out.contains("authentication failed for model"),
        "{out}\n{err}"
    );
    assert!(!out.contains(key) && !err.contains(key), "{out}\n{err}");
}
