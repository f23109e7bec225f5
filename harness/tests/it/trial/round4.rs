//! Containment, round four (issue 41): socket families, the command record inside its bound,
//! one uid per live command, what a resume or a label may overwrite, the files a suite names.

use super::sandbox::sh;

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
