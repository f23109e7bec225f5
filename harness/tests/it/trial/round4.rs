//! Containment, round four (issue 41): socket families, the command record inside its bound,
//! one uid per live command, what a resume or a label may overwrite, the files a suite names.

use super::sandbox::sh;
use crate::common;

// 1. Socket families.

/// Whether this kernel opens AF_VSOCK at all (outside the sandbox).
fn kernel_has_vsock() -> bool {
    let fd = unsafe { libc::socket(libc::AF_VSOCK, libc::SOCK_STREAM, 0) };
    if fd >= 0 {
        unsafe { libc::close(fd) };
    }
    fd >= 0
}

#[test]
fn a_script_cannot_open_vsock_packet_or_uevent_netlink_sockets_but_unix_inet_and_routes_work() {
    let ws = tempfile::tempdir().unwrap();
    let probe = r#"import socket, errno
def try_open(name, *args):
    try:
        s = socket.socket(*args)
        if name == "vsock":
            s.bind((socket.VMADDR_CID_ANY, 5555)); s.listen(1)
        print(name, "OPENED"); s.close()
    except OSError as e:
        print(name, "errno=%d" % e.errno)
try_open("vsock", socket.AF_VSOCK, socket.SOCK_STREAM)
try_open("uevent", socket.AF_NETLINK, socket.SOCK_RAW, 15)
try_open("audit", socket.AF_NETLINK, socket.SOCK_RAW, 9)
try_open("packet", socket.AF_PACKET, socket.SOCK_RAW, 0)
try_open("route", socket.AF_NETLINK, socket.SOCK_RAW, 0)
try_open("unix", socket.AF_UNIX, socket.SOCK_STREAM)
try_open("inet", socket.AF_INET, socket.SOCK_STREAM)
try_open("inet6", socket.AF_INET6, socket.SOCK_DGRAM)
a, b = socket.socketpair(); a.send(b"x"); print("pair", b.recv(1).decode())
print("resolved", socket.getaddrinfo("127.0.0.1", 80, flags=socket.AI_ADDRCONFIG) is not None)
"#;
    std::fs::write(ws.path().join("probe.py"), probe).unwrap();
    let o = sh(ws.path(), "python3 probe.py 2>&1\n", 20);
    let eafnosupport = format!("errno={}", libc::EAFNOSUPPORT);
    for name in ["uevent", "audit", "packet"] {
        assert!(
            o.stdout.contains(&format!("{name} {eafnosupport}\n")),
            "{name}: {o:?}"
        );
    }
    if kernel_has_vsock() {
        assert!(
            o.stdout.contains(&format!("vsock {eafnosupport}\n")),
            "{o:?}"
        );
    } else {
        eprintln!("note: this kernel has no AF_VSOCK; the live vsock probe is skipped (the BPF evaluator test covers it)");
    }
    for name in ["route", "unix", "inet", "inet6"] {
        assert!(
            o.stdout.contains(&format!("{name} OPENED\n")),
            "{name}: {o:?}"
        );
    }
    assert!(o.stdout.contains("pair x\n"), "{o:?}");
    assert!(o.stdout.contains("resolved True\n"), "{o:?}");
}

// 3. One uid per live command.

#[test]
fn no_command_shares_a_uid_with_one_still_running_even_seventy_commands_later() {
    use harness::trial::sandbox::{self, Limits, Mode};
    use std::time::Duration;
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("note: not root: every command runs in a user namespace of its own; skipped");
        return;
    }
    sandbox::set_helper(env!("CARGO_BIN_EXE_harness"));
    let (long, short) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let limits = Limits {
        timeout: Duration::from_secs(60),
        ..Limits::default()
    };
    let (held, later) = super::sandbox::rt().block_on(async {
        let wait = "id -u > uid.txt; while [ ! -e done ]; do sleep 0.05; done; id -u";
        let wait = ["-c".to_string(), wait.to_string()];
        let first = sandbox::run("sh", &wait, long.path(), &limits, Mode::Confined);
        let others = async {
            while !long.path().join("uid.txt").exists() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            let mut uids = Vec::new();
            let id = ["-u".to_string()];
            for _ in 0..70 {
                let o = sandbox::run("id", &id, short.path(), &limits, Mode::Confined);
                uids.push(o.await.unwrap().stdout.trim().to_string());
            }
            std::fs::write(long.path().join("done"), "").unwrap();
            uids
        };
        let (first, uids) = tokio::join!(first, others);
        (first.unwrap().stdout.trim().to_string(), uids)
    });
    assert!(!held.is_empty() && later.len() == 70, "{held:?} {later:?}");
    let shared = later.iter().filter(|u| **u == held).count();
    assert_eq!(
        shared, 0,
        "uid {held} of a live command given out again: {later:?}"
    );
}

// 2. The command record inside the transcript's bound.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_rewriting_a_thousand_long_named_files_five_times_stays_inside_max_transcript_bytes(
) {
    use super::hostile::{call, e5, model, write_script};
    use common::model_server::Turn;
    use serde_json::json;
    let long = "n".repeat(200);
    let script = format!(
        "#!/bin/sh\nmkdir -p long\nn=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count\n\
         i=0; while [ $i -lt 1000 ]; do i=$((i+1)); echo $n > long/{long}$i; done\necho pass\n"
    );
    let mut turns = vec![write_script(&script)];
    for _ in 0..5 {
        turns.push(Turn {
            text: String::new(),
            calls: vec![call("run_tests", json!({}))],
        });
    }
    let server = model(turns).await;
    let bound: u64 = 1 << 20;
    let run = e5(&server, &format!("max_transcript_bytes = {bound}")).await;
    let t = run.transcript("evil", "E5-default", 1);
    let size = std::fs::metadata(run.out().join("transcripts/evil/E5-default/trial-1.json"))
        .unwrap()
        .len();
    // The diff against the fixture is bounded by max_workspace_bytes and max_files on its own
    // (a quarter more for the indentation it is written with).
    let pretty = |v: &serde_json::Value| serde_json::to_vec_pretty(v).unwrap().len() as u64;
    let diff = pretty(&t["workspace"]["changed"]) * 5 / 4;
    let records = pretty(&t["workspace"]["after_commands"]);
    assert!(records <= bound, "the command records hold {records} bytes");
    assert!(
        size <= bound + diff + (64 << 10),
        "transcript {size} bytes, the diff {diff}, the records {records}"
    );
    let hit = t["caps_hit"].to_string();
    assert!(
        hit.contains("command record") && hit.contains("of 1001 changed paths"),
        "{hit}"
    );
    let first = &t["workspace"]["after_commands"][0]["changed"];
    assert!(
        first.as_array().is_some_and(|c| !c.is_empty()),
        "the record keeps its first entries: {first}"
    );
    assert_eq!(t["outcome"], "error", "{}", t["error"]);
    assert!(
        t["error"]
            .as_str()
            .unwrap_or("")
            .contains("max_transcript_bytes"),
        "{}",
        t["error"]
    );
}

// 4. The command record walks what the diff walks.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_under_a_nested_git_folder_is_in_the_command_record_as_in_the_diff() {
    use super::hostile::{e5, model, script_then_run_tests};
    let script = "#!/bin/sh\nmkdir -p sub/.git deep/er/.git\necho planted > sub/.git/payload\n\
                  echo x > deep/er/.git/config\necho pass\n";
    let server = model(script_then_run_tests(script)).await;
    let run = e5(&server, "").await;
    let t = run.transcript("evil", "E5-default", 1);
    let paths = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c["path"].as_str().unwrap().to_string())
            .collect()
    };
    let diff = paths(&t["workspace"]["changed"]);
    let record = paths(&t["workspace"]["after_commands"][0]["changed"]);
    for p in ["sub/.git/payload", "deep/er/.git/config"] {
        assert!(diff.iter().any(|d| d == p), "{p} not in the diff: {diff:?}");
        assert!(
            record.iter().any(|d| d == p),
            "{p} not in the record: {record:?}"
        );
    }
    let script_path = "tests/run.sh".to_string();
    let mut from_diff: Vec<&String> = diff.iter().filter(|p| **p != script_path).collect();
    from_diff.sort();
    let mut from_record: Vec<&String> = record.iter().collect();
    from_record.sort();
    assert_eq!(
        from_record, from_diff,
        "the record and the diff walk different trees"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_workspace_diff_counts_against_max_transcript_bytes_too() {
    use super::hostile::{e5, model, script_then_run_tests};
    let script = "#!/bin/sh\ni=0; while [ $i -lt 10 ]; do i=$((i+1)); head -c 100000 /dev/zero | tr '\\0' d > data-$i.txt; done\necho pass\n";
    let server = model(script_then_run_tests(script)).await;
    let bound: u64 = 256 << 10;
    let run = e5(&server, &format!("max_transcript_bytes = {bound}")).await;
    let t = run.transcript("evil", "E5-default", 1);
    let size = std::fs::metadata(run.out().join("transcripts/evil/E5-default/trial-1.json"))
        .unwrap()
        .len();
    assert!(size <= bound + (32 << 10), "transcript {size} bytes");
    let hit = t["caps_hit"].to_string();
    assert!(
        hit.contains("workspace.changed") && hit.contains("of 11 changed files"),
        "{hit}"
    );
    assert_eq!(t["outcome"], "error", "{}", t["error"]);
}
