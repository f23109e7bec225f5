//! The sandbox confines what a model-written script can do: tried directly with attack scripts.

mod common;
use harness::sandbox::{self, Limits, Mode};
use std::path::Path;
use std::time::Duration;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn sh(ws: &Path, script: &str, timeout: u64) -> sandbox::Output {
    sandbox::set_helper(env!("CARGO_BIN_EXE_harness"));
    std::fs::write(ws.join("attack.sh"), script).unwrap();
    rt().block_on(sandbox::run(
        "sh",
        &["attack.sh".to_string()],
        ws,
        &Limits {
            timeout: Duration::from_secs(timeout),
            ..Limits::default()
        },
        Mode::Confined,
    ))
    .unwrap()
}

#[test]
fn a_script_runs_in_its_workspace_as_an_unprivileged_user_and_can_write_there() {
    let ws = tempfile::tempdir().unwrap();
    let o = sh(ws.path(), "id -u\necho made > out.txt\ncat out.txt\n", 10);
    assert_eq!(o.code, Some(0), "{o:?}");
    let uid: u32 = o.stdout.lines().next().unwrap().trim().parse().unwrap();
    assert_ne!(uid, 0, "{o:?}");
    assert!(o.stdout.contains("made"), "{o:?}");
}

#[test]
fn a_script_cannot_read_or_write_outside_its_workspace() {
    let ws = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("secret.txt"), "other trial").unwrap();
    let checkout = common::repo_root();
    let script = format!(
        "cat /etc/passwd && echo READ-PASSWD\n\
         cat {other}/secret.txt && echo READ-OTHER\n\
         ls {checkout} && echo READ-CHECKOUT\n\
         ls /root && echo READ-HOME\n\
         echo x > /tmp/sandbox-escape-$$ && echo WROTE-TMP\n\
         echo x > {other}/planted && echo WROTE-OTHER\n\
         echo done\n",
        other = other.path().display(),
        checkout = checkout.display()
    );
    let o = sh(ws.path(), &script, 10);
    assert!(o.stdout.contains("done"), "{o:?}");
    for bad in [
        "READ-PASSWD",
        "READ-OTHER",
        "READ-CHECKOUT",
        "READ-HOME",
        "WROTE-TMP",
        "WROTE-OTHER",
    ] {
        assert!(!o.stdout.contains(bad), "{bad}: {o:?}");
    }
    assert!(!other.path().join("planted").exists());
}

#[test]
fn a_script_cannot_reach_the_network_not_even_loopback() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let ws = tempfile::tempdir().unwrap();
    let script = format!(
        "python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2); print('CONNECTED')\" || echo refused\n"
    );
    let o = sh(ws.path(), &script, 10);
    assert!(!o.stdout.contains("CONNECTED"), "{o:?}");
    assert!(o.stdout.contains("refused"), "{o:?}");
}

#[test]
fn nothing_a_script_starts_outlives_the_time_limit() {
    let ws = tempfile::tempdir().unwrap();
    let marker = ws.path().join("alive");
    // One child stays in the process group, one leaves it with setsid: neither may survive.
    let script = "(while true; do date +%N > alive; sleep 0.1; done) &\nsetsid sh -c 'while true; do date +%N > alive; sleep 0.1; done' &\nsleep 60\n";
    let started = std::time::Instant::now();
    let o = sh(ws.path(), script, 2);
    assert!(o.timed_out, "{o:?}");
    assert!(started.elapsed() < Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(600));
    let before = std::fs::read_to_string(&marker).unwrap_or_default();
    std::thread::sleep(Duration::from_millis(600));
    let after = std::fs::read_to_string(&marker).unwrap_or_default();
    assert_eq!(before, after, "a background process is still writing");
}
